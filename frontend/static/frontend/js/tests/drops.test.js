// Cards let go over a pile (a drag's end, or a tap on the destination), and where picked
// cards may go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drop, targetsFor } from '../intents.js';
import { bakers, freecell, klondike } from './tables.js';

const run = { pile: 'tableau:1', index: 6 }; // 7D 6S in the FreeCell table

test('a drop on a legal destination makes that move', () => {
  const st = freecell();
  assert.deepEqual(drop(st, run, 'tableau:6'), { move: st.s.legal_moves.find((m) => m.move === '27v2') });
  assert.equal(drop(st, { pile: 'tableau:1', index: 7 }, 'cell:2').move.move, '2c');
  assert.equal(drop(bakers(), { pile: 'tableau:3', index: 3 }, 'tableau:11').move.move, '4q');
});

test('the run dragged decides the move: its top card alone is another move', () => {
  const st = freecell();
  assert.deepEqual(drop(st, run, 'cell:2'), { token: '2cv2' });
  assert.deepEqual(drop(st, { pile: 'tableau:1', index: 7 }, 'tableau:6'), { token: '27' });
});

test('a single card dropped on the wrong foundation goes to its own', () => {
  const st = freecell();
  assert.equal(drop(st, { pile: 'tableau:5', index: 2 }, 'foundation:H').move.move, '6h');
  assert.equal(drop(klondike(), { pile: 'tableau:0', index: 0 }, 'foundation:C').move.move, '1h');
});

test('a drop elsewhere makes no listed move: the notation goes, for the server to say why', () => {
  const st = freecell();
  assert.deepEqual(drop(st, run, 'tableau:0'), { token: '21v2' });
  assert.deepEqual(drop(st, { pile: 'cell:0', index: 0 }, 'tableau:2'), { token: 'a3' });
  assert.deepEqual(drop(st, { pile: 'foundation:C', index: 1 }, 'tableau:0'), { token: 'h1' });
  assert.deepEqual(drop(st, { pile: 'tableau:2', index: 6 }, 'foundation:D'), { token: '3h' });
  assert.deepEqual(drop(bakers(), { pile: 'tableau:0', index: 3 }, 'tableau:10'), { token: '1j' });
  assert.deepEqual(drop(klondike(), { pile: 'waste', index: 2 }, 'tableau:0'), { token: 'w1' });
});

test('a drop the notation cannot even write is refused on the page', () => {
  assert.deepEqual(drop(klondike(), { pile: 'tableau:0', index: 0 }, 'waste'), { refuse: true });
  assert.deepEqual(drop(klondike(), { pile: 'waste', index: 2 }, 'stock'), { refuse: true });
  assert.deepEqual(drop(freecell(), { pile: 'foundation:C', index: 1 }, 'foundation:S'), { refuse: true });
});

test('let go where they came from, or over no pile: the cards go back', () => {
  assert.deepEqual(drop(freecell(), run, 'tableau:1'), { cancel: true, quiet: true });
  assert.deepEqual(drop(freecell(), run, null), { cancel: true, quiet: true });
});

test('the piles lit up for picked cards are the legal moves of exactly those cards', () => {
  const fc = freecell();
  assert.deepEqual(targetsFor(fc.s, 'tableau:1', 6), new Set(['tableau:6']));
  assert.deepEqual(targetsFor(fc.s, 'tableau:1', 7), new Set(['cell:2']));
  assert.deepEqual(targetsFor(fc.s, 'tableau:5', 2), new Set(['foundation:S', 'cell:2', 'tableau:2']));
  assert.deepEqual(targetsFor(fc.s, 'tableau:1', 5), new Set());
  const bd = bakers();
  assert.deepEqual(targetsFor(bd.s, 'tableau:3', 3), new Set(['tableau:1', 'tableau:11']));
  assert.deepEqual(targetsFor(klondike().s, 'foundation:S', 3), new Set(['tableau:3']));
});
