// FreeCell's run picker: a long press on a column opens it beside the finger; ▲/▼ (or a
// slide onto them) change the run's first card, and the run stays picked for a tap or a
// drag to its destination.
import { announce, cardName, t } from './i18n.js';
import { pickerStep, pile, targetsFor } from './intents.js';
import { draw } from './view.js';

const $ = (id) => document.getElementById(id);

export function openPicker(st, name, index, x, y) {
  Object.assign(st.picker, { open: true, pile: name, index, hover: null });
  const el = $('picker');
  el.hidden = false;
  // Beside the finger, its arrows above and below the finger's height: a slide up or down
  // reaches one arrow without crossing the other.
  const w = el.offsetWidth || 190, h = el.offsetHeight || 140;
  let left = x + 28;
  if (left + w > window.innerWidth - 4) left = x - 28 - w;
  el.style.left = Math.max(4, left) + 'px';
  el.style.top = Math.max(4, Math.min(window.innerHeight - h - 4, y - h / 2)) + 'px';
  showRun(st);
}

// -1: one more card, +1: one card fewer.
export function stepPicker(st, d) {
  const next = pickerStep(st, d);
  if (next === null) return;
  st.picker.index = next;
  showRun(st);
}

export function closePicker(st) {
  if (!st.picker.open) return;
  st.picker.open = false;
  $('picker').hidden = true;
}

function showRun(st) {
  const p = st.picker, cards = pile(st.s, p.pile);
  $('picker-text').textContent = t('picker', { n: cards.length - p.index, card: cardName(cards[p.index]) });
  st.sel = { pile: p.pile, index: p.index };
  st.targets = targetsFor(st.s, p.pile, p.index);
  announce($('picker-text').textContent);
  draw(st);
}
