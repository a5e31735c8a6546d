// A websocket that keeps itself connected: it reconnects with a growing delay after any drop
// and tells its owner when it goes up or down, so callers can fall back to HTTP meanwhile.
export function openSocket(path, { onMessage, onOpen, onClose } = {}) {
  let ws = null;
  let delay = 500;
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
    ws.onopen = () => { delay = 500; onOpen && onOpen(); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      onMessage && onMessage(msg);
    };
    ws.onclose = () => { ws = null; onClose && onClose(); schedule(); };
    ws.onerror = () => { try { ws && ws.close(); } catch { /* closing anyway */ } };
  }

  function schedule() {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 8000);
  }

  // Reconnect at once when the network or the tab comes back.
  const kick = () => { if (!ws && !closed) { delay = 500; clearTimeout(timer); connect(); } };
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
