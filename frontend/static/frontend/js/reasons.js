// The rules engine words its refusals in English.  For other languages the page says them
// again in the player's language (the sentences themselves are translated with the rest of
// the site, in frontend/strings.py): from the refusal's stable code and details when the
// server sends them (games/engine/reasons.py), else by recognising the English sentence.
// A refusal it does not know is shown as the server wrote it.
import { cardName, page, suitName, t } from './i18n.js';

const RANKS = ['ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king'];
const SUITS = ['clubs', 'diamonds', 'hearts', 'spades'];
const CARD = '(\\w+ of \\w+)';

function card(name) {
  const [r, , s] = name.split(' ');
  return cardName('A23456789TJQK'[RANKS.indexOf(r)] + 'CDHS'[SUITS.indexOf(s)]);
}
const suit = (s) => suitName('CDHS'[SUITS.indexOf(s)]);
const rank = (r) => (t('ranks').split('|')[RANKS.indexOf(r)]);
const feminine = (r) => r === 'queen';

function need(text) {
  let m = text.match(/^it needs a (black|red) (\w+)$/);
  if (m) {
    const f = feminine(m[2]);
    return t('r_need_colour', { art: t(f ? 'art_f' : 'art_m'), rank: rank(m[2]), colour: t(m[1] + (f ? '_f' : '')) });
  }
  m = text.match(/^it needs an? (\w+)$/);
  if (m) return t('r_need', { art: t(feminine(m[1]) ? 'art_f' : 'art_m'), rank: rank(m[1]) });
  if (text === 'nothing goes on an ace') return t('r_ace');
  return text;
}

const PATTERNS = [
  [new RegExp(`^${CARD} cannot go on ${CARD}: (.+)$`), (m) => t('r_cannot_go_on', { card: card(m[1]), onto: card(m[2]), need: need(m[3]) })],
  [/^moving (\d+) cards needs more free cells or empty columns \((\d+) at most now\)$/, (m) => t('r_supermove', { n: m[1], max: m[2] })],
  [new RegExp(`^${CARD} cannot go up yet: the (\\w+) foundation needs the (\\w+) first$`), (m) => t('r_not_yet', { card: card(m[1]), suit: suit(m[2]), rank: rank(m[3]) })],
  [new RegExp(`^${CARD} belongs on the (\\w+) foundation$`), (m) => t('r_belongs', { card: card(m[1]), suit: suit(m[2]) })],
  [/^the (\w+) foundation is complete$/, (m) => t('r_complete', { suit: suit(m[1]) })],
  [/^the (\w+) foundation is empty$/, (m) => t('r_found_empty', { suit: suit(m[1]) })],
  [/^free cell (\d+) is taken$/, (m) => t('r_cell_taken', { n: m[1] })],
  [/^free cell (\d+) is empty$/, (m) => t('r_cell_empty', { n: m[1] })],
  [/^column (\d+) is empty$/, (m) => t('r_column_empty', { n: m[1] })],
  [/^only the top card of a column moves in .+$/, () => t('r_top_only')],
  [/^an empty column is never filled again in .+$/, () => t('r_never_filled')],
  [/^cards on the foundations do not come back in .+$/, () => t('r_no_come_back')],
  [/^undo goes back (\d+) moves at most$/, (m) => t('r_undo_limit', { n: m[1] })],
];

const FIXED = {
  'only a king, or a run headed by a king, can go into an empty pile': 'r_king_only',
  'those cards are not an ordered run': 'r_not_run',
  'a card does not move from one free cell to another': 'r_cell_to_cell',
  'a free cell holds one card': 'r_cell_one',
  'cards go up to the foundations one at a time': 'r_one_at_a_time',
  'that card is already on its foundation': 'r_already_up',
  'face-down cards cannot move': 'r_face_down',
  'a card cannot move onto the pile it is on': 'r_same_pile',
  'only one card moves from there': 'r_one_from_there',
  'cards cannot be put on the waste': 'r_not_on_waste',
  'cards cannot be put on the stock': 'r_not_on_stock',
  'the waste is empty': 'r_waste_empty',
  'the stock is empty: turn the waste back over instead': 'r_stock_empty',
  'the waste goes back only once the stock is empty': 'r_waste_back',
  'there are no cards to turn back': 'r_nothing_back',
  'no passes through the stock are left in this game': 'r_no_passes',
  'the whole waste turns back at once': 'r_whole_waste',
  'there is no move to undo': 'r_no_undo',
};

function needOf(p) {
  if (!p.need) return t('r_ace');
  const f = feminine(p.need);
  const art = t(f ? 'art_f' : 'art_m');
  if (p.colour) return t('r_need_colour', { art, rank: rank(p.need), colour: t(p.colour + (f ? '_f' : '')) });
  return t('r_need', { art, rank: rank(p.need) });
}

const BY_CODE = {
  cannot_go_on: (p) => t('r_cannot_go_on', { card: cardName(p.card), onto: cardName(p.onto), need: needOf(p) }),
  supermove: (p) => t('r_supermove', { n: p.n, max: p.max }),
  not_yet: (p) => t('r_not_yet', { card: cardName(p.card), suit: suitName(p.suit), rank: rank(p.rank) }),
  belongs: (p) => t('r_belongs', { card: cardName(p.card), suit: suitName(p.suit) }),
  complete: (p) => t('r_complete', { suit: suitName(p.suit) }),
  found_empty: (p) => t('r_found_empty', { suit: suitName(p.suit) }),
  cell_taken: (p) => t('r_cell_taken', { n: p.n }),
  cell_empty: (p) => t('r_cell_empty', { n: p.n }),
  column_empty: (p) => t('r_column_empty', { n: p.n }),
  undo_limit: (p) => t('r_undo_limit', { n: p.n }),
};
// Codes whose sentence has no details: the key is the code's.
const PLAIN = new Set(['king_only', 'not_run', 'cell_to_cell', 'cell_one', 'one_at_a_time', 'already_up',
  'face_down', 'same_pile', 'one_from_there', 'not_on_waste', 'not_on_stock', 'waste_empty', 'stock_empty',
  'waste_back', 'nothing_back', 'no_passes', 'whole_waste', 'no_undo', 'top_only', 'never_filled', 'no_come_back']);

export function translateReason(text, code, params) {
  if (!text || page.lang === 'en') return text;
  if (code && BY_CODE[code]) return BY_CODE[code](params || {});
  if (code && PLAIN.has(code)) return t(`r_${code}`);
  if (FIXED[text]) return t(FIXED[text]);
  for (const [re, fn] of PATTERNS) {
    const m = text.match(re);
    if (m) return fn(m);
  }
  return text;
}
