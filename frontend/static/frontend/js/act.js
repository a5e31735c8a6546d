// Carries out the intents of intents.js: picks cards, lets them go, plays moves, starts the
// finish or Send up.
import { runFinish, sendUp } from './finish.js';
import { announce, cardName, t } from './i18n.js';
import { countFrom, pile, targetsFor } from './intents.js';
import { describeMove, send } from './moves.js';
import { say } from './notice.js';
import { closePicker } from './picker.js';
import { draw } from './view.js';

function select(st, name, index) {
  st.sel = { pile: name, index };
  st.targets = targetsFor(st.s, name, index);
  const card = cardName(pile(st.s, name)[index]);
  const n = countFrom(st.s, name, index);
  announce(n > 1 ? t('selected_run', { card, n: n - 1 }) : t('selected', { card }));
  draw(st);
}

// `quiet`: the cards simply go back (a drag let go where it began), nothing is announced.
export function clearSelection(st, quiet = false, before = undefined) {
  if (!st.sel && !st.drag) return;
  st.sel = null; st.drag = null; st.targets = null;
  closePicker(st);
  if (!quiet) announce(t('cancelled'));
  draw(st, before);
}

// `before`: where the cards are seen now (a dragged ghost), for the move to slide from.
export function perform(st, intent, before) {
  if (!intent) return;
  if (intent.finish) runFinish(st);
  else if (intent.sendUp) { clearSelection(st, true); sendUp(st); }
  else if (intent.cancel) clearSelection(st, intent.quiet, before);
  else if (intent.select) select(st, intent.select.pile, intent.select.index);
  else if (intent.move) send(st, intent.move.move, before, describeMove(intent.move));
  else if (intent.token) send(st, intent.token, before);
  else if (intent.refuse) {
    st.sel = null; st.drag = null; st.targets = null;
    draw(st, before);
    say(st, t(intent.refuse === true ? 'cannot_go' : intent.refuse), 'refusal');
  }
  if (intent.focus) st.focus = intent.focus;
}
