// Finish (Auto finish in Baker's Dozen): the listed foundation moves played one by one,
// each a move of its own, so that the player sees the cards go up; any press stops it.
import { finishStep } from './intents.js';
import { send } from './moves.js';
import { drawNotice } from './notice.js';
import { draw, drawBar } from './view.js';

const PAUSE = 110;

export function stopFinish(st) {
  if (st.finishing) { st.finishing = false; drawBar(st); drawNotice(st); }
}

export async function runFinish(st) {
  if (st.finishing || !st.s.can_finish) return;
  st.finishing = true;
  st.sel = null; st.targets = null;
  drawBar(st); drawNotice(st);
  let idle = 0;
  while (st.finishing && !st.s.won) {
    const step = finishStep(st, idle);
    idle = step.idle;
    if (!step.move) break;
    if (!(await send(st, step.move.move, null))) break;
    await new Promise((r) => setTimeout(r, PAUSE));
  }
  st.finishing = false;
  draw(st);
}
