// View functions: they draw the table from the state the server sent, nothing else.
// Cards are keyed by their code so that moves can be animated from where they were.
import { cardName, pileName, t } from './i18n.js';

const SYM = { C: '♣', D: '♦', H: '♥', S: '♠' };
const RED = { D: true, H: true };
const FOUNDATIONS = ['foundation:C', 'foundation:D', 'foundation:H', 'foundation:S'];

// Piles in reading order: top row left to right, then the columns.  Keyboard focus walks
// this list with the arrow keys.
export function pileOrder(meta) {
  const top = [];
  if (meta.draw) top.push('stock', 'waste');
  for (let i = 0; i < meta.cells; i++) top.push(`cell:${i}`);
  top.push(...FOUNDATIONS);
  const cols = [];
  for (let i = 0; i < meta.columns; i++) cols.push(`tableau:${i}`);
  return [...top, ...cols];
}

function topSlots(meta, cols) {
  // grid column (1-based) of each top-row pile
  const slots = {};
  if (meta.draw) {
    slots.stock = [1, 1];
    slots.waste = [2, meta.draw > 1 ? 2 : 1];
    FOUNDATIONS.forEach((f, i) => { slots[f] = [cols - 3 + i, 1]; });
  } else if (meta.cells) {
    for (let i = 0; i < meta.cells; i++) slots[`cell:${i}`] = [i + 1, 1];
    FOUNDATIONS.forEach((f, i) => { slots[f] = [cols - 3 + i, 1]; });
  } else {
    const first = Math.floor((cols - 4) / 2) + 1;
    FOUNDATIONS.forEach((f, i) => { slots[f] = [first + i, 1]; });
  }
  return slots;
}

// The table's size follows the screen: cards as wide as the columns allow (MAX_CW at most,
// where a bigger table would only be harder to take in), and no taller than leaves each
// row of columns FAN card heights below the top row, so a long column fits too.
const MAX_CW = 120;
const RATIO = 1.4;
const FAN = 2.6;
// The widest spacing of a fan, as a share of a card's height: small cards (a phone's)
// show more of each face, big ones read from their corner and keep a column compact.
const maxUp = (cw) => (cw < 70 ? 0.7 : 0.45);

// The height the table may take: the window's, less what lies above it and what the page
// keeps under it (the buttons and the keys' line).  `left` is what remains of it while the
// notice shows: under the table, or along the window's bottom (a phone on its side, where
// the buttons are beside the table).  The notice's room comes from the columns' fan, not
// from the cards' size (sizes below).
function room(root) {
  const box = root.getBoundingClientRect();
  const main = root.closest('main');
  const pad = main ? parseFloat(getComputedStyle(main).paddingBottom || 0) : 0;
  let bottom = box.bottom, notice = 0, inFlow = 0;
  for (let el = root.nextElementSibling; el; el = el.nextElementSibling) {
    if (el.hidden) continue;
    const r = el.getBoundingClientRect();
    if (el.id === 'notice' && getComputedStyle(el).position === 'fixed') {
      notice = r.height ? Math.max(0, window.innerHeight - r.top + 4 - pad) : 0; // the page's padding is room too
      continue;
    }
    // Under the table, not beside it (a phone on its side has its buttons to the right).
    if (r.height && r.top >= box.bottom - 1 && r.left < box.right && r.right > box.left) {
      bottom = Math.max(bottom, r.bottom + parseFloat(getComputedStyle(el).marginBottom || 0));
      // The notice's margin is smaller than the buttons' (site.css): what it adds is the
      // table's edge to its own, and the buttons under it are that much lower.
      if (el.id === 'notice') inFlow = notice = r.bottom - box.bottom;
    }
  }
  bottom -= inFlow;
  // 2 px spare: the live region's pixel after the page, and rounding.
  const height = Math.floor(window.innerHeight - (box.top + window.scrollY) - (bottom - box.bottom) - pad) - 2;
  return { height, left: height - notice };
}

export function sizes(root, meta) {
  const width = root.clientWidth || window.innerWidth;
  const portrait = window.innerHeight > window.innerWidth;
  const gap = width < 500 ? 3 : width < 1000 ? 6 : 10;
  // Thirteen columns on a phone held upright: two rows of columns, cards twice as wide.
  const split = meta.columns > 8 && width < 700 && portrait;
  const cols = split ? 7 : meta.columns;
  const rows = split ? 2 : 1;
  const upper = gap * 2 + 4; // the top row's margin (site.css)
  const { height, left } = room(root);
  const between = (rows - 1) * 3 * gap;
  let cw = Math.floor((width - gap * (cols + 1)) / cols);
  const byHeight = Math.floor((height - upper - between) / (1 + rows * FAN) / RATIO);
  cw = Math.max(22, Math.min(cw, MAX_CW, Math.max(byHeight, 22)));
  // A notice under the table takes its height from the columns' fan, so the cards keep
  // their size and the buttons their place; only a fan shorter than two cards makes the
  // cards smaller.  A notice never pushes a button out of the window.
  const withNotice = Math.floor((left - upper - between) / (1 + rows * 2) / RATIO);
  cw = Math.max(22, Math.min(cw, withNotice));
  const ch = Math.round(cw * RATIO);
  const avail = Math.max(ch * 2, (left - ch - upper - between) / rows);
  // FreeCell's free cells and foundations share the top row: a gap between the two
  // groups, as wide as the margins beside the row allow.
  const side = (width - cols * cw - (cols - 1) * gap) / 2;
  const parting = Math.max(0, Math.min(side - 2, Math.round(cw * 0.3)));
  return { cw, ch, gap, cols, split, avail, parting };
}

function rankText(code) { return code[0] === 'T' ? '10' : code[0]; }

// The card's drawing, from the sprite (scripts/card_sprite.py) whose address the table
// element carries (data-cards, from {% static %}: hashed in production): a face by its
// code, or the back.
let sprite = document.getElementById('table')?.dataset.cards || '';
function face(id) {
  return `<svg class="face" viewBox="0 0 200 280" aria-hidden="true" focusable="false"><use href="${sprite}#${id}"></use></svg>`;
}

export function cardEl(code, interactive = true) {
  const el = document.createElement('div');
  if (!code) {
    el.className = 'card down';
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', t('face_down'));
    el.innerHTML = face('back');
    return el;
  }
  el.className = 'card ' + (RED[code[1]] ? 'red' : 'black');
  el.dataset.card = code;
  el.setAttribute('aria-label', cardName(code));
  if (interactive) { el.setAttribute('role', 'button'); el.tabIndex = -1; } else el.setAttribute('role', 'img');
  const r = rankText(code), s = SYM[code[1]];
  el.innerHTML = `${face(code)}<span class="ix" aria-hidden="true">${r}<b>${s}</b></span><span class="ix2" aria-hidden="true">${r}<b>${s}</b></span>`;
  return el;
}

// Vertical offsets for a column: spread to use the height there is (maxUp of a card at
// most), closed up before the column would run past it; face-up cards keep a readable
// strip as long as the face-down ones can give way.
function fan(cards, ch, avail, cw) {
  const n = cards.length;
  if (!n) return [];
  const downs = cards.slice(0, -1).filter((c) => !c).length;
  const ups = n - 1 - downs; // offsets after a face-up card (the last card has none)
  let down = Math.round(ch * 0.12);
  let up = Math.round(ch * maxUp(cw));
  const free = avail - ch;
  if (ups && downs * down + ups * up > free) {
    up = Math.floor((free - downs * down) / ups);
    const readable = Math.max(12, Math.round(ch * 0.2));
    if (up < readable) {
      up = readable;
      if (downs) down = Math.max(3, Math.floor((free - ups * up) / downs));
      if (downs * down + ups * up > free) up = Math.max(6, Math.floor((free - downs * down) / ups));
    }
  } else if (downs * down > free) {
    down = Math.max(3, Math.floor(free / downs));
  }
  const tops = [];
  let y = 0;
  cards.forEach((c) => { tops.push(y); y += c ? up : down; });
  tops.up = ups ? up : Infinity;
  return tops;
}

export function renderTable(root, st) {
  const meta = st.meta;
  const { cw, ch, gap, cols, split, avail, parting } = sizes(root, meta);
  sprite = root.dataset.cards || sprite;
  root.style.setProperty('--cw', cw + 'px');
  root.style.setProperty('--ch', ch + 'px');
  root.style.setProperty('--gap', gap + 'px');
  root.style.setProperty('--cols', cols);
  root.style.setProperty('--parting', parting + 'px');
  root.replaceChildren();

  const top = document.createElement('div');
  top.className = 'row upper' + (meta.cells ? ' parted' : '');
  const slots = topSlots(meta, cols);
  for (const name of Object.keys(slots)) {
    const p = pileEl(name, st);
    p.style.gridColumn = `${slots[name][0]} / span ${slots[name][1]}`;
    fillTop(p, name, st, cw);
    top.append(p);
  }
  root.append(top);

  const rows = split ? [[0, 7], [7, meta.columns]] : [[0, meta.columns]];
  let up = Infinity;
  for (const [a, b] of rows) up = Math.min(up, renderColumns(root, st, a, b, { cw, ch, avail }));
  // Closely fanned columns: rank and suit side by side in the corner, sized to what shows.
  const narrow = cw < 46;
  const tight = narrow || up < cw * 0.5;
  root.classList.toggle('tight', tight);
  root.classList.toggle('narrow', narrow);
  const fs = narrow ? cw * 0.42 : Math.min(cw * 0.26, up - 3);
  root.style.setProperty('--ixfs', Math.max(9, Math.floor(fs)) + 'px');
}

function renderColumns(root, st, a, b, { cw, ch, avail }) {
  const piles = st.s.view.piles;
  const row = document.createElement('div');
  row.className = 'row tableau';
  root.append(row);
  let up = Infinity;
  for (let i = a; i < b; i++) {
    const name = `tableau:${i}`;
    const p = pileEl(name, st);
    const cards = piles[name] || [];
    const tops = fan(cards, ch, avail, cw);
    up = Math.min(up, tops.up ?? Infinity);
    cards.forEach((code, k) => {
      const el = cardEl(code);
      el.style.top = tops[k] + 'px';
      el.dataset.pile = name;
      el.dataset.index = k;
      mark(el, name, k, st);
      p.append(el);
    });
    p.style.height = (cards.length ? tops[tops.length - 1] + ch : ch) + 'px';
    row.append(p);
  }
  // The row keeps the height it may fan into, so the buttons under the table stay put
  // while the columns grow and shrink.
  row.style.minHeight = Math.floor(avail) + 'px';
  return up;
}

function pileEl(name, st) {
  const p = document.createElement('div');
  p.className = 'pile ' + name.split(':')[0];
  p.dataset.pile = name;
  p.setAttribute('role', 'group');
  p.setAttribute('aria-label', pileName(name));
  p.tabIndex = -1;
  if (st.targets && st.targets.has(name)) p.classList.add('target');
  if (st.hint && st.hint.to === name) p.classList.add('hint-to');
  return p;
}

function mark(el, pile, index, st) {
  if (st.sel && st.sel.pile === pile && index >= st.sel.index) el.classList.add('selected');
  if (st.drag && st.drag.pile === pile && index >= st.drag.index) el.classList.add('lifted');
  const h = st.hint;
  if (h && h.from === pile) {
    const len = (st.s.view.piles[pile] || []).length;
    if (index >= len - (h.count || 1)) el.classList.add('hint-from');
  }
}

function fillTop(p, name, st, cw) {
  const view = st.s.view;
  if (name === 'stock') {
    const n = view.stock || 0;
    p.setAttribute('role', 'button');
    p.setAttribute('aria-label', t('stock'));
    p.setAttribute('aria-description', n ? t('stock_count', { n }) : t('stock_empty'));
    if (n) {
      const el = cardEl(null);
      el.removeAttribute('role');
      el.removeAttribute('aria-label');
      p.append(el);
      const badge = document.createElement('span');
      badge.className = 'count';
      badge.textContent = n;
      badge.setAttribute('aria-hidden', 'true');
      p.append(badge);
    } else {
      p.classList.add('empty', 'recycle');
      p.dataset.mark = view.passes_left === 0 ? '✕' : '↻';
    }
    if (st.hint && st.hint.from === 'stock') p.classList.add('hint-from');
    return;
  }
  const cards = view.piles[name] || [];
  if (!cards.length) {
    p.classList.add('empty');
    if (name.startsWith('foundation:')) p.dataset.mark = SYM[name.slice(-1)];
    return;
  }
  const fanned = name === 'waste' && (view.draw || 1) > 1 ? 3 : 1;
  const first = cards.length - fanned;
  cards.forEach((code, k) => {
    const isTop = k === cards.length - 1;
    const el = cardEl(code, isTop);
    if (!isTop) el.setAttribute('aria-hidden', 'true');
    el.dataset.pile = name;
    el.dataset.index = k;
    el.style.left = (k > first ? Math.round((k - first) * cw * 0.32) : 0) + 'px';
    mark(el, name, k, st);
    if (k < cards.length - 3) el.classList.add('buried');
    p.append(el);
  });
}

// FLIP: remember where every face-up card is, redraw, then slide cards from there.
export function positions(root) {
  const map = new Map();
  root.querySelectorAll('.card[data-card]').forEach((el) => { map.set(el.dataset.card, el.getBoundingClientRect()); });
  const stock = root.querySelector('.pile.stock');
  if (stock) map.set('stock', stock.getBoundingClientRect()); // cards turned come from there
  return map;
}

// A slide takes longer the farther it goes (a card across the table reads as travelling,
// a step down a column as a nudge); a card just turned face up flips.  Nothing moves for
// a player who asks for reduced motion.
export function animateFrom(root, before) {
  if (!before || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  root.querySelectorAll('.card[data-card]').forEach((el) => {
    const old = before.get(el.dataset.card) || (el.dataset.pile === 'waste' ? before.get('stock') : null);
    if (!old) {
      if (el.dataset.pile.startsWith('tableau:')) {
        el.animate([{ transform: 'perspective(600px) rotateY(90deg)' }, { transform: 'none' }],
          { duration: 200, easing: 'ease-out' });
      }
      return;
    }
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    const ms = Math.round(Math.min(320, 150 + Math.hypot(dx, dy) * 0.25));
    el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 }, { transform: 'none', zIndex: 50 }],
      { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
  });
}
