// Plays one session: every operation goes over the websocket when it is up and over HTTP
// otherwise, one at a time and in order.  A dropped connection never loses a move and never
// stores one twice: each operation gets an id when it is made, and every try of it (the
// socket, then HTTP) carries that id and the sequence number it was made at, never the
// current one.  The server stores the id with the move, so a retry of an operation it had
// stored already is answered with the state (repeated) instead of becoming a second move.
import * as api from './api.js';
import { CLOSE_RESTART, openSocket } from './socket.js';

// A refusal from the server: its sentence, and its stable code and details when it has them.
export class Refusal extends Error {
  constructor(message, code, params) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

const WS_TIMEOUT = 5000;
// Refusals that mean the session is over (docs/api.md, the reasons' codes).
const OVER = new Set(['game_won', 'game_resigned']);

// Retries waiting out their delay, woken at once when the browser says the network is back.
const sleepers = new Set();
window.addEventListener('online', () => { for (const wake of [...sleepers]) wake(); });
function pause(ms) {
  return new Promise((resolve) => {
    const wake = () => { clearTimeout(timer); sleepers.delete(wake); resolve(); };
    const timer = setTimeout(wake, ms);
    sleepers.add(wake);
  });
}

function newOp() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function connect(session, { onState, onStatus, onVerdict }) {
  const id = session.id;
  let seq = session.seq;
  let waiting = null; // {op, resolve, reject, timer} for the request on the websocket
  let chain = Promise.resolve();
  let online = true;
  let opened = false;

  const socket = openSocket(`/ws/sessions/${id}/`, {
    onMessage(msg) {
      status(true); // anything heard from the server: the connection is back
      const mine = waiting && msg.op === waiting.op;
      if (msg.type === 'state' || msg.type === 'hello') { // hello: the greeting on connect
        const state = stripType(msg);
        // Our operation's answer names it; anything else is the state the server sends on
        // (re)connection, a late answer to an operation already retried, or another tab's.
        if (mine) { const w = waiting; waiting = null; clearTimeout(w.timer); w.resolve(state); }
        else if (typeof state.seq === 'number' && state.seq > seq) adopt(state);
      } else if (msg.type === 'verdict') {
        // A dead end found after the move's answer was sent: about the table shown only
        // while the session is still at that seq.
        if (msg.seq === seq && onVerdict) onVerdict(msg);
      } else if (msg.type === 'error' && mine) {
        const w = waiting; waiting = null; clearTimeout(w.timer);
        if (msg.error === 'stale_seq') w.resolve(api.getSession(id));
        else w.reject(new Refusal(msg.reason || msg.error || 'refused', msg.code, msg.params));
      }
    },
    onOpen() { opened = true; status(true); },
    onClose(ev) {
      // Said at once, not after a retry times out: a table shows the cut as it happens (a
      // socket that never opened says nothing: HTTP may still carry the moves).  A server
      // stopping for a deploy is no cut: the socket is back on another within a second.
      if (opened && ev.code !== CLOSE_RESTART) status(false);
      opened = false;
      if (waiting) { const w = waiting; waiting = null; clearTimeout(w.timer); w.reject(new Error('socket closed')); }
    },
  });
  window.addEventListener('offline', () => status(false));

  function status(up) {
    if (up !== online) { online = up; onStatus && onStatus(up); }
  }

  function adopt(state) {
    if (typeof state.seq === 'number') seq = state.seq;
    onState(state);
  }

  function overSocket(msg) {
    return new Promise((resolve, reject) => {
      if (!socket.send(msg)) { reject(new Error('socket down')); return; }
      waiting = { op: msg.op, resolve, reject, timer: setTimeout(() => { waiting = null; reject(new Error('timeout')); }, WS_TIMEOUT) };
    });
  }

  // The socket's message without its type, at the operation's path (api.OPERATIONS); a
  // move's token only goes with a move (JSON leaves an undefined field out).
  function overHttp(kind, token, opSeq, op) {
    return api.operate(kind, id, { seq: opSeq, move: token, op });
  }

  async function attempt(kind, token) {
    // The operation's identity, fixed now: a late answer that moves `seq` on must not turn
    // the retry into a new operation.
    const opSeq = seq;
    const op = newOp();
    if (socket.isOpen()) {
      try {
        return await overSocket({ type: kind, seq: opSeq, move: token, op });
      } catch (e) {
        if (e instanceof Refusal) throw e;
        // Socket dropped or silent: the same operation, same seq, goes over HTTP below.
      }
    }
    for (let wait = 400; ; wait = Math.min(wait * 2, 5000)) {
      try {
        const state = await overHttp(kind, token, opSeq, op);
        status(true);
        return state;
      } catch (e) {
        if (e.status === 422 || (e.status === 400 && e.body && e.body.reason)) throw new Refusal(e.body.reason || e.message, e.body.code, e.body.params);
        // A stale seq: the table moved on elsewhere, so show it as it stands.  Any other
        // conflict (the day is over, the game is won) is said, as the socket says it.
        if (e.status === 409 && (!e.body || !e.body.reason || e.body.error === 'stale_seq')) return api.getSession(id);
        if (e.status === 409) throw new Refusal(e.body.reason, e.body.code || e.body.error, e.body.params);
        if (e.status && e.status < 500) throw e;
        status(false); // network down or server restarting: keep trying, in order
        await pause(wait);
      }
    }
  }

  function run(kind, token) {
    const p = chain.then(() => attempt(kind, token)).then(
      (state) => { adopt(state); return state; },
      async (e) => {
        // Won or resigned in another tab or browser: this table shows the game as it now
        // stands (with its exits), and the caller still says why the operation was refused.
        if (e instanceof Refusal && OVER.has(e.code)) {
          try { adopt(await api.getSession(id)); } catch { /* the refusal says it anyway */ }
        }
        throw e;
      });
    chain = p.catch(() => {});
    return p;
  }

  return {
    move: (token) => run('move', token),
    undo: () => run('undo'),
    finish: () => run('finish'),
    resign: () => run('resign'),
    hint: (signal) => api.hint(id, seq, signal),
    get seq() { return seq; },
    get online() { return online; },
    socket,
  };
}

function stripType(msg) {
  const { type, ...rest } = msg;
  return rest.state && typeof rest.state === 'object' && !rest.view ? { ...rest, ...rest.state } : rest;
}
