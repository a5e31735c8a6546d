// The table page: one state object (state.js), drawn by view.js and table.js; gestures
// (pointer.js, keys.js) decided by intents.js from the server's legal moves and carried
// out by act.js; the session's life in flow.js.  This file only wires them together.
import { clearSelection } from './act.js';
import { runFinish, sendUp, stopFinish } from './finish.js';
import { newDeal, replay, resign, start, undo } from './flow.js';
import { askHint } from './hint.js';
import { page } from './i18n.js';
import { bindKeys } from './keys.js';
import { send } from './moves.js';
import { whereLost } from './lost.js';
import { closePicker, stepPicker } from './picker.js';
import { bindPointer } from './pointer.js';
import { createState } from './state.js';
import { toggleRace } from './race.js';
import { pileOrder } from './table.js';
import { startTimer } from './timer.js';
import { draw } from './view.js';
import { copyDeal } from './win.js';

const st = createState(page.game);
st.order = pileOrder(st.meta);
const $ = (id) => document.getElementById(id);
const on = (id, type, fn) => $(id).addEventListener(type, fn);

// The commands a notice's exit buttons name (notice.js).
const exits = { undo: () => undo(st), hint: () => askHint(st), replay: () => replay(st), another: () => newDeal(st),
  // The replay, opened at the position before the move that lost the game.
  watch: () => window.location.assign(`/replay/${st.s.id}/?step=${st.lostAt ?? 0}`) };
on('notice', 'click', (e) => {
  const b = e.target.closest('button[data-exit]');
  if (b) exits[b.dataset.exit]();
});

on('btn-undo', 'click', () => undo(st));
on('btn-hint', 'click', () => askHint(st));
on('btn-third', 'click', () => {
  if (st.finishing) stopFinish(st);
  else if (st.s && st.s.can_finish) runFinish(st);
  else newDeal(st);
});
// Baker's Dozen's Send up: whatever can go up now, whether or not that wins.
if ($('btn-send-up')) on('btn-send-up', 'click', () => (st.finishing ? stopFinish(st) : sendUp(st)));
on('btn-resign', 'click', () => resign(st));
on('btn-lost', 'click', () => whereLost(st));
on('btn-race', 'click', () => toggleRace(st));

on('win-copy', 'click', () => copyDeal(st));
on('win-new', 'click', () => newDeal(st));
on('win-replay', 'click', () => replay(st));
on('win-look', 'click', () => { st.looked = true; $('win').close(); });
on('win', 'keydown', (e) => { if (e.key === 'c' || e.key === 'C') { e.preventDefault(); copyDeal(st); } });
on('win', 'close', () => { st.looked = true; });

on('picker-up', 'click', () => stepPicker(st, -1));
on('picker-down', 'click', () => stepPicker(st, 1));
on('picker-close', 'click', () => { closePicker(st); clearSelection(st); });

bindPointer(st);
bindKeys(st);
startTimer(st);
const redraw = () => {
  cancelAnimationFrame(st.resizeFrame);
  st.resizeFrame = requestAnimationFrame(() => draw(st));
};
window.addEventListener('resize', redraw);
// The table takes the height the bar above, the notice and the buttons below leave it: when
// one changes size (a button shown, a line wrapped, a notice said), the table is sized again.
const around = new ResizeObserver(redraw);
document.querySelectorAll('.table-wrap > .bar, .table-wrap > .notice, .table-wrap > .controls').forEach((el) => around.observe(el));

// For the browser tests and for curious players.
window.solitaire = { state: st, get conn() { return st.conn; }, order: st.order,
  move: (token) => send(st, token) };
start(st);
