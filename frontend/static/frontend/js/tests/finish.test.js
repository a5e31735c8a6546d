// The finish's moves, in order, and the notice the table shows by itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finishStep, standing, upMove } from '../intents.js';
import { bakers, freecell, klondike } from './tables.js';

const turn = { move: 's', from: 'stock', to: 'waste', count: 1 };

test('the finish sends a card up first, in the order the server lists them', () => {
  const st = freecell({ can_finish: true });
  st.s.legal_moves = [
    { move: '3c', from: 'tableau:2', to: 'cell:2', count: 1, card: '2H' },
    { move: '6h', from: 'tableau:5', to: 'foundation:S', count: 1, card: 'AS' },
    { move: 'ah', from: 'cell:0', to: 'foundation:D', count: 1, card: '3D' },
  ];
  assert.deepEqual(finishStep(st, 3), { move: st.s.legal_moves[1], idle: 0 });
});

test('a card coming back down from a foundation is no step of the finish', () => {
  const st = klondike();
  assert.equal(finishStep(st, 0).move.move, '1h');
  st.s.legal_moves = st.s.legal_moves.filter((m) => m.move !== '1h');
  assert.equal(finishStep(st, 0).move.move, 's');
});

test('with nothing to send up, the Klondike finish turns the stock, counting the turns', () => {
  const st = klondike([turn]);
  assert.deepEqual(finishStep(st, 0), { move: turn, idle: 1 });
  const back = { move: 'r', from: 'waste', to: 'stock', count: 3 };
  assert.deepEqual(finishStep(klondike([back], { stock: 0 }), 4), { move: back, idle: 5 });
});

test('the stock gone round twice with nothing going up ends the finish', () => {
  // Stock 21 and waste 3: twice round is 48 turns, and two more.
  const st = klondike([turn]);
  assert.equal(finishStep(st, 49).move, turn);
  assert.deepEqual(finishStep(st, 50), { move: null, idle: 51 });
});

test('a game without a stock stops where nothing goes up', () => {
  assert.deepEqual(finishStep(bakers(), 0).move.move, '9h');
  const st = bakers();
  st.s.legal_moves = st.s.legal_moves.filter((m) => m.move !== '9h');
  assert.deepEqual(finishStep(st, 0), { move: null, idle: 0 });
  const fc = freecell();
  fc.s.legal_moves = fc.s.legal_moves.filter((m) => m.move !== '6h');
  assert.equal(finishStep(fc, 0).move, null);
});

test('the standing notice: resigned, finishing, no more moves, tap to finish', () => {
  assert.equal(standing(freecell()), null);
  assert.deepEqual(standing(freecell({ status: 'resigned' })), { key: 'resigned', kind: 'info', exits: ['replay', 'another'] });
  assert.deepEqual(standing(freecell({ no_legal_move: true })), { key: 'no_moves', kind: 'dead', exits: ['undo', 'replay', 'another'] });
  assert.equal(standing(freecell({ can_finish: true })), null, 'FreeCell finishes with its button');
  assert.deepEqual(standing(klondike(undefined, {}, { can_finish: true })), { key: 'tap_finish', kind: 'info', tapFinish: true });
  const st = klondike(undefined, {}, { can_finish: true });
  st.finishing = true;
  assert.deepEqual(standing(st), { key: 'finishing', kind: 'info' });
  assert.equal(standing(freecell({ won: true, no_legal_move: true })), null);
});

test('Send up plays the cards that can go up and stops there, never touching the stock', () => {
  const st = klondike();
  assert.equal(finishStep(st, 0, true).move.move, '1h');
  st.s.legal_moves = st.s.legal_moves.filter((m) => m.move !== '1h');
  assert.deepEqual(finishStep(st, 0, true), { move: null, idle: 0 });
  assert.equal(upMove(st.s), null);
  assert.equal(upMove(bakers().s).move, '9h');
});
