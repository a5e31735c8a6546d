// "Where was it lost?" after a resigned game: the server's solver finds the move that lost
// it (GET /api/sessions/<id>/analysis/, worked out in the background); this module asks,
// waits while it is pending, and says the answer in the notice with a way to watch it.
import * as api from './api.js';
import { cardName, pileName, t } from './i18n.js';
import { say } from './notice.js';

const WAIT_MS = 1500;
const TRIES = 20;

export async function whereLost(st) {
  say(st, t('lost_searching'), 'searching', null, true);
  for (let i = 0; i < TRIES; i++) {
    let r;
    try { r = await api.analysis(st.s.id); } catch (e) { say(st, e.message, 'refusal'); return; }
    if (r.status === 'pending' && r.waiting_for) { say(st, t('lost_after_close'), 'hint', null, true); return; }
    if (r.status === 'unknown') { say(st, t('lost_unknown', { s: r.budget_seconds }), 'hint', null, true); return; }
    if (r.status === 'done') {
      st.lostAt = r.turning_point;
      const text = r.turning_point == null
        ? (r.winning_alternative ? t('lost_words_still', { alt: capital(words(r.alternative, r.winning_alternative)) }) : t('lost_never'))
        : t('lost_words', { n: r.turning_point + 1, move: words(r.losing, r.losing_move),
                            alt: capital(words(r.alternative, r.winning_alternative)) });
      say(st, text + (r.full_knowledge ? ' ' + t('lost_full_knowledge') : ''), 'hint',
        r.turning_point == null ? null : ['watch'], true);
      return;
    }
    await new Promise((done) => setTimeout(done, WAIT_MS));
  }
  say(st, t('lost_later'), 'hint');
}

// A move in words, as the table names cards and piles; its code when the server could not
// say which card it moves.
export function words(m, code) {
  if (!m) return code || '';
  if (m.from === 'stock') return t('w_stock');
  if (m.from === 'waste' && m.to === 'stock') return t('w_redeal');
  const card = cardName(m.card);
  const to = pileName(m.to);
  return m.count > 1 ? t('w_run', { count: m.count, card, to }) : t('w_move', { card, to });
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
