// Finish (Auto finish in Baker's Dozen) and Send up: the listed foundation moves played one
// by one, each a move of its own, so that the player sees the cards go up and undo takes
// them back one at a time; any press stops it.  The finish is offered by the server
// (`can_finish`: it wins); Send up, a double tap on a foundation card, sends up whatever
// can go now and never touches the stock.
import { finishStep, upMove } from './intents.js';
import { send } from './moves.js';
import { drawNotice } from './notice.js';
import { draw, drawBar } from './view.js';

const PAUSE = 110;
let runs = 0; // numbers the runs, so that each knows whether it is still the one going
let inFlight = null; // the move a run has sent and not yet had answered

export function stopFinish(st) {
  if (st.finishing) { st.finishing = false; drawBar(st); drawNotice(st); }
}

export function runFinish(st, upOnly = false) {
  if (st.finishing || !st.s || st.s.won) return;
  if (upOnly ? !upMove(st.s) : !st.s.can_finish) return;
  play(st, upOnly);
}

export function sendUp(st) { runFinish(st, true); }

// `st.finishing` holds this run while it lasts: a finish stopped and started again while a
// move of the first was in flight leaves the first run's loop to end by itself, rather
// than two loops sending the same cards up.
async function play(st, upOnly) {
  const run = ++runs;
  st.finishing = run;
  st.sel = null; st.targets = null;
  drawBar(st); drawNotice(st);
  // A run started while the last one's move is in flight takes its first step from the
  // table that move leaves: from the table before it, it would send the same card again.
  if (inFlight) await inFlight;
  let idle = 0;
  while (st.finishing === run && !st.s.won) {
    const step = finishStep(st, idle, upOnly);
    idle = step.idle;
    if (!step.move) break;
    const sent = send(st, step.move.move, null);
    inFlight = sent;
    const answered = await sent;
    if (inFlight === sent) inFlight = null;
    if (!answered) break;
    await new Promise((r) => setTimeout(r, PAUSE));
  }
  if (st.finishing && st.finishing !== run) return; // a newer run carries on
  st.finishing = false;
  draw(st);
}
