// The keyboard (docs/rules.md, "Keyboard"): ←/→ walk the piles, ↑/↓ walk a column's face-up
// cards, Enter picks, drops or sends a card where a tap would (and starts the finish while
// "tap to finish" shows), Space always picks, Esc cancels, U H N F the buttons; while cards
// are going up any key stops them.
import { clearSelection, perform } from './act.js';
import { runFinish, stopFinish } from './finish.js';
import { newDeal, undo } from './flow.js';
import { askHint } from './hint.js';
import { announce, cardName, pileName, t } from './i18n.js';
import { activate, focusInColumn, focusStep, pile } from './intents.js';
import { closePicker } from './picker.js';
import { focusCurrent, root } from './view.js';

// The keys that work wherever the focus is (but in a field): docs/rules.md, "Keyboard".
const LETTERS = new Set(['u', 'U', 'h', 'H', 'n', 'N', 'f', 'F', 'Escape']);

export function bindKeys(st) {
  const keyMap = {
    ArrowLeft: () => walkPiles(st, -1),
    ArrowRight: () => walkPiles(st, 1),
    ArrowUp: () => walkColumn(st, -1),
    ArrowDown: () => walkColumn(st, 1),
    Enter: () => perform(st, activate(st, st.focus.pile, st.focus.index)),
    ' ': () => perform(st, activate(st, st.focus.pile, st.focus.index, true)),
    Escape: () => { closePicker(st); clearSelection(st); },
    u: () => undo(st), U: () => undo(st),
    h: () => askHint(st), H: () => askHint(st),
    n: () => newDeal(st), N: () => newDeal(st),
    f: () => runFinish(st), F: () => runFinish(st),
  };
  document.addEventListener('keydown', (e) => {
    if (!st.s || e.ctrlKey || e.metaKey || e.altKey) return;
    // Any key stops the cards going up, wherever the focus is (a focused button included:
    // the key does nothing else).
    if (st.finishing) { stopFinish(st); e.preventDefault(); return; }
    const fn = keyMap[e.key];
    if (!fn) return;
    const el = e.target.closest ? e.target : null;
    // Typing in a field is typing, and the win panel has its own keys.
    if (el && (el.isContentEditable || el.closest('input, textarea, select, dialog'))) return;
    // On a button or a link outside the table (the one a click just focused), the letters
    // and Esc still work; Enter, Space and the arrows are the focused element's own.
    const outside = el && !el.closest('#table') && el !== document.body && el !== document.documentElement;
    if (outside && !LETTERS.has(e.key)) return;
    e.preventDefault();
    st.keyboard = true;
    fn();
  });
  // Tabbing into the table lands on the focused pile.
  root.addEventListener('focusin', (e) => {
    const p = e.target.closest('.pile');
    if (!p) return;
    const c = e.target.closest('.card');
    st.focus = { pile: p.dataset.pile, index: c && c.dataset.index !== undefined ? Number(c.dataset.index) : -1 };
  });
}

function walkPiles(st, step) {
  st.focus = focusStep(st, step);
  focusCurrent(st);
  const name = st.focus.pile, cards = pile(st.s, name);
  if (name === 'stock') announce(pileName(name));
  else announce(pileName(name) + ', ' + (cards.length ? cardName(cards[cards.length - 1]) : t('empty')));
}

function walkColumn(st, step) {
  const next = focusInColumn(st, step);
  if (!next) return;
  st.focus = next;
  focusCurrent(st);
  const cards = pile(st.s, next.pile);
  announce(cardName(cards[next.index]) + (next.index < cards.length - 1 ? ` (+${cards.length - 1 - next.index})` : ''));
}
