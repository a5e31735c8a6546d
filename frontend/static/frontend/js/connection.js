// Plays one session: every operation goes over the websocket when it is up and over HTTP
// otherwise, one at a time and in order.  A dropped connection never loses a move: the
// operation is retried with the same sequence number, and the server applies a repeated
// sequence number once (409 then tells us where it stands and we adopt its state).
import * as api from './api.js';
import { openSocket } from './socket.js';

// A refusal from the server: its sentence, and its stable code and details when it has them.
export class Refusal extends Error {
  constructor(message, code, params) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

const WS_TIMEOUT = 5000;

export function connect(session, { onState, onStatus }) {
  const id = session.id;
  let seq = session.seq;
  let waiting = null; // {resolve, reject, timer} for the request on the websocket
  let chain = Promise.resolve();
  let online = true;

  const socket = openSocket(`/ws/sessions/${id}/`, {
    onMessage(msg) {
      if (msg.type === 'state') {
        const state = stripType(msg);
        // The answer to our operation always has a higher seq; anything else is the state
        // the server sends on (re)connection, or another tab's move.
        if (waiting && state.seq > waiting.seq) { const w = waiting; waiting = null; clearTimeout(w.timer); w.resolve(state); }
        else if (!waiting && typeof state.seq === 'number' && state.seq > seq) adopt(state);
      } else if (msg.type === 'error' && waiting) {
        const w = waiting; waiting = null; clearTimeout(w.timer);
        if (msg.error === 'stale_seq') w.resolve(api.getSession(id));
        else w.reject(new Refusal(msg.reason || msg.error || 'refused', msg.code, msg.params));
      } else if (msg.type === 'hint' && waiting) {
        const w = waiting; waiting = null; clearTimeout(w.timer); w.resolve(msg);
      }
    },
    onOpen() { status(true); },
    onClose() {
      if (waiting) { const w = waiting; waiting = null; clearTimeout(w.timer); w.reject(new Error('socket closed')); }
    },
  });

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
      waiting = { seq: msg.seq, resolve, reject, timer: setTimeout(() => { waiting = null; reject(new Error('timeout')); }, WS_TIMEOUT) };
    });
  }

  async function overHttp(kind, token) {
    if (kind === 'move') return api.move(id, seq, token);
    if (kind === 'undo') return api.undo(id, seq);
    return api.finish(id, seq);
  }

  async function attempt(kind, token) {
    const mySeq = seq;
    if (socket.isOpen()) {
      try {
        return await overSocket({ type: kind, seq: mySeq, move: token });
      } catch (e) {
        if (e instanceof Refusal) throw e;
        // Socket dropped or silent: the same operation, same seq, goes over HTTP below.
      }
    }
    for (let wait = 400; ; wait = Math.min(wait * 2, 5000)) {
      try {
        const state = await overHttp(kind, token);
        status(true);
        return state;
      } catch (e) {
        if (e.status === 422 || (e.status === 400 && e.body && e.body.reason)) throw new Refusal(e.body.reason || e.message, e.body.code, e.body.params);
        if (e.status === 409) return api.getSession(id);
        if (e.status && e.status < 500) throw e;
        status(false); // network down or server restarting: keep trying, in order
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  function run(kind, token) {
    const p = chain.then(() => attempt(kind, token)).then((state) => { adopt(state); return state; });
    chain = p.catch(() => {});
    return p;
  }

  return {
    move: (token) => run('move', token),
    undo: () => run('undo'),
    finish: () => run('finish'),
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
