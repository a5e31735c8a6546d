// Tables for the intents' tests, copied from the server's answers (games/services.py
// state(), the page's meta from frontend/views.py) and cut down to what the tests read.
import { createState } from '../state.js';

export const META = {
  freecell: { key: 'freecell', columns: 8, cells: 4, draw: 0, single: false, supermove: true, foundation_pickable: true, has_score: false, send_up: false, notation: { columns: '12345678', foundation_from: 'h' }, daily: true, deal: '1' },
  klondike: { key: 'klondike', columns: 7, cells: 0, draw: 1, single: false, supermove: false, foundation_pickable: true, has_score: true, send_up: false, notation: { columns: '1234567', foundation_from: 'f{suit}' }, daily: true, deal: 'daily' },
  'klondike-1-pass': { key: 'klondike-1-pass', columns: 7, cells: 0, draw: 1, single: false, supermove: false, foundation_pickable: true, has_score: true, send_up: false, notation: { columns: '1234567', foundation_from: 'f{suit}' }, daily: false, deal: 'random' },
  'bakers-dozen': { key: 'bakers-dozen', columns: 13, cells: 0, draw: 0, single: true, supermove: false, foundation_pickable: false, has_score: true, send_up: true, notation: { columns: '123456789tjqk', foundation_from: null }, daily: true, deal: 'daily' },
};

// The page's state with the server's answer `s` (a playing session unless told otherwise).
export function table(game, view, legal, extra = {}) {
  const st = createState(META[game]);
  st.s = {
    id: '7b0e6c1e-3f1a-4c55-9a55-0d2b8f1f2a10', game, deal: 'k7Qx2', date: null, seq: 9,
    status: 'playing', ranked: false, view, legal_moves: legal, score: null, cards_up: 2,
    moves: 9, won: false, can_finish: false, no_legal_move: false, can_undo: true, ...extra,
  };
  return st;
}

// FreeCell deal 1 after 2d 6a 8b 6c 87 6h 72 12 ch: 7D-6S may go onto 8C as a run of two.
export function freecell(extra) {
  return table('freecell', {
    piles: {
      'tableau:0': ['JD', 'KD', '2S', '4C', '3S', '6D'],
      'tableau:1': ['2D', 'KC', 'KS', '5C', 'TD', '8S', '7D', '6S'],
      'tableau:2': ['9H', '9S', '9D', 'TS', '4S', '8D', '2H'],
      'tableau:3': ['JC', '5S', 'QD', 'QH', 'TH', 'QS', '6H'],
      'tableau:4': ['5D', 'AD', 'JS', '4H', '8H', '6C'],
      'tableau:5': ['7H', 'QC', 'AS'],
      'tableau:6': ['7C', 'KH', 'AH', '4D', 'JH', '8C'],
      'tableau:7': ['5H', '3H', '3C', '7S'],
      'cell:0': ['3D'], 'cell:1': ['TC'], 'cell:2': [], 'cell:3': ['9C'],
      'foundation:C': ['AC', '2C'], 'foundation:D': [], 'foundation:H': [], 'foundation:S': [],
    },
    move_limit: 2,
  }, [
    { move: '1c', from: 'tableau:0', to: 'cell:2', count: 1, card: '6D' },
    { move: '18', from: 'tableau:0', to: 'tableau:7', count: 1, card: '6D' },
    { move: '2c', from: 'tableau:1', to: 'cell:2', count: 1, card: '6S' },
    { move: '27v2', from: 'tableau:1', to: 'tableau:6', count: 2, card: '7D' },
    { move: '3c', from: 'tableau:2', to: 'cell:2', count: 1, card: '2H' },
    { move: '4c', from: 'tableau:3', to: 'cell:2', count: 1, card: '6H' },
    { move: '48', from: 'tableau:3', to: 'tableau:7', count: 1, card: '6H' },
    { move: '5c', from: 'tableau:4', to: 'cell:2', count: 1, card: '6C' },
    { move: '6h', from: 'tableau:5', to: 'foundation:S', count: 1, card: 'AS' },
    { move: '6c', from: 'tableau:5', to: 'cell:2', count: 1, card: 'AS' },
    { move: '63', from: 'tableau:5', to: 'tableau:2', count: 1, card: 'AS' },
    { move: '7c', from: 'tableau:6', to: 'cell:2', count: 1, card: '8C' },
    { move: '8c', from: 'tableau:7', to: 'cell:2', count: 1, card: '7S' },
  ], { deal_number: 1, ...extra });
}

// Baker's Dozen, a new deal: 2H may go up or onto 3D; 9S onto TS or TC; 4C onto 5S only.
export function bakers(extra) {
  return table('bakers-dozen', {
    piles: {
      'tableau:0': ['4D', 'QC', '6C', '4C'], 'tableau:1': ['4S', '2C', 'QH', 'TS'],
      'tableau:2': ['QD', '3S', '3C', '8H'], 'tableau:3': ['KH', 'TH', 'JD', '9S'],
      'tableau:4': ['QS', '7D', '6D'], 'tableau:5': ['AD', '6S', '5H', 'JC'],
      'tableau:6': ['KC', 'JS', 'JH', '5S'], 'tableau:7': ['7H', 'AC', '9C', '7C'],
      'tableau:8': ['8C', '9D', '5D', '2H'], 'tableau:9': ['3H', 'AS', '9H', '4H'],
      'tableau:10': ['KS', 'KD', '7S', '8D'], 'tableau:11': ['TD', '2S', '6H', 'TC'],
      'tableau:12': ['2D', '8S', '5C', '3D'],
      'foundation:C': [], 'foundation:D': [], 'foundation:H': ['AH'], 'foundation:S': [],
    },
  }, [
    { move: '17', from: 'tableau:0', to: 'tableau:6', count: 1, card: '4C' },
    { move: '26', from: 'tableau:1', to: 'tableau:5', count: 1, card: 'TS' },
    { move: '42', from: 'tableau:3', to: 'tableau:1', count: 1, card: '9S' },
    { move: '4q', from: 'tableau:3', to: 'tableau:11', count: 1, card: '9S' },
    { move: '9h', from: 'tableau:8', to: 'foundation:H', count: 1, card: '2H' },
    { move: '9k', from: 'tableau:8', to: 'tableau:12', count: 1, card: '2H' },
    { move: 'kt', from: 'tableau:12', to: 'tableau:9', count: 1, card: '3D' },
  ], extra);
}

// Klondike with face-down cards, a waste and a stock: 2H may go up, 4S come back down
// onto 5H, and the stock turn.
export const KLONDIKE_MOVES = [
  { move: '1h', from: 'tableau:0', to: 'foundation:H', count: 1, card: '2H' },
  { move: 'fs4', from: 'foundation:S', to: 'tableau:3', count: 1, card: '4S' },
  { move: 's', from: 'stock', to: 'waste', count: 1 },
];

export function klondike(legal = KLONDIKE_MOVES, { piles = {}, ...view } = {}, extra = {}, game = 'klondike') {
  return table(game, {
    piles: {
      'tableau:0': ['2H'], 'tableau:1': [null, '7D'], 'tableau:2': [null, null, 'JH'],
      'tableau:3': [null, null, null, '5H'], 'tableau:4': [null, null, null, null, '9D'],
      'tableau:5': [null, null, null, null, null, '9C'], 'tableau:6': [null, null, null, null, null, null, 'KC'],
      'foundation:C': [], 'foundation:D': [], 'foundation:H': ['AH'], 'foundation:S': ['AS', '2S', '3S', '4S'],
      waste: ['8D', 'QS', '9S'],
      ...piles,
    },
    stock: 21, draw: 1, passes_left: null, ...view,
  }, legal, { score: 5, ...extra });
}
