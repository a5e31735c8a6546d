// One move sent to the server, and what the page says about it.  A move refused puts the
// cards back where they were (`before`) and says the engine's reason.
import { Refusal } from './connection.js';
import { announce, cardName, pileName, t } from './i18n.js';
import { stopHint } from './hint.js';
import { say } from './notice.js';
import { closePicker } from './picker.js';
import { translateReason } from './reasons.js';
import { draw } from './view.js';

// The new state, or null when the move was refused.
export async function send(st, token, before, describe) {
  stopHint(st);
  st.sel = null; st.drag = null; st.targets = null;
  closePicker(st);
  if (st.notice && st.notice.kind !== 'offline') st.notice = null;
  try {
    st.pendingBefore = before;
    const state = await st.conn.move(token);
    if (describe) announce(describe);
    return state;
  } catch (e) {
    if (e instanceof Refusal) {
      draw(st, before);
      say(st, translateReason(e.message, e.code, e.params), 'refusal');
      return null;
    }
    say(st, t('error', { error: e.message }), 'refusal');
    draw(st, before);
    return null;
  } finally {
    st.pendingBefore = null;
  }
}

export function describeMove(m) {
  if (m.from === 'stock') return t('drew');
  if (m.to === 'stock') return t('recycled');
  return m.count > 1 ? t('moved_run', { n: m.count, to: pileName(m.to) }) : t('moved', { card: cardName(m.card), to: pileName(m.to) });
}
