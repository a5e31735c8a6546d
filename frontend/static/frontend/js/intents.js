// What a gesture means, decided from the state (state.js) and the server's legal moves
// alone: no DOM, no network, so that node can check every decision (tests/).  A gesture's
// answer is an intent, which act.js carries out:
//   {move}                  play this legal-move object
//   {token}                 send this notation although it is not listed: the server says why not
//   {refuse: true | key}    not even a move the notation can write: the page says so (in
//                           the words of the sentence `key` when there is one)
//   {select: {pile, index}} pick these cards
//   {cancel: true, quiet}   drop the picked or dragged cards where they were
//   {finish: true}          start the finish
//   {sendUp: true}          send up every card that can go now (a double tap on a foundation)
//   null                    nothing
// A drop made from the keyboard also carries `focus`, where the keyboard goes next.
import { tokenFor } from './notation.js';

export function pile(s, name) { return s.view.piles[name] || []; }

const isStockTouch = (m) => m.from === 'stock' || m.to === 'stock';
const isFoundation = (name) => name.startsWith('foundation:');

// Cards taken from `index` up: a run in a column, one card anywhere else.
export function countFrom(s, name, index) {
  return name.startsWith('tableau:') ? pile(s, name).length - index : 1;
}

export function targetsFor(s, from, index) {
  const n = countFrom(s, from, index);
  return new Set(s.legal_moves.filter((m) => m.from === from && m.count === n).map((m) => m.to));
}

// A face-up card the player may take hold of (not necessarily with a legal move: the
// server says why a move is refused).
export function pickable(st, name, index) {
  const cards = pile(st.s, name);
  if (index < 0 || index >= cards.length || !cards[index]) return false;
  if (name.startsWith('tableau:')) return !st.meta.single || index === cards.length - 1;
  if (isFoundation(name) && !st.meta.foundation_pickable) return false;
  return index === cards.length - 1;
}

// What the notice bar says when nothing else is being said: a translation key, its kind,
// the exits offered (command names), and whether a tap anywhere starts the finish.
export function standing(st) {
  const s = st.s;
  if (!s || s.won) return null;
  if (s.status === 'resigned') return { key: 'resigned', kind: 'info', exits: ['replay', 'another'] };
  if (st.finishing) return { key: 'finishing', kind: 'info' };
  if (s.no_legal_move) return { key: 'no_moves', kind: 'dead', exits: ['undo', 'replay', 'another'] };
  if (s.can_finish && st.meta.draw) return { key: 'tap_finish', kind: 'info', tapFinish: true };
  return null;
}

// The cards of `from` ({pile, index}) let go over pile `dest` (null: over no pile).
export function drop(st, from, dest) {
  if (!dest || dest === from.pile) return { cancel: true, quiet: true };
  const moves = st.s.legal_moves;
  const n = countFrom(st.s, from.pile, from.index);
  let m = moves.find((x) => x.from === from.pile && x.to === dest && x.count === n);
  // A single card dropped on any foundation goes to its own suit's.
  if (!m && isFoundation(dest) && n === 1) m = moves.find((x) => x.from === from.pile && isFoundation(x.to));
  if (m) return { move: m };
  const token = tokenFor(st.meta, from.pile, dest, n);
  return token ? { token } : { refuse: true };
}

// The stock turns, or the waste turns back; unlisted, the server says why not.
function touchStock(s) {
  const m = s.legal_moves.find(isStockTouch);
  return m ? { move: m } : { token: s.view.stock ? 's' : 'r' };
}

// A tap, a click or Enter on a pile (and on one of its cards when index >= 0), or on the
// bare table (`name` null).  With `pickOnly` (the space bar) a card that could go somewhere
// is picked instead, so that it can be put somewhere else.  `double`: the second tap of a
// double tap on the same pile.
export function activate(st, name, index, pickOnly = false, double = false) {
  const s = st.s;
  if (s.won) return null;
  if (standing(st)?.tapFinish && !st.sel) return { finish: true };
  if (double && name && isFoundation(name)) return { sendUp: true };
  if (!name) return st.sel ? { cancel: true } : null;
  if (st.sel) {
    if (name === st.sel.pile) {
      if (index === st.sel.index || index < 0 || !pickable(st, name, index)) return { cancel: true };
      return { select: { pile: name, index } };
    }
    const intent = drop(st, st.sel, name);
    return st.keyboard ? { ...intent, focus: { pile: name, index: 999 } } : intent;
  }
  if (name === 'stock') return touchStock(s);
  const cards = pile(s, name);
  if (index < 0) index = cards.length - 1;
  if (index < 0 || !cards[index]) return null;
  if (!pickOnly && pickable(st, name, index)) {
    // Where the server ranks moves (the Klondike family), the card goes to the move it
    // marks best for it: a column as well as a foundation.
    const n = countFrom(s, name, index);
    const best = s.legal_moves.find((x) => x.best && x.from === name && x.count === n);
    if (best) return { move: best };
  }
  if (!pickOnly && index === cards.length - 1 && !isFoundation(name)) {
    const up = s.legal_moves.find((x) => x.from === name && isFoundation(x.to) && x.count === 1);
    if (up) return { move: up };
  }
  if (pickable(st, name, index)) return { select: { pile: name, index } };
  // A card under the top one where only top cards move: say so, as the server would.
  return heldWhy(st, name, index) === 'r_top_only' ? { refuse: 'r_top_only' } : null;
}

// Why the card at (name, index) cannot be taken hold of, as a sentence key of the engine's
// refusals (reasons.js), or null: a card under the top one where the game moves only top
// cards (the game's declared `single`), a face-down card.
export function heldWhy(st, name, index) {
  const cards = pile(st.s, name);
  if (!name.startsWith('tableau:') || index < 0 || index >= cards.length) return null;
  if (!cards[index]) return 'r_face_down';
  return st.meta.single && index < cards.length - 1 ? 'r_top_only' : null;
}

// Is this tap the second click of a double click whose first one played a move?  It does
// nothing then (a double click acts once), but on a foundation (Send up) and on the stock
// (each touch turns it).  `first`: the first tap, {pile, moved}.
export function repeatTap(name, first) {
  return Boolean(first && first.moved && name && !isFoundation(name) && name !== 'stock');
}

// A listed move that sends a card up (from anywhere but another foundation), or null.
export function upMove(s) {
  return s.legal_moves.find((x) => isFoundation(x.to) && !isFoundation(x.from)) || null;
}

// The finish's next move: any card up, else (with a stock) a turn of the stock, until the
// stock has gone round twice with nothing going up.  `idle` counts those turns.  With
// `upOnly` (Send up, a double tap on a foundation) the stock is never touched.
export function finishStep(st, idle, upOnly = false) {
  const s = st.s;
  const up = upMove(s);
  if (up) return { move: up, idle: 0 };
  if (upOnly || !st.meta.draw) return { move: null, idle };
  const turn = s.legal_moves.find(isStockTouch) || null;
  idle += 1;
  return { move: idle > 2 * (s.view.stock + pile(s, 'waste').length) + 2 ? null : turn, idle };
}

// Where a press on (name, index) drags from: the picked run when the press is inside it.
export function dragFrom(st, name, index) {
  return st.sel && st.sel.pile === name && index >= st.sel.index ? st.sel.index : index;
}

export function longPressable(st, name, index) {
  return Boolean(st.meta.supermove && name.startsWith('tableau:') && index >= 0 && pile(st.s, name)[index]);
}

// The picker's first card one up (-1) or down (+1), or null past the face-up run's ends.
export function pickerStep(st, d) {
  const p = st.picker, cards = pile(st.s, p.pile);
  const next = p.index + d;
  return next < 0 || next >= cards.length || !cards[next] ? null : next;
}

// ←/→: the next pile in reading order, round the ends, on its top card (-1, the pile
// itself, for an empty pile and for the stock, whose cards the view does not list).
export function focusStep(st, step) {
  const order = st.order;
  const name = order[(order.indexOf(st.focus.pile) + step + order.length) % order.length];
  return { pile: name, index: pile(st.s, name).length - 1 };
}

// ↑/↓: the card above or below in a column, face-up cards only; null where it stops.
export function focusInColumn(st, step) {
  const f = st.focus;
  if (!f.pile.startsWith('tableau:')) return null;
  const cards = pile(st.s, f.pile);
  const next = (f.index < 0 ? cards.length - 1 : f.index) + step;
  if (next < 0 || next >= cards.length || !cards[next]) return null;
  return { pile: f.pile, index: next };
}

// The focus kept on a card that still exists once the table has changed.
export function keptFocus(s, f) {
  const len = pile(s, f.pile).length;
  if (f.pile !== 'stock' && (f.index >= len || (f.index < 0 && len))) return { pile: f.pile, index: len - 1 };
  return f;
}
