// Hints go over HTTP beside the move queue: the table stays playable while the server
// searches, and the player's next move abandons the request.  The answer carries `hint`
// (a legal-move object, or null) and `verdict`: "solved", "unsolvable" (the solver's proof
// that no line wins from here) or "unknown" (a heuristic move: no line found in time).
import { cardName, pileName, t } from './i18n.js';
import { say } from './notice.js';
import { translateReason } from './reasons.js';
import { draw } from './view.js';

export function stopHint(st) {
  if (st.hintAsk) { st.hintAsk.abort(); st.hintAsk = null; }
}

export async function askHint(st) {
  stopHint(st);
  const ctl = new AbortController();
  st.hintAsk = ctl;
  const looking = setTimeout(() => { if (st.hintAsk === ctl) say(st, t('hint_looking'), 'searching', null, true); }, 300);
  let r;
  try {
    r = await st.conn.hint(ctl.signal);
  } catch (e) {
    clearTimeout(looking);
    if (ctl.signal.aborted) return;
    st.hintAsk = null;
    say(st, e.status === 422 || e.status === 400 ? translateReason(e.body.reason, e.body.code, e.body.params) || t('hint_none') : t('error', { error: e.message }), 'refusal');
    return;
  }
  clearTimeout(looking);
  if (ctl.signal.aborted) return;
  st.hintAsk = null;
  const m = r.hint;
  if (r.verdict === 'unsolvable') {
    st.hint = m;
    draw(st);
    say(st, t('hint_unsolvable'), 'dead', ['undo', 'hint', 'replay', 'another'], true);
    return;
  }
  if (!m) { say(st, t('hint_none'), 'info'); return; }
  st.hint = m;
  draw(st);
  let text = m.from === 'stock' || m.to === 'stock' ? t('hint_draw') : t('hint_show', { card: cardName(m.card), to: pileName(m.to) });
  if (r.verdict === 'unknown') text += ' ' + t('hint_fallback');
  say(st, text, 'hint');
}
