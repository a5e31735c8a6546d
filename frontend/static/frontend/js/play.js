// The table page: one state object, the view functions of table.js over it, and the
// gestures (pointer, keyboard) turned into moves chosen from the server's legal moves.
import * as api from './api.js';
import { connect, Refusal } from './connection.js';
import { announce, cardName, clock, page, pileName, t } from './i18n.js';
import { tokenFor } from './notation.js';
import { ghostPositions, hitPile, liftGhost, moveGhost, removeGhost } from './drag.js';
import { translateReason } from './reasons.js';
import { animateFrom, pileOrder, positions, renderTable } from './table.js';

const meta = page.game;
const root = document.getElementById('table');
const $ = (id) => document.getElementById(id);

const st = {
  meta,
  s: null, // the server's state: view, legal_moves, score, cards_up, won, can_finish...
  sel: null, // {pile, index}: cards picked, waiting for a destination
  drag: null, // {pile, index} being dragged
  targets: null, // Set of pile names where the picked cards may go
  focus: { pile: 'tableau:0', index: -1 },
  keyboard: false,
  hint: null,
  notice: null,
  finishing: false,
  elapsed: 0,
  looked: false,
};
let conn = null;
let hintCtl = null;
const storeKey = `ds:${meta.key}:${meta.deal}`;

// ---------------------------------------------------------------------------- drawing
function draw(before) {
  if (!st.s) return;
  const f = st.focus, len = pile(f.pile).length;
  if (f.pile !== 'stock' && (f.index >= len || (f.index < 0 && len))) f.index = len - 1;
  renderTable(root, st);
  if (before) animateFrom(root, before);
  drawBar();
  drawNotice();
  focusCurrent(st.keyboard);
}

function drawBar() {
  const s = st.s;
  $('st-moves').textContent = s.moves ?? s.seq ?? 0;
  if ($('st-score')) $('st-score').textContent = s.score ?? 0;
  $('st-up').textContent = s.cards_up ?? 0;
  if ($('st-limit')) $('st-limit').textContent = t('move_n', { n: s.view.move_limit ?? 1 });
  if ($('st-passes')) {
    const left = s.view.passes_left;
    $('st-passes').textContent = left === null || left === undefined ? '' : t('passes_left', { n: left });
  }
  $('st-ranked').textContent = s.date ? t(s.ranked ? 'ranked' : 'practice') : '';
  const third = $('btn-third');
  third.textContent = st.finishing ? t('stop') : s.can_finish ? t(meta.single ? 'auto_finish' : 'finish') : t('new_deal');
  third.setAttribute('aria-keyshortcuts', s.can_finish ? 'F' : 'N');
  $('btn-undo').disabled = s.can_undo === false;
  $('btn-resign').hidden = !(s.ranked && s.status === 'playing');
}

let lastStanding = '';
function drawNotice() {
  const box = $('notice');
  const still = standing();
  // A standing notice (dead end, tap to finish) is announced once, when it appears.
  if (still && still.text !== lastStanding && !st.notice) announce(still.text);
  lastStanding = still ? still.text : '';
  const n = st.notice || still;
  box.replaceChildren();
  if (!n) { box.hidden = true; return; }
  box.hidden = false;
  box.className = 'notice ' + (n.kind || '');
  const span = document.createElement('span');
  span.textContent = n.text;
  box.append(span);
  for (const [label, fn] of n.exits || []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', fn);
    box.append(b);
  }
}

// What the table says when nothing else is being said.
function standing() {
  const s = st.s;
  if (!s || s.won) return null;
  if (s.status === 'resigned') return { text: t('resigned'), kind: 'info', exits: [[t('replay'), replay], [t('another'), newDeal]] };
  if (st.finishing) return { text: t('finishing'), kind: 'info' };
  if (s.no_legal_move) {
    return { text: t('no_moves'), kind: 'dead', exits: [[t('undo'), undo], [t('replay'), replay], [t('another'), newDeal]] };
  }
  if (s.can_finish && meta.draw) return { text: t('tap_finish'), kind: 'info', tapFinish: true };
  return null;
}

let noticeTimer = 0;
function say(text, kind = 'info', exits = null, sticky = false) {
  st.notice = { text, kind, exits };
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(() => { st.notice = null; drawNotice(); }, kind === 'refusal' ? 4000 : 6000);
  drawNotice();
  announce(text);
}

// One tab stop inside the table (roving tabindex): the focused pile or card.
function focusCurrent(move = true) {
  const f = st.focus;
  let el = null;
  if (f.index >= 0) el = root.querySelector(`.card[data-pile="${f.pile}"][data-index="${f.index}"]`);
  if (!el) el = root.querySelector(`.pile[data-pile="${f.pile}"]`);
  root.querySelectorAll('[tabindex="0"]').forEach((e) => { e.tabIndex = -1; });
  if (el) { el.tabIndex = 0; if (move && document.activeElement !== el) el.focus({ preventScroll: true }); }
}

// ---------------------------------------------------------------------------- state
function setState(state, before) {
  const prev = st.s;
  st.s = state;
  if (prev && state.seq !== prev.seq) { st.hint = null; }
  draw(before || (prev ? positions(root) : null));
  if (state.won && !st.looked) setTimeout(showWin, 350);
}

function pile(name) { return (st.s.view.piles[name]) || []; }
function legal() { return st.s.legal_moves || []; }
function countFrom(name, index) { return name.startsWith('tableau:') ? pile(name).length - index : 1; }

function targetsFor(from, index) {
  const n = countFrom(from, index);
  return new Set(legal().filter((m) => m.from === from && (m.count || 1) === n).map((m) => m.to));
}

function select(name, index) {
  st.sel = { pile: name, index };
  st.targets = targetsFor(name, index);
  const code = pile(name)[index];
  const n = countFrom(name, index);
  announce(n > 1 ? t('selected_run', { card: cardName(code), n: n - 1 }) : t('selected', { card: cardName(code) }));
  draw();
}

function clearSelection(quiet) {
  if (!st.sel && !st.drag) return;
  st.sel = null; st.drag = null; st.targets = null;
  closePicker();
  if (!quiet) announce(t('cancelled'));
  draw();
}

function pickable(name, index) {
  const cards = pile(name);
  if (index < 0 || index >= cards.length || !cards[index]) return false;
  if (name.startsWith('tableau:')) return !meta.single || index === cards.length - 1;
  if (name.startsWith('foundation:') && meta.key === 'bakers-dozen') return false;
  return index === cards.length - 1;
}

// ---------------------------------------------------------------------------- moves
async function send(token, before, describe) {
  stopHint();
  st.sel = null; st.drag = null; st.targets = null;
  closePicker();
  if (st.notice && st.notice.kind !== 'offline') st.notice = null;
  try {
    st.pendingBefore = before;
    const state = await conn.move(token);
    if (describe) announce(describe);
    return state;
  } catch (e) {
    if (e instanceof Refusal) {
      draw(before); // the card goes back where it came from
      say(translateReason(e.message, e.code, e.params), 'refusal');
      return null;
    }
    say(t('error', { error: e.message }), 'refusal');
    draw(before);
    return null;
  } finally {
    st.pendingBefore = null;
  }
}

function describeMove(m) {
  if (m.from === 'stock') return t('drew');
  if (m.to === 'stock') return t('recycled');
  const n = m.count || 1;
  return n > 1 ? t('moved_run', { n, to: pileName(m.to) }) : t('moved', { card: cardName(m.card), to: pileName(m.to) });
}

function dropOn(dest, before) {
  const sel = st.sel || st.drag;
  if (!sel) return;
  if (dest === sel.pile) { clearSelection(true); draw(before); return; }
  const n = countFrom(sel.pile, sel.index);
  let m = legal().find((x) => x.from === sel.pile && x.to === dest && (x.count || 1) === n);
  if (!m && dest.startsWith('foundation:') && n === 1) {
    m = legal().find((x) => x.from === sel.pile && x.to.startsWith('foundation:'));
  }
  if (m) { send(m.move, before, describeMove(m)); return; }
  const token = tokenFor(meta, sel.pile, dest, n);
  if (!token) {
    st.sel = null; st.drag = null; st.targets = null;
    draw(before);
    say(t('cannot_go'), 'refusal');
    return;
  }
  send(token, before);
}

function touchStock() {
  const m = legal().find((x) => x.from === 'stock' || x.to === 'stock');
  if (m) { send(m.move, null, describeMove(m)); return; }
  send(st.s.view.stock ? 's' : 'r');
}

// A tap, a click or Enter on a pile (and on one of its cards when index >= 0).
// With ``pickOnly`` (the space bar) a card that could go up is picked instead, so that it
// can be put somewhere else.
function activate(name, index, pickOnly = false) {
  if (st.s.won) return;
  if (standing()?.tapFinish && !st.sel) { runFinish(); return; }
  if (st.sel) {
    if (name === st.sel.pile) {
      if (index === st.sel.index || index < 0 || !pickable(name, index)) clearSelection();
      else select(name, index);
      return;
    }
    dropOn(name);
    if (st.keyboard) st.focus = { pile: name, index: 999 };
    return;
  }
  if (name === 'stock') { touchStock(); return; }
  const cards = pile(name);
  if (index < 0) index = cards.length - 1;
  if (index < 0 || !cards[index]) return;
  if (!pickOnly && index === cards.length - 1 && !name.startsWith('foundation:')) {
    const up = legal().find((x) => x.from === name && x.to.startsWith('foundation:') && (x.count || 1) === 1);
    if (up) { send(up.move, null, describeMove(up)); return; }
  }
  if (pickable(name, index)) select(name, index);
}

async function undo() {
  stopHint(); stopFinish();
  st.sel = null; st.targets = null;
  st.notice = null;
  try {
    await conn.undo();
    announce(t('undone'));
  } catch (e) {
    say(e instanceof Refusal ? translateReason(e.message, e.code, e.params) : t('no_undo'), 'refusal');
  }
}

function newDeal() {
  localStorage.removeItem(`ds:${meta.key}:random`);
  location.href = `/play/${meta.key}/?deal=random`;
}

function dealId() {
  const s = st.s;
  return String(s.deal_number ?? s.deal ?? '');
}

function replay() {
  const id = dealId();
  localStorage.removeItem(`ds:${meta.key}:${id}`);
  location.href = `/play/${meta.key}/?deal=${encodeURIComponent(id)}`;
}

// ---------------------------------------------------------------------------- finish
function stopFinish() {
  if (st.finishing) { st.finishing = false; drawBar(); drawNotice(); }
}

async function runFinish() {
  if (st.finishing || !st.s.can_finish) return;
  st.finishing = true;
  st.sel = null; st.targets = null;
  drawBar(); drawNotice();
  let idle = 0;
  while (st.finishing && !st.s.won) {
    const moves = legal();
    let m = moves.find((x) => x.to.startsWith('foundation:') && !x.from.startsWith('foundation:'));
    if (m) idle = 0;
    else if (!meta.single) {
      m = moves.find((x) => x.from === 'stock' || x.to === 'stock');
      idle += 1;
      if (idle > 2 * (st.s.view.stock + pile('waste').length) + 2) m = null;
    }
    if (!m) break;
    const ok = await send(m.move, null);
    if (!ok) break;
    await new Promise((r) => setTimeout(r, 110));
  }
  st.finishing = false;
  draw();
}

// ---------------------------------------------------------------------------- hint
function stopHint() {
  if (hintCtl) { hintCtl.abort(); hintCtl = null; }
}

function hintMove(r) {
  let h = r && (r.hint ?? r.move ?? r.suggestion);
  if (typeof h === 'string') h = legal().find((m) => m.move === h) || { move: h };
  if (h && h.move && typeof h.move === 'object') h = h.move;
  return h && h.from ? h : null;
}

async function askHint() {
  stopHint();
  const ctl = new AbortController();
  hintCtl = ctl;
  const looking = setTimeout(() => { if (hintCtl === ctl) say(t('hint_looking'), 'searching', null, true); }, 300);
  let r;
  try {
    r = await conn.hint(ctl.signal);
  } catch (e) {
    clearTimeout(looking);
    if (ctl.signal.aborted) return;
    hintCtl = null;
    say(e.status === 422 || e.status === 400 ? translateReason(e.body.reason, e.body.code, e.body.params) || t('hint_none') : t('error', { error: e.message }), 'refusal');
    return;
  }
  clearTimeout(looking);
  if (ctl.signal.aborted) return;
  hintCtl = null;
  const verdict = String((r && (r.verdict ?? r.source)) || '').toLowerCase();
  const m = hintMove(r);
  if (verdict === 'unsolvable') {
    st.hint = m;
    draw();
    say(t('hint_unsolvable'), 'dead',
      [[t('undo'), undo], [t('hint'), askHint], [t('replay'), replay], [t('another'), newDeal]], true);
    return;
  }
  if (!m) { say(t('hint_none'), 'info'); return; }
  st.hint = m;
  draw();
  let text = m.from === 'stock' || m.to === 'stock' ? t('hint_draw')
    : t('hint_show', { card: cardName(m.card || pile(m.from)[pile(m.from).length - (m.count || 1)]), to: pileName(m.to) });
  if (verdict === 'unknown' || verdict === 'heuristic') text += ' ' + t('hint_fallback');
  say(text, 'hint');
}

// ---------------------------------------------------------------------------- win panel
function showWin() {
  const s = st.s;
  const dlg = $('win');
  if (dlg.open || st.looked) return;
  const ms = s.time_ms ?? st.elapsed;
  $('win-time').textContent = clock(ms);
  $('win-moves').textContent = s.moves ?? s.seq;
  $('win-up').textContent = s.cards_up;
  $('win-score-row').hidden = s.score === null || s.score === undefined;
  $('win-score').textContent = s.score ?? '';
  $('win-deal').textContent = dealId();
  dlg.showModal();
  announce(t('won'));
}

function copyDeal() {
  const id = dealId();
  const done = () => { $('win-copy').textContent = t('copied'); announce(t('copied')); };
  if (navigator.clipboard) navigator.clipboard.writeText(id).then(done, done); else done();
}

async function resign() {
  if (!st.s || st.s.status !== 'playing' || !window.confirm(t('resign_confirm'))) return;
  try {
    await conn.resign();
    st.notice = null; // the standing "resigned" notice with its exits takes the bar
    drawNotice();
  } catch (e) {
    say(e instanceof Refusal ? translateReason(e.message, e.code, e.params) : t('error', { error: e.message }), 'refusal');
  }
}

$('btn-resign').addEventListener('click', resign);
$('win-copy').addEventListener('click', copyDeal);
$('win-new').addEventListener('click', newDeal);
$('win-replay').addEventListener('click', replay);
$('win-look').addEventListener('click', () => { st.looked = true; $('win').close(); });
$('win').addEventListener('keydown', (e) => { if (e.key === 'c' || e.key === 'C') { e.preventDefault(); copyDeal(); } });
$('win').addEventListener('close', () => { st.looked = true; });

// ---------------------------------------------------------------------------- picker
const picker = { open: false, pile: null, index: 0, hover: null };

function openPicker(name, index, x, y) {
  picker.open = true; picker.pile = name; picker.index = index; picker.hover = null;
  st.sel = { pile: name, index };
  st.targets = targetsFor(name, index);
  const el = $('picker');
  el.hidden = false;
  // Beside the finger, its arrows above and below the finger's height: a slide up or down
  // reaches one arrow without crossing the other.
  const w = el.offsetWidth || 190, h = el.offsetHeight || 140;
  let left = x + 28;
  if (left + w > window.innerWidth - 4) left = x - 28 - w;
  el.style.left = Math.max(4, left) + 'px';
  el.style.top = Math.max(4, Math.min(window.innerHeight - h - 4, y - h / 2)) + 'px';
  updatePicker();
}

function updatePicker() {
  const n = pile(picker.pile).length - picker.index;
  const code = pile(picker.pile)[picker.index];
  $('picker-text').textContent = t('picker', { n, card: cardName(code) });
  st.sel = { pile: picker.pile, index: picker.index };
  st.targets = targetsFor(picker.pile, picker.index);
  announce($('picker-text').textContent);
  draw();
}

function pickerStep(d) {
  const len = pile(picker.pile).length;
  const next = picker.index + d;
  if (next < 0 || next >= len || !pile(picker.pile)[next]) return;
  picker.index = next;
  updatePicker();
}

function closePicker() {
  if (!picker.open) return;
  picker.open = false;
  $('picker').hidden = true;
}

$('picker-up').addEventListener('click', () => pickerStep(-1));
$('picker-down').addEventListener('click', () => pickerStep(1));
$('picker-close').addEventListener('click', () => { closePicker(); clearSelection(); });

// ---------------------------------------------------------------------------- pointer
let press = null;
const LONG_PRESS = 450;

root.addEventListener('pointerdown', (e) => {
  if (!st.s || (e.pointerType === 'mouse' && e.button !== 0)) return;
  st.keyboard = false;
  if (st.finishing) { stopFinish(); e.preventDefault(); return; }
  const cardEl = e.target.closest('.card');
  const pileEl = e.target.closest('.pile');
  if (!pileEl) return;
  const name = pileEl.dataset.pile;
  let index = cardEl && cardEl.dataset.index !== undefined ? Number(cardEl.dataset.index) : -1;
  press = { id: e.pointerId, x: e.clientX, y: e.clientY, pile: name, index, dragging: false, long: false, timer: 0 };
  if (st.sel && st.sel.pile === name && index >= st.sel.index) press.dragFrom = st.sel.index;
  if (meta.supermove && name.startsWith('tableau:') && index >= 0 && pile(name)[index]) {
    press.timer = setTimeout(() => {
      if (!press || press.dragging) return;
      press.long = true;
      openPicker(name, index, press.x, press.y);
    }, LONG_PRESS);
  }
  root.setPointerCapture(e.pointerId);
});

root.addEventListener('pointermove', (e) => {
  if (!press || e.pointerId !== press.id) return;
  const dx = e.clientX - press.x, dy = e.clientY - press.y;
  if (press.long) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const arrow = el && (el.id === 'picker-up' || el.id === 'picker-down') ? el.id : null;
    if (arrow && arrow !== picker.hover) pickerStep(arrow === 'picker-up' ? -1 : 1);
    picker.hover = arrow;
    return;
  }
  if (!press.dragging) {
    if (Math.hypot(dx, dy) < 7) return;
    clearTimeout(press.timer);
    const from = press.dragFrom ?? press.index;
    if (!pickable(press.pile, from)) { press = null; return; }
    startDrag(press.pile, from);
    press.dragging = true;
  }
  moveGhost(root, dx, dy, e.clientX, e.clientY);
});

function endPress(e, cancelled) {
  if (!press || e.pointerId !== press.id) return;
  const p = press;
  press = null;
  clearTimeout(p.timer);
  if (p.long) { picker.hover = null; return; } // released on the picker: cards stay picked
  if (p.dragging) {
    const before = ghostPositions();
    removeGhost();
    const dest = cancelled ? null : hitPile(e.clientX, e.clientY);
    if (!dest || dest === st.drag.pile) {
      st.drag = null; st.targets = null;
      draw(before);
      return;
    }
    st.sel = st.drag;
    dropOn(dest, before);
    return;
  }
  if (!cancelled) activate(p.pile, p.index);
}

root.addEventListener('pointerup', (e) => endPress(e, false));
root.addEventListener('pointercancel', (e) => endPress(e, true));
root.addEventListener('contextmenu', (e) => { if (meta.supermove) e.preventDefault(); });

// Double tap in Baker's Dozen: the first tap already sends a card up when it can go.
function startDrag(name, index) {
  closePicker();
  st.sel = null;
  st.drag = { pile: name, index };
  st.targets = targetsFor(name, index);
  liftGhost(root, name, index);
  draw();
}

// ---------------------------------------------------------------------------- keyboard
function moveFocus(step) {
  const order = pileOrder(meta);
  let i = order.indexOf(st.focus.pile);
  i = (i + step + order.length) % order.length;
  const name = order[i];
  st.focus = { pile: name, index: pile(name).length - 1 };
  if (name === 'stock') st.focus.index = -1;
  focusCurrent();
  const cards = pile(name);
  announce(pileName(name) + (cards.length && name !== 'stock' ? ', ' + cardName(cards[cards.length - 1]) : name === 'stock' ? '' : ', ' + t('empty')));
}

function focusInColumn(step) {
  const f = st.focus;
  if (!f.pile.startsWith('tableau:')) return;
  const cards = pile(f.pile);
  const next = (f.index < 0 ? cards.length - 1 : f.index) + step;
  if (next < 0 || next >= cards.length || !cards[next]) return;
  st.focus = { pile: f.pile, index: next };
  focusCurrent();
  announce(cardName(cards[next]) + (next < cards.length - 1 ? ` (+${cards.length - 1 - next})` : ''));
}

document.addEventListener('keydown', (e) => {
  if (!st.s) return;
  if (e.target.closest && e.target.closest('input, textarea, select, dialog, .notice, .controls, header')) {
    if (e.key !== 'Escape') return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (st.finishing) { stopFinish(); e.preventDefault(); return; }
  const k = e.key;
  const keyMap = {
    ArrowLeft: () => moveFocus(-1),
    ArrowRight: () => moveFocus(1),
    ArrowUp: () => focusInColumn(-1),
    ArrowDown: () => focusInColumn(1),
    Enter: () => { if (standing()?.tapFinish && !st.sel) runFinish(); else activate(st.focus.pile, st.focus.index); },
    ' ': () => activate(st.focus.pile, st.focus.index, true),
    Escape: () => { if (picker.open) { closePicker(); clearSelection(); } else clearSelection(); },
    u: undo, U: undo,
    h: askHint, H: askHint,
    n: newDeal, N: newDeal,
    f: runFinish, F: runFinish,
  };
  const fn = keyMap[k];
  if (!fn) return;
  e.preventDefault();
  st.keyboard = true;
  fn();
});

root.addEventListener('focusin', (e) => {
  // Tabbing into the table lands on the focused pile.
  const p = e.target.closest('.pile');
  if (!p) return;
  const c = e.target.closest('.card');
  st.focus = { pile: p.dataset.pile, index: c && c.dataset.index !== undefined ? Number(c.dataset.index) : -1 };
});

// Any press anywhere stops a finish in progress (and does nothing else).
document.addEventListener('pointerdown', (e) => {
  if (st.finishing && !e.target.closest('#btn-third')) { stopFinish(); e.stopPropagation(); e.preventDefault(); }
}, true);

// ---------------------------------------------------------------------------- buttons
$('btn-undo').addEventListener('click', undo);
$('btn-hint').addEventListener('click', askHint);
$('btn-third').addEventListener('click', () => {
  if (st.finishing) stopFinish();
  else if (st.s && st.s.can_finish) runFinish();
  else newDeal();
});

// ---------------------------------------------------------------------------- timer
let lastTick = performance.now();
function tick() {
  const now = performance.now();
  const s = st.s;
  if (s && !document.hidden && !s.won && (s.moves > 0 || s.seq > 0)) st.elapsed += now - lastTick;
  lastTick = now;
  $('st-time').textContent = clock(st.elapsed);
  if (s) sessionStorage.setItem(`ds:time:${s.id}`, String(Math.round(st.elapsed)));
}
document.addEventListener('visibilitychange', () => { lastTick = performance.now(); });
setInterval(tick, 500);

let resizeFrame = 0;
window.addEventListener('resize', () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => draw());
});

// ---------------------------------------------------------------------------- start
async function start() {
  try { await api.me(); } catch { /* the session cookie may already exist */ }
  let session = null;
  const stored = localStorage.getItem(storeKey);
  if (stored) {
    try { session = await api.getSession(stored); } catch { session = null; }
    if (session && session.game !== meta.key) session = null;
  }
  if (!session) {
    let deal = meta.deal;
    if (/^\d+$/.test(deal)) deal = Number(deal);
    try {
      session = await api.createSession(meta.key, deal);
    } catch (e) {
      // The deal is a daily whose ranked attempt is still open: that attempt is the table.
      if (e.status === 409 && e.body.error === 'ranked_attempt_open') {
        try { session = await api.getSession(e.body.session); } catch { session = null; }
        if (session) setTimeout(() => say(t('ranked_open'), 'info'), 0);
      }
      if (!session) {
        say(t('error', { error: e.message }), 'refusal', null, true);
        return;
      }
    }
  }
  localStorage.setItem(storeKey, session.id);
  st.elapsed = Number(sessionStorage.getItem(`ds:time:${session.id}`))
    || (session.started_at ? Math.max(0, Date.now() - Date.parse(session.started_at)) : 0);
  if (session.won) st.looked = false;
  conn = connect(session, {
    onState: (state) => setState(state, st.pendingBefore),
    onStatus: (up) => {
      if (!up) say(t('offline'), 'offline', null, true);
      else if (st.notice && st.notice.kind === 'offline') { st.notice = null; drawNotice(); announce(t('online')); }
    },
  });
  st.focus = { pile: 'tableau:0', index: (session.view.piles['tableau:0'] || []).length - 1 };
  setState(session);
  root.dataset.ready = '1';
  window.solitaire = { state: st, conn, order: pileOrder(meta) }; // for the browser tests and for curious players
}

start();
