// The clock above the table.  A ranked attempt shows the server's clock, the figure that
// ranks: from the deal being shown, never paused.  Practice runs once the first move is
// made, stops while the tab is hidden and is kept per session for this tab.
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
  if (s && s.ranked) {
    st.elapsed = s.status === 'playing' ? st.serverClock + (now - st.serverClockAt) : (s.time_ms ?? st.serverClock);
  } else if (s && !document.hidden && !s.won && (s.moves > 0 || s.seq > 0)) st.elapsed += now - st.lastTick;
  st.lastTick = now;
  drawClock(st);
  if (s) sessionStorage.setItem(`ds:time:${s.id}`, String(Math.round(st.elapsed)));
}
