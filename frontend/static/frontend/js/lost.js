// "Where was it lost?" after a resigned game: the server's solver finds the move that lost
// it (GET /api/sessions/<id>/analysis/, worked out in the background); this module asks,
// waits while it is pending, and says the answer in the notice with a way to watch it.
import * as api from './api.js';
import { t } from './i18n.js';
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
        ? (r.winning_alternative ? t('lost_still_wins', { alt: r.winning_alternative }) : t('lost_never'))
        : t('lost_at', { n: r.turning_point + 1, move: r.losing_move, alt: r.winning_alternative });
      say(st, text + (r.full_knowledge ? ' ' + t('lost_full_knowledge') : ''), 'hint',
        r.turning_point == null ? null : ['watch'], true);
      return;
    }
    await new Promise((done) => setTimeout(done, WAIT_MS));
  }
  say(st, t('lost_later'), 'hint');
}
