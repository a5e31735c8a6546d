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

export function sizes(root, meta) {
  const width = root.clientWidth || window.innerWidth;
  const gap = width < 500 ? 3 : 8;
  // Thirteen columns on a phone held upright: two rows of columns, cards twice as wide.
  const split = meta.columns > 8 && width < 700 && window.innerHeight > window.innerWidth;
  const cols = split ? 7 : meta.columns;
  let cw = Math.floor((width - gap * (cols + 1)) / cols);
  cw = Math.max(22, Math.min(cw, 104));
  const portrait = window.innerHeight > window.innerWidth;
  let ch = Math.round(cw * 1.4);
  // Short landscape screens: keep the top row and a decent fan in view.
  const maxCh = Math.floor((window.innerHeight - 140) / (split ? 5 : 3.2));
  if (ch > maxCh && maxCh > 50 && !portrait) { ch = maxCh; cw = Math.round(ch / 1.4); }
  return { cw, ch, gap, cols, split };
}

function rankText(code) { return code[0] === 'T' ? '10' : code[0]; }

export function cardEl(code, interactive = true) {
  const el = document.createElement('div');
  if (!code) {
    el.className = 'card down';
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', t('face_down'));
    return el;
  }
  el.className = 'card ' + (RED[code[1]] ? 'red' : 'black');
  el.dataset.card = code;
  el.setAttribute('aria-label', cardName(code));
  if (interactive) { el.setAttribute('role', 'button'); el.tabIndex = -1; } else el.setAttribute('role', 'img');
  const r = rankText(code), s = SYM[code[1]];
  el.innerHTML = `<span class="ix" aria-hidden="true">${r}<b>${s}</b></span><span class="pip" aria-hidden="true">${'JQK'.includes(code[0]) ? code[0] : s}</span><span class="ix2" aria-hidden="true">${r}<b>${s}</b></span>`;
  return el;
}

// Vertical offsets for a column so that it fits the height left on screen.
function fan(cards, ch, avail, cw) {
  const n = cards.length;
  if (!n) return [];
  let down = Math.round(ch * 0.12), up = Math.round(ch * 0.3);
  if (cw < 46) up = Math.max(up, Math.round(cw * 0.42) + 5);
  const downs = cards.filter((c) => !c).length;
  const need = downs * down + (n - downs - 1) * up + ch;
  if (need > avail && n > 1) {
    const k = Math.max(0.35, (avail - ch) / (need - ch));
    down = Math.max(4, Math.floor(down * k));
    up = Math.max(10, Math.floor(up * k));
  }
  const tops = [];
  let y = 0;
  cards.forEach((c) => { tops.push(y); y += c ? up : down; });
  tops.up = n - downs > 1 ? up : Infinity;
  return tops;
}

export function renderTable(root, st) {
  const meta = st.meta, s = st.s, view = s.view, piles = view.piles;
  const { cw, ch, gap, cols, split } = sizes(root, meta);
  root.style.setProperty('--cw', cw + 'px');
  root.style.setProperty('--ch', ch + 'px');
  root.style.setProperty('--gap', gap + 'px');
  root.style.setProperty('--cols', cols);
  root.replaceChildren();

  const top = document.createElement('div');
  top.className = 'row upper';
  const slots = topSlots(meta, cols);
  for (const name of Object.keys(slots)) {
    const p = pileEl(name, st);
    p.style.gridColumn = `${slots[name][0]} / span ${slots[name][1]}`;
    fillTop(p, name, st, cw);
    top.append(p);
  }
  root.append(top);

  const rows = split ? [[0, 7], [7, meta.columns]] : [[0, meta.columns]];
  const first = document.createElement('div');
  root.append(first);
  const reserve = window.innerWidth < 700 ? 110 : 120;
  const space = window.innerHeight - first.getBoundingClientRect().top - reserve - (rows.length - 1) * 2 * gap;
  first.remove();
  const avail = Math.max(ch * 2.2, space / rows.length);
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
  let tallest = ch;
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
    const h = cards.length ? tops[tops.length - 1] + ch : ch;
    tallest = Math.max(tallest, h);
    p.style.height = h + 'px';
    row.append(p);
  }
  row.style.minHeight = tallest + 'px';
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

export function animateFrom(root, before, ms = 180) {
  if (!before || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  root.querySelectorAll('.card[data-card]').forEach((el) => {
    const old = before.get(el.dataset.card) || (el.dataset.pile === 'waste' ? before.get('stock') : null);
    if (!old) return;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 }, { transform: 'none', zIndex: 50 }],
      { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
  });
}
