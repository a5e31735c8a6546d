// Draws the whole page from the state: the table (table.js), the bar above it, the notice
// and the keyboard's tab stop.
import { clock, t } from './i18n.js';
import { keptFocus, upMove } from './intents.js';
import { drawNotice } from './notice.js';
import { raceFits } from './race.js';
import { animateFrom, renderTable } from './table.js';

export const root = document.getElementById('table');
const $ = (id) => document.getElementById(id);

// `before`: where the cards were (table.js positions), to slide them from there.
export function draw(st, before) {
  if (!st.s) return;
  st.focus = keptFocus(st.s, st.focus);
  drawBar(st); // first: the buttons it shows or hides take height the table sizes around
  renderTable(root, st);
  if (before) animateFrom(root, before);
  drawNotice(st);
  focusCurrent(st, st.keyboard);
}

export function drawBar(st) {
  const s = st.s;
  $('st-moves').textContent = s.moves;
  if ($('st-score')) $('st-score').textContent = s.score ?? 0;
  $('st-up').textContent = s.cards_up;
  if ($('st-limit')) $('st-limit').textContent = t('move_n', { n: s.view.move_limit });
  if ($('st-passes')) {
    const left = s.view.passes_left;
    $('st-passes').textContent = left === null ? '' : t('passes_left', { n: left });
  }
  // Ranked or practice, in a banner of its own; a certified daily's par and difficulty
  // beside it; the deal's number where the game has public numbers (FreeCell's).
  const badge = $('st-ranked');
  badge.textContent = t(s.ranked ? 'ranked' : 'practice');
  badge.className = 'badge ' + (s.ranked ? 'ranked' : 'practice');
  $('st-par').textContent = [s.par ? t('ar_par', { par: s.par }) : '',
    s.difficulty ? t('difficulty_' + s.difficulty) : ''].filter(Boolean).join(' · ');
  $('st-deal-row').hidden = s.deal_number == null;
  $('st-deal').textContent = s.deal_number == null ? '' : '#' + s.deal_number;
  const third = $('btn-third');
  third.textContent = st.finishing ? t('stop') : s.can_finish ? t(st.meta.single ? 'auto_finish' : 'finish') : t('new_deal');
  third.setAttribute('aria-keyshortcuts', s.can_finish ? 'F' : 'N');
  if ($('btn-send-up')) $('btn-send-up').disabled = st.finishing || !upMove(s);
  $('btn-undo').disabled = !s.can_undo;
  $('btn-resign').hidden = !(s.ranked && s.status === 'playing');
  $('btn-lost').hidden = s.status !== 'resigned';
  if ($('btn-race')) raceFits(st);
}

export function drawClock(st) { $('st-time').textContent = clock(st.elapsed); }

// One tab stop inside the table (roving tabindex): the focused pile or card.  `move` also
// gives it the browser's focus.
export function focusCurrent(st, move = true) {
  const f = st.focus;
  let el = null;
  if (f.index >= 0) el = root.querySelector(`.card[data-pile="${f.pile}"][data-index="${f.index}"]`);
  if (!el) el = root.querySelector(`.pile[data-pile="${f.pile}"]`);
  root.querySelectorAll('[tabindex="0"]').forEach((e) => { e.tabIndex = -1; });
  if (el) { el.tabIndex = 0; if (move && document.activeElement !== el) el.focus({ preventScroll: true }); }
}
