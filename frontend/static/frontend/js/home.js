// Home: today's dailies with how many are playing each right now.
import * as api from './api.js';
import { t } from './i18n.js';
import { startCountdown } from './countdown.js';
import { openSocket } from './socket.js';

async function start() {
  try { await api.me(); } catch { /* cookies only */ }
  let daily;
  try { daily = await api.daily(); } catch { return; }
  startCountdown(document.getElementById('countdown'), daily.next_at);
  for (const d of daily.deals || []) {
    const li = document.querySelector(`.daily[data-game="${d.game}"]`);
    if (!li) continue;
    li.querySelector('[data-date]').textContent = d.date + (d.deal_number ? ` · #${d.deal_number}` : '')
      + (d.difficulty ? ` · ${t('difficulty_' + d.difficulty)}` : '') + (d.par ? ` · ${t('ar_par', { par: d.par })}` : '');
    const count = li.querySelector('[data-count]');
    if (typeof d.playing === 'number') count.textContent = t('playing_now', { n: d.playing });
    openSocket(`/ws/leaderboards/${d.game}/${d.date}/`, {
      onMessage(msg) {
        if (msg.type === 'presence') count.textContent = t('playing_now', { n: msg.playing });
      },
    });
  }
}
start();
