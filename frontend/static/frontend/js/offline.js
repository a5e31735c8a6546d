// A practice deal played with no server: the same engine, in Python, running in the browser
// (Pyodide; frontend/offline_table.py answers in the server's shape, so the table's modules
// draw it unchanged).  This is a transport beside connection.js with the same operations;
// it holds no rules.  Its games are practice only and go to the server once it can be
// reached (pwa.js), where the engine replays every move before anything is stored.  A
// ranked attempt never comes here: its face-down cards stay on the server.
import { Refusal } from './connection.js';
import { keepGame, offlineGames, sendGames } from './pwa.js';
import { page } from './i18n.js';

let python = null; // one Pyodide per page, loaded on first need

async function engine() {
  if (!python) {
    python = (async () => {
      const base = page.offline.pyodide;
      const { loadPyodide } = await import(`${base}pyodide.mjs`);
      const py = await loadPyodide({ indexURL: base });
      const zip = await fetch(page.offline.engine);
      if (!zip.ok) throw new Error(`engine: HTTP ${zip.status}`);
      py.unpackArchive(await zip.arrayBuffer(), 'zip', { extractDir: '/home/pyodide/engine' });
      py.runPython("import sys; sys.path.insert(0, '/home/pyodide/engine')");
      return py.pyimport('offline_table');
    })();
    python.catch(() => { python = null; });
  }
  return python;
}

const current = (game) => `ds:offline:${game}`; // the client id of the game being played

function newClient() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// The game of `key` being played offline (found again after a reload), or a new deal.
export async function openOffline(key, { fresh = false } = {}) {
  const mod = await engine();
  const id = localStorage.getItem(current(key));
  const found = !fresh && id && offlineGames().find((g) => g.client === id && !g.done);
  const client = found ? found.client : newClient();
  const table = found ? mod.OfflineTable(key, found.seed, client, found.moves) : mod.OfflineTable(key, '', client);
  localStorage.setItem(current(key), client);
  const run = (kind, token = '') => {
    const out = JSON.parse(mod.call(table, kind, token));
    if (out.refused !== undefined) throw new Refusal(out.refused, out.code, out.params);
    const rec = { client, game: key, seed: out.offline.seed, moves: out.offline.moves, done: out.won };
    keepGame(rec);
    if (out.won) { localStorage.removeItem(current(key)); if (navigator.onLine) sendGames(); }
    return out;
  };
  const first = run('state');
  let seq = first.seq;
  let onState = () => {};
  const op = (kind, token) => {
    const state = run(kind, token);
    seq = state.seq;
    onState(state);
    return Promise.resolve(state);
  };
  return {
    session: first,
    conn: {
      bind(fn) { onState = fn; },
      move: (token) => op('move', token),
      undo: () => op('undo'),
      finish: () => op('finish'),
      resign: () => Promise.reject(new Refusal('offline practice: deal again instead', 'offline', {})),
      hint: () => Promise.reject(Object.assign(new Error('offline'), { status: 0 })),
      get seq() { return seq; },
      get online() { return false; },
      offline: true,
      socket: { isOpen: () => false, send: () => false, drop() {}, close() {} },
    },
  };
}

// Dealing again leaves the game where it is: it goes to the server as played so far.
export function leaveOffline(key) {
  const id = localStorage.getItem(current(key));
  const rec = id && offlineGames().find((g) => g.client === id);
  if (rec) keepGame({ ...rec, done: true });
  localStorage.removeItem(current(key));
  if (navigator.onLine) sendGames();
}
