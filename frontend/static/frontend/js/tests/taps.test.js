// A tap, a click or Enter on a card or a pile: what it means.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activate, heldWhy, pickable, repeatTap } from '../intents.js';
import { bakers, freecell, klondike } from './tables.js';

test('a tap on a card whose move is up sends it up, even where it could also go elsewhere', () => {
  const st = bakers();
  assert.deepEqual(activate(st, 'tableau:8', 3), { move: st.s.legal_moves.find((m) => m.move === '9h') });
  // A tap on the pile itself means its top card.
  assert.equal(activate(st, 'tableau:8', -1).move.move, '9h');
});

test('a tap on a card that cannot go up picks it, however many places it may go', () => {
  const st = bakers();
  assert.deepEqual(activate(st, 'tableau:3', 3), { select: { pile: 'tableau:3', index: 3 } });
  assert.deepEqual(activate(st, 'tableau:0', 3), { select: { pile: 'tableau:0', index: 3 } });
  // Nowhere to go at all: picked still, so that the server can say why a drop is refused.
  assert.deepEqual(activate(st, 'tableau:2', 3), { select: { pile: 'tableau:2', index: 3 } });
});

test('the space bar picks a card that could go up, so that it can go elsewhere', () => {
  assert.deepEqual(activate(bakers(), 'tableau:8', 3, true), { select: { pile: 'tableau:8', index: 3 } });
});

test('a column\'s top card goes up; a card under it is picked with the cards below it', () => {
  const st = freecell();
  assert.deepEqual(activate(st, 'tableau:5', 2), { move: st.s.legal_moves.find((m) => m.move === '6h') });
  assert.deepEqual(activate(st, 'tableau:1', 6), { select: { pile: 'tableau:1', index: 6 } });
});

test('a tap on a picked card puts it back; on another card of its run, picks from there', () => {
  const st = freecell();
  st.sel = { pile: 'tableau:1', index: 6 };
  assert.deepEqual(activate(st, 'tableau:1', 6), { cancel: true });
  assert.deepEqual(activate(st, 'tableau:1', -1), { cancel: true });
  assert.deepEqual(activate(st, 'tableau:1', 7), { select: { pile: 'tableau:1', index: 7 } });
  assert.deepEqual(activate(st, 'tableau:1', 5), { select: { pile: 'tableau:1', index: 5 } });
});

test('with cards picked, a tap on another pile drops them there', () => {
  const st = freecell();
  st.sel = { pile: 'tableau:1', index: 6 };
  assert.equal(activate(st, 'tableau:6', -1).move.move, '27v2');
  assert.deepEqual(activate(st, 'tableau:0', 5), { token: '21v2' });
});

test('a drop made with the keys sends the keyboard to the destination', () => {
  const st = freecell();
  st.sel = { pile: 'tableau:1', index: 7 };
  st.keyboard = true;
  const intent = activate(st, 'cell:2', -1);
  assert.equal(intent.move.move, '2c');
  assert.deepEqual(intent.focus, { pile: 'cell:2', index: 999 });
});

test('a tap on the stock turns it, and turns the waste back once it is empty', () => {
  assert.deepEqual(activate(klondike(), 'stock', -1), { move: { move: 's', from: 'stock', to: 'waste', count: 1 } });
  const back = { move: 'r', from: 'waste', to: 'stock', count: 24 };
  assert.deepEqual(activate(klondike([back], { stock: 0 }), 'stock', -1), { move: back });
});

test('a stock the rules no longer turn is touched anyway, for the server to say why', () => {
  const spent = (stock) => klondike([], { stock, passes_left: 0 }, {}, 'klondike-1-pass');
  assert.deepEqual(activate(spent(0), 'stock', -1), { token: 'r' });
  assert.deepEqual(activate(spent(3), 'stock', -1), { token: 's' });
});

test('an empty pile, a face-down card and a won game: nothing', () => {
  assert.equal(activate(freecell(), 'cell:2', -1), null);
  assert.equal(activate(klondike(), 'tableau:6', 2), null);
  assert.equal(activate(freecell({ won: true }), 'tableau:5', 2), null);
});

test('Klondike ready to finish: a tap anywhere starts the finish, unless cards are picked', () => {
  const st = klondike(undefined, {}, { can_finish: true });
  assert.deepEqual(activate(st, 'tableau:3', 3), { finish: true });
  assert.deepEqual(activate(st, 'stock', -1), { finish: true });
  st.sel = { pile: 'waste', index: 2 };
  assert.deepEqual(activate(st, 'waste', 2), { cancel: true });
  // FreeCell has a Finish button, not a table to tap.
  assert.notDeepEqual(activate(freecell({ can_finish: true }), 'tableau:5', 2), { finish: true });
});

test('which cards may be taken hold of', () => {
  const fc = freecell(), bd = bakers(), kl = klondike();
  assert.ok(pickable(fc, 'tableau:1', 0), 'any face-up card of a FreeCell column');
  assert.ok(pickable(fc, 'cell:0', 0));
  assert.ok(pickable(fc, 'foundation:C', 1), "a FreeCell foundation's top: the server says it stays");
  assert.ok(!pickable(fc, 'foundation:C', 0));
  assert.ok(!pickable(fc, 'cell:2', 0), 'an empty cell');
  assert.ok(pickable(bd, 'tableau:3', 3));
  assert.ok(!pickable(bd, 'tableau:3', 2), "one card at a time in Baker's Dozen");
  assert.ok(!pickable(bd, 'foundation:H', 0), "Baker's Dozen's foundations keep their cards");
  assert.ok(!pickable(kl, 'tableau:3', 2), 'a face-down card');
  assert.ok(pickable(kl, 'tableau:3', 3));
  assert.ok(pickable(kl, 'waste', 2));
  assert.ok(!pickable(kl, 'waste', 1), 'under the top of the waste');
});

test('where the server marks a move best, a tap plays it: a column as well as a foundation', () => {
  const best = [
    { move: '34', from: 'tableau:2', to: 'tableau:3', count: 1, card: 'JH' },
    { move: '35', from: 'tableau:2', to: 'tableau:4', count: 1, card: 'JH', best: true },
    { move: 'w6', from: 'waste', to: 'tableau:5', count: 1, card: '9S', best: true },
    { move: '1h', from: 'tableau:0', to: 'foundation:H', count: 1, card: '2H' },
    { move: '12', from: 'tableau:0', to: 'tableau:1', count: 1, card: '2H', best: true },
  ];
  const st = klondike(best);
  assert.deepEqual(activate(st, 'tableau:2', 2), { move: best[1] });
  assert.deepEqual(activate(st, 'waste', 2), { move: best[2] });
  assert.deepEqual(activate(st, 'tableau:0', 0), { move: best[4] }, 'best, even where it could go up');
  // Under the waste's top, or with the space bar: picked, not sent.
  assert.equal(activate(st, 'waste', 1), null);
  assert.deepEqual(activate(st, 'tableau:2', 2, true), { select: { pile: 'tableau:2', index: 2 } });
  // Nowhere to go: picked, so that the server can say why a drop is refused.
  assert.deepEqual(activate(st, 'tableau:3', 3), { select: { pile: 'tableau:3', index: 3 } });
});

test('a tap on the bare table starts the finish while it is offered, else lets picked cards go', () => {
  const ready = klondike(undefined, {}, { can_finish: true });
  assert.deepEqual(activate(ready, null, -1), { finish: true });
  const st = klondike();
  assert.equal(activate(st, null, -1), null);
  st.sel = { pile: 'waste', index: 2 };
  assert.deepEqual(activate(st, null, -1), { cancel: true });
});

test('a double tap on a foundation sends up every card that can go, in every game', () => {
  for (const st of [klondike(), freecell(), bakers()]) {
    assert.deepEqual(activate(st, 'foundation:H', 0, false, true), { sendUp: true });
    st.sel = { pile: 'foundation:H', index: 0 }; // the first tap picked its card
    assert.deepEqual(activate(st, 'foundation:H', 0, false, true), { sendUp: true });
  }
  // Elsewhere a double tap is two taps; on the foundation, a single tap picks or does nothing.
  assert.deepEqual(activate(klondike(), 'foundation:S', 3), { select: { pile: 'foundation:S', index: 3 } });
  assert.equal(activate(bakers(), 'foundation:H', 0), null);
  assert.deepEqual(activate(freecell(), 'tableau:1', 6, false, true), { select: { pile: 'tableau:1', index: 6 } });
});

test('a card under the top one, where only top cards move, says why it cannot be taken', () => {
  const st = bakers();
  assert.equal(pickable(st, 'tableau:3', 1), false);
  assert.equal(heldWhy(st, 'tableau:3', 1), 'r_top_only');
  assert.deepEqual(activate(st, 'tableau:3', 1), { refuse: 'r_top_only' });
  assert.equal(heldWhy(st, 'tableau:3', 3), null);
  // FreeCell takes any card of a column (the server says whether its run may move).
  assert.equal(heldWhy(freecell(), 'tableau:1', 2), null);
});

test('the second click of a double click that played a move does nothing, but on a foundation or the stock', () => {
  const moved = { pile: 'tableau:3', moved: true };
  assert.equal(repeatTap('tableau:3', moved), true);
  assert.equal(repeatTap('tableau:3', { pile: 'tableau:3', moved: false }), false);
  assert.equal(repeatTap('foundation:H', { pile: 'foundation:H', moved: true }), false);
  assert.equal(repeatTap('stock', { pile: 'stock', moved: true }), false);
  assert.equal(repeatTap('tableau:3', null), false);
});
