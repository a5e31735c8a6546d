// A websocket that keeps itself connected: it reconnects after any drop and tells its owner
// when it goes up or down, so callers can fall back to HTTP meanwhile.
//
// The wait before a reconnection grows (0.5, 1, 2, 4, 8 s) and each is drawn at random
// between half and all of it, so the pages of a server that crashed do not all come back in
// the same instant, and again together at every step.  A server that is stopping on purpose
// (a deploy) closes with CLOSE_RESTART: the page reconnects at once, within a random
// fraction of a second, to another server (docs/api.md, "Reconnecting").

export const CLOSE_RESTART = 4012;
const FIRST = 500;
const LONGEST = 8000;

export function openSocket(path, { onMessage, onOpen, onClose } = {}) {
  let ws = null;
  let delay = FIRST;
  let closed = false;
  let timer = 0;

  function connect() {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    try {
      ws = new WebSocket(`${proto}//${location.host}${path}`);
    } catch {
      schedule();
      return;
    }
    ws.onopen = () => { delay = FIRST; onOpen && onOpen(); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      onMessage && onMessage(msg);
    };
    ws.onclose = (ev) => {
      ws = null;
      onClose && onClose(ev);
      if (ev.code === CLOSE_RESTART) { delay = FIRST; schedule(Math.random() * 1000); }
      else schedule();
    };
    ws.onerror = () => { try { ws && ws.close(); } catch { /* closing anyway */ } };
  }

  function schedule(wait) {
    if (closed) return;
    clearTimeout(timer);
    if (wait === undefined) {
      wait = delay * (0.5 + Math.random() / 2);
      delay = Math.min(delay * 2, LONGEST);
    }
    timer = setTimeout(connect, wait);
  }

  // Reconnect at once when the network or the tab comes back.
  const kick = () => { if (!ws && !closed) { delay = FIRST; clearTimeout(timer); connect(); } };
  window.addEventListener('online', kick);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) kick(); });

  connect();
  return {
    isOpen: () => !!ws && ws.readyState === WebSocket.OPEN,
    send(obj) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(obj));
      return true;
    },
    drop() { try { ws && ws.close(); } catch { /* ignore */ } },
    close() { closed = true; clearTimeout(timer); try { ws && ws.close(); } catch { /* ignore */ } },
  };
}
