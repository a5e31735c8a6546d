// Mouse and finger on the table (pointer events): a press is a tap (two on one pile in
// quick succession a double tap), a drag once it moves, or in FreeCell a long press that
// opens the run picker.  A tap on the bare table counts too (it starts the finish while
// "tap to finish" shows).  What each one means is decided by intents.js.
import { perform } from './act.js';
import { ghostPositions, hitPile, liftGhost, moveGhost, removeGhost } from './drag.js';
import { stopFinish } from './finish.js';
import { activate, dragFrom, drop, heldWhy, longPressable, pickable, repeatTap, targetsFor } from './intents.js';
import { closePicker, openPicker, stepPicker } from './picker.js';
import { draw, root } from './view.js';

const LONG_PRESS = 450;
const DRAG_START = 7; // px a press moves before it is a drag
const DOUBLE_TAP = 450; // ms between the two taps of a double tap

// Is a tap on pile `name` now the second tap of a double tap?
function isDouble(st, name) {
  return Boolean(st.lastTap && st.lastTap.pile === name && performance.now() - st.lastTap.at < DOUBLE_TAP);
}

export function bindPointer(st) {
  root.addEventListener('pointerdown', (e) => down(st, e));
  root.addEventListener('pointermove', (e) => move(st, e));
  root.addEventListener('pointerup', (e) => end(st, e, false));
  root.addEventListener('pointercancel', (e) => end(st, e, true));
  root.addEventListener('contextmenu', (e) => { if (st.meta.supermove) e.preventDefault(); });
  // Any press anywhere stops a finish in progress (and does nothing else); the buttons
  // that run one stop it themselves.  The second tap of a double tap on a foundation is
  // the end of the gesture that started the cards going up, not a press of its own.
  document.addEventListener('pointerdown', (e) => {
    if (!st.finishing || e.target.closest('#btn-third, #btn-send-up')) return;
    const pileEl = e.target.closest('#table .pile');
    const name = pileEl ? pileEl.dataset.pile : null;
    if (!(name && name.startsWith('foundation:') && isDouble(st, name))) stopFinish(st);
    st.lastTap = null;
    e.stopPropagation(); e.preventDefault();
  }, true);
}

function down(st, e) {
  if (!st.s || (e.pointerType === 'mouse' && e.button !== 0)) return;
  st.keyboard = false;
  if (st.finishing) { stopFinish(st); e.preventDefault(); return; }
  const cardEl = e.target.closest('.card');
  const pileEl = e.target.closest('.pile');
  if (!pileEl) { // the bare table: a tap, never a drag
    st.press = { id: e.pointerId, x: e.clientX, y: e.clientY, pile: null, index: -1, from: -1, dragging: false, long: false, timer: 0 };
    return;
  }
  const name = pileEl.dataset.pile;
  const index = cardEl && cardEl.dataset.index !== undefined ? Number(cardEl.dataset.index) : -1;
  const press = { id: e.pointerId, x: e.clientX, y: e.clientY, pile: name, index, from: dragFrom(st, name, index), dragging: false, long: false, timer: 0 };
  st.press = press;
  if (longPressable(st, name, index)) {
    press.timer = setTimeout(() => {
      if (st.press !== press || press.dragging) return;
      press.long = true;
      openPicker(st, name, index, press.x, press.y);
    }, LONG_PRESS);
  }
  root.setPointerCapture(e.pointerId);
}

function move(st, e) {
  const press = st.press;
  if (!press || e.pointerId !== press.id) return;
  const dx = e.clientX - press.x, dy = e.clientY - press.y;
  if (press.long) {
    // Sliding onto an arrow steps once; the finger must leave it to step again.
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const arrow = el && (el.id === 'picker-up' || el.id === 'picker-down') ? el.id : null;
    if (arrow && arrow !== st.picker.hover) stepPicker(st, arrow === 'picker-up' ? -1 : 1);
    st.picker.hover = arrow;
    return;
  }
  if (!press.dragging) {
    if (Math.hypot(dx, dy) < DRAG_START || press.pile === null) return;
    clearTimeout(press.timer);
    if (!pickable(st, press.pile, press.from)) {
      // A card that cannot be held says why, as every refused gesture does.
      st.press = null;
      const why = heldWhy(st, press.pile, press.from);
      if (why) perform(st, { refuse: why });
      return;
    }
    startDrag(st, press.pile, press.from);
    press.dragging = true;
  }
  moveGhost(root, dx, dy, e.clientX, e.clientY);
}

function startDrag(st, name, index) {
  closePicker(st);
  st.sel = null;
  st.drag = { pile: name, index };
  st.targets = targetsFor(st.s, name, index);
  liftGhost(root, name, index);
  draw(st);
}

function end(st, e, cancelled) {
  const press = st.press;
  if (!press || e.pointerId !== press.id) return;
  st.press = null;
  clearTimeout(press.timer);
  if (press.long) { st.picker.hover = null; return; } // released on the picker: cards stay picked
  if (press.dragging) {
    const before = ghostPositions();
    removeGhost();
    perform(st, drop(st, st.drag, cancelled ? null : hitPile(e.clientX, e.clientY)), before);
    return;
  }
  if (cancelled) return;
  const double = isDouble(st, press.pile);
  if (double && repeatTap(press.pile, st.lastTap)) { st.lastTap = null; return; }
  const tap = double ? null : { pile: press.pile, at: performance.now(), moved: false };
  st.lastTap = tap;
  const intent = activate(st, press.pile, press.index, false, double);
  if (tap && intent && (intent.move || intent.token)) tap.moved = true;
  perform(st, intent);
}
