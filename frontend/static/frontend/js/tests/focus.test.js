// The keyboard's place on the table, and the other small decisions of a gesture.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dragFrom, focusInColumn, focusStep, keptFocus, longPressable, pickerStep } from '../intents.js';
import { bakers, freecell, klondike } from './tables.js';

// table.js pileOrder for these games.
const KLONDIKE_ORDER = ['stock', 'waste', 'foundation:C', 'foundation:D', 'foundation:H', 'foundation:S',
  ...Array.from({ length: 7 }, (_, i) => `tableau:${i}`)];

test('←/→ walk the piles in reading order, round the ends, onto each top card', () => {
  const st = klondike();
  st.order = KLONDIKE_ORDER;
  st.focus = { pile: 'tableau:6', index: 6 };
  assert.deepEqual(focusStep(st, 1), { pile: 'stock', index: -1 });
  st.focus = { pile: 'stock', index: -1 };
  assert.deepEqual(focusStep(st, -1), { pile: 'tableau:6', index: 6 });
  assert.deepEqual(focusStep(st, 1), { pile: 'waste', index: 2 });
  st.focus = { pile: 'foundation:C', index: -1 };
  assert.deepEqual(focusStep(st, 1), { pile: 'foundation:D', index: -1 });
});

test('↑/↓ walk the face-up cards of a column and stop at its ends', () => {
  const st = klondike(undefined, { piles: { 'tableau:3': [null, null, '7C', '6H', '5S'] } });
  st.focus = { pile: 'tableau:3', index: 4 };
  assert.deepEqual(focusInColumn(st, -1), { pile: 'tableau:3', index: 3 });
  st.focus = { pile: 'tableau:3', index: 2 };
  assert.equal(focusInColumn(st, -1), null, 'a face-down card');
  assert.deepEqual(focusInColumn(st, 1), { pile: 'tableau:3', index: 3 });
  st.focus = { pile: 'tableau:3', index: 4 };
  assert.equal(focusInColumn(st, 1), null);
  st.focus = { pile: 'tableau:3', index: -1 };
  assert.deepEqual(focusInColumn(st, -1), { pile: 'tableau:3', index: 3 });
  st.focus = { pile: 'waste', index: 2 };
  assert.equal(focusInColumn(st, -1), null, 'only columns');
});

test('after a move the focus stays on a card that is still there', () => {
  const s = freecell().s;
  assert.deepEqual(keptFocus(s, { pile: 'tableau:5', index: 999 }), { pile: 'tableau:5', index: 2 });
  assert.deepEqual(keptFocus(s, { pile: 'tableau:5', index: -1 }), { pile: 'tableau:5', index: 2 });
  assert.deepEqual(keptFocus(s, { pile: 'cell:2', index: 0 }), { pile: 'cell:2', index: -1 });
  const f = { pile: 'tableau:5', index: 1 };
  assert.equal(keptFocus(s, f), f);
  assert.deepEqual(keptFocus(klondike().s, { pile: 'stock', index: -1 }), { pile: 'stock', index: -1 });
});

test('a press inside the picked run drags the whole run', () => {
  const st = freecell();
  assert.equal(dragFrom(st, 'tableau:1', 7), 7);
  st.sel = { pile: 'tableau:1', index: 5 };
  assert.equal(dragFrom(st, 'tableau:1', 7), 5);
  assert.equal(dragFrom(st, 'tableau:1', 4), 4);
  assert.equal(dragFrom(st, 'tableau:2', 6), 6);
});

test('the long press opens the picker on a FreeCell column card only', () => {
  assert.ok(longPressable(freecell(), 'tableau:1', 3));
  assert.ok(!longPressable(freecell(), 'tableau:1', -1));
  assert.ok(!longPressable(freecell(), 'cell:0', 0));
  assert.ok(!longPressable(bakers(), 'tableau:1', 3));
});

test("the picker's arrows move the run's first card within the column", () => {
  const st = klondike(undefined, { piles: { 'tableau:3': [null, null, '7C', '6H', '5S'] } });
  Object.assign(st.picker, { open: true, pile: 'tableau:3', index: 3 });
  assert.equal(pickerStep(st, -1), 2);
  assert.equal(pickerStep(st, 1), 4);
  st.picker.index = 2;
  assert.equal(pickerStep(st, -1), null);
  st.picker.index = 4;
  assert.equal(pickerStep(st, 1), null);
});
