// Sentences come translated from the server (frontend/strings.py) in the page's JSON.
export const page = JSON.parse(document.getElementById('page-data').textContent);
const S = page.strings || {};
const RANKS = (S.ranks || '').split('|');
const SUITS = (S.suits || '').split('|');
const RANK_LETTERS = 'A23456789TJQK';
const SUIT_LETTERS = 'CDHS';

export function t(key, params = {}) {
  const text = S[key] ?? key;
  return text.replace(/%\((\w+)\)s/g, (_, k) => String(params[k] ?? ''));
}

export function cardName(code) {
  if (!code) return t('face_down');
  return t('card', { rank: RANKS[RANK_LETTERS.indexOf(code[0])], suit: SUITS[SUIT_LETTERS.indexOf(code[1])] });
}

export function suitName(letter) { return SUITS[SUIT_LETTERS.indexOf(letter)]; }

export function pileName(name) {
  const [kind, rest] = name.split(':');
  if (kind === 'tableau') return t('column', { n: Number(rest) + 1 });
  if (kind === 'cell') return t('cell', { n: Number(rest) + 1 });
  if (kind === 'foundation') return t('foundation', { suit: suitName(rest) });
  return t(kind);
}

let liveTimer = 0;
export function announce(text) {
  const live = document.getElementById('live');
  if (!live) return;
  // Clearing first makes screen readers repeat a sentence said twice in a row.
  live.textContent = '';
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => { live.textContent = text; }, 30);
}

export function clock(ms) {
  const s = Math.floor((ms || 0) / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return (h ? h + ':' : '') + mm + ':' + String(r).padStart(2, '0');
}
