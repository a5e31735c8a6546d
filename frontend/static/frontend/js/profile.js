// The player's profile: name, streaks and per-game statistics.
import * as api from './api.js';
import { clock, page, t } from './i18n.js';

async function start() {
  const me = await api.me();
  document.getElementById('me-name').textContent = me.display_name;
  document.getElementById('me-kind').textContent = me.guest ? '' : me.username;
  let stats = me.stats;
  if (!stats) { try { stats = await api.stats(); } catch { stats = null; } }
  stats = stats || { games: {} };
  document.getElementById('me-streak').textContent = stats.current_streak ?? '–';
  document.getElementById('me-best-streak').textContent = stats.best_streak ?? '–';
  document.getElementById('me-freezes').textContent = stats.freezes ?? '–';
  drawCalendar(stats.calendar || []);
  const body = document.getElementById('me-stats');
  const games = stats.games || {};
  for (const [key, g] of Object.entries(games)) {
    const tr = document.createElement('tr');
    const rate = g.played ? Math.round(100 * (g.win_rate ?? g.won / g.played)) + '%' : '–';
    for (const c of [page.titles[key] || key, g.played ?? 0, g.won ?? 0, rate, g.best_time_ms == null ? '–' : clock(g.best_time_ms)]) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.append(td);
    }
    body.append(tr);
  }
  if (!body.children.length) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<td colspan="5"></td>';
    tr.firstChild.textContent = t('no_games');
    body.append(tr);
  }
}
// Five weeks of days, a square each (won, played, frozen, missed), each with its name for
// a screen reader, and beneath them a bar per day of the most cards up (CSS heights).
function drawCalendar(days) {
  const cal = document.getElementById('me-calendar');
  const chart = document.getElementById('me-chart');
  cal.replaceChildren();
  chart.replaceChildren();
  for (const d of days) {
    const kind = d.won ? 'won' : d.frozen ? 'frozen' : d.played ? 'played' : 'missed';
    const li = document.createElement('li');
    li.className = 'day ' + kind;
    li.dataset.date = d.date;
    li.title = `${d.date}: ${t('day_' + kind)}`;
    li.setAttribute('aria-label', li.title);
    cal.append(li);
    const bar = document.createElement('span');
    bar.className = 'bar ' + kind;
    bar.style.height = Math.round((100 * d.cards_up) / 52) + '%';
    chart.append(bar);
  }
}

// The player's own ranked wins and what the fair-play review made of each.
async function showReviews() {
  let r;
  try { r = await api.reviews(); } catch { return; }
  const body = document.getElementById('me-reviews');
  for (const w of r.reviews) {
    const tr = document.createElement('tr');
    const what = w.verified ? t('review_verified') : w.review === 'disqualified' ? t('review_disqualified')
      : w.review === 'pending' && w.verified === null ? t('review_checking') : t('review_pending', { why: w.reasons.join('; ') });
    for (const c of [w.date, page.titles[w.game] || w.game, w.time_ms == null ? '–' : clock(w.time_ms), what]) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.append(td);
    }
    body.append(tr);
  }
  document.getElementById('me-reviews-box').hidden = !r.reviews.length;
}

start().then(showReviews);
