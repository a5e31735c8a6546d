// The clock above the table.  It runs once the first move is made, stops while the tab
// is hidden and is kept per session for this tab, so a reload shows the same time; the
// server's own clock decides the ranking.
import { drawClock } from './view.js';

const TICK = 500;

export function startTimer(st) {
  st.lastTick = performance.now();
  document.addEventListener('visibilitychange', () => { st.lastTick = performance.now(); });
  setInterval(() => tick(st), TICK);
}

function tick(st) {
  const now = performance.now();
  const s = st.s;
  if (s && !document.hidden && !s.won && (s.moves > 0 || s.seq > 0)) st.elapsed += now - st.lastTick;
  st.lastTick = now;
  drawClock(st);
  if (s) sessionStorage.setItem(`ds:time:${s.id}`, String(Math.round(st.elapsed)));
}
