// Every page: the service worker (offline copies of the site's files, /sw.js), offline mode
// turned on or off (the home page's button), and the practice games played offline sent to
// the server once it can be reached (docs/frontend.md, "Offline").  No rules here: the
// server replays every uploaded move list with its engine before it stores anything.
import { page, t } from './i18n.js';

const GAMES = 'ds:offline:games'; // [{client, game, seed, moves, done}], oldest first
const MODE = 'ds:offline:on';     // '1' once every file offline play needs is cached

export const offlineMode = () => localStorage.getItem(MODE) === '1';

export function offlineGames() {
  try { return JSON.parse(localStorage.getItem(GAMES) || '[]'); } catch { return []; }
}

// Keeps one game's record (played on, or over) under its client id.
export function keepGame(record) {
  const games = offlineGames().filter((g) => g.client !== record.client);
  games.push(record);
  localStorage.setItem(GAMES, JSON.stringify(games));
}

function forget(client) {
  localStorage.setItem(GAMES, JSON.stringify(offlineGames().filter((g) => g.client !== client)));
}

function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : '';
}

let sending = null;
// Each game that is over goes up once: the client id makes a retry of a game the server
// stored already an answer, not a second game.  A refusal (4xx) is final: the game is
// dropped, as the server would refuse it again.
export function sendGames() {
  if (sending) return sending;
  sending = (async () => {
    let sent = 0;
    for (const g of offlineGames().filter((r) => r.done)) {
      let res;
      try {
        if (!csrf()) await fetch('/api/me/', { credentials: 'same-origin' });
        res = await fetch('/api/offline-games/', {
          method: 'POST', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRFToken': csrf() },
          body: JSON.stringify({ game: g.game, seed: g.seed, moves: g.moves, client: g.client }),
        });
      } catch { break; } // still offline: the next 'online' event tries again
      if (res.ok || (res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 403)) {
        forget(g.client);
        if (res.ok) sent += 1;
      } else break;
    }
    document.documentElement.dataset.offlineSent = String(
      Number(document.documentElement.dataset.offlineSent || 0) + sent);
    sending = null;
    return sent;
  })();
  return sending;
}

function ask(message) {
  return navigator.serviceWorker.ready.then((reg) => new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => (e.data.ok ? resolve(e.data) : reject(new Error(e.data.error)));
    reg.active.postMessage(message, [channel.port2]);
  }));
}

// The home page's button: offline mode caches Pyodide and the engine (their weight is in
// the README) only when the player asks for it.
function bindToggle() {
  const button = document.getElementById('offline-toggle');
  const status = document.getElementById('offline-status');
  if (!button) return;
  if (!('serviceWorker' in navigator) || !page.offline || !page.offline.pyodide) {
    status.textContent = t('offline_unsupported');
    return;
  }
  const show = () => {
    const on = offlineMode();
    button.textContent = on ? t('offline_turn_off') : t('offline_turn_on');
    button.setAttribute('aria-pressed', String(on));
    status.textContent = on ? t('offline_ready') : t('offline_what');
  };
  button.hidden = false;
  show();
  button.addEventListener('click', async () => {
    const on = !offlineMode();
    button.disabled = true;
    status.textContent = on ? t('offline_saving') : '';
    try {
      await ask({ type: on ? 'offline-on' : 'offline-off' });
      if (on) localStorage.setItem(MODE, '1'); else localStorage.removeItem(MODE);
    } catch (e) {
      status.textContent = t('error', { error: e.message });
      button.disabled = false;
      return;
    }
    button.disabled = false;
    show();
  });
}

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* no offline copies */ });
}
bindToggle();
window.addEventListener('online', () => sendGames());
if (navigator.onLine) sendGames();
