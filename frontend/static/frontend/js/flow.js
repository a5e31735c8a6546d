// The session's life on this page: find the player's session for this deal or start one,
// follow the server's states, and undo, resign, replay or deal again.
import * as api from './api.js';
import { celebrate } from './celebrate.js';
import { connect, Refusal } from './connection.js';
import { stopFinish } from './finish.js';
import { announce, t } from './i18n.js';
import { stopHint } from './hint.js';
import { drawNotice, say } from './notice.js';
import { translateReason } from './reasons.js';
import { leaveOffline, openOffline } from './offline.js';
import { offlineGames, offlineMode } from './pwa.js';
import { positions } from './table.js';
import { draw, root } from './view.js';
import { dealId, showReview, showWin } from './win.js';

// Each deal remembers its session in the browser, so a reload goes on with the same game.
const storeKey = (meta, deal) => `ds:${meta.key}:${deal}`;

function setState(st, state, before) {
  const prev = st.s;
  st.s = state;
  if (typeof state.clock_ms === 'number') { st.serverClock = state.clock_ms; st.serverClockAt = performance.now(); }
  if (prev && state.seq !== prev.seq) st.hint = null;
  draw(st, before || (prev ? positions(root) : null));
  // A win played here gets its flourish first (celebrate.js); a won game opened again,
  // only the panel.
  const justWon = prev && !prev.won && prev.id === state.id;
  if (state.won && !st.looked) setTimeout(() => (justWon ? celebrate(root, () => showWin(st)) : showWin(st)), 350);
  if (state.won && state.review && state.review.verified === null) recheck(st, state.id, 1);
}

// A win's fair-play check runs just after the win: ask again until it has a verdict.
function recheck(st, id, tries) {
  setTimeout(async () => {
    let s;
    try { s = await api.getSession(id); } catch { return; }
    if (!st.s || st.s.id !== id) return;
    st.s = { ...st.s, review: s.review, active_ms: s.active_ms };
    showReview(st);
    if (s.review && s.review.verified === null && tries < 5) recheck(st, id, tries + 1);
  }, 800 * tries);
}

// The request the page made itself before its modules loaded (frontend/start.js), for
// this deal; taken once.
function earlyStart(meta) {
  const early = window.solitaireStart;
  window.solitaireStart = undefined;
  return early && early.game === meta.key && early.deal === meta.deal ? early : null;
}

async function findSession(st, early) {
  const meta = st.meta;
  const stored = localStorage.getItem(storeKey(meta, meta.deal));
  if (stored) {
    let session;
    const answer = early && early.stored === stored ? early.answer : null;
    try { session = await (answer ? api.read(answer) : api.getSession(stored)); } catch { session = null; }
    if (session && session.game === meta.key) return session;
  }
  const deal = /^\d+$/.test(meta.deal) ? Number(meta.deal) : meta.deal;
  try {
    return await (early && !early.stored ? api.read(early.answer) : api.createSession(meta.key, deal));
  } catch (e) {
    // The deal is a daily whose ranked attempt is still open: that attempt is the table.
    if (e.status === 409 && e.body.error === 'ranked_attempt_open') {
      let session;
      try { session = await api.getSession(e.body.session); } catch { session = null; }
      if (session) { setTimeout(() => say(st, t('ranked_open'), 'info'), 0); return session; }
    }
    say(st, t('error', { error: e.message }), 'refusal', null, true);
    return null;
  }
}

// A practice deal on the engine in the browser (offline.js): when the server cannot be
// reached, or to go on with a practice game begun that way.  Never a ranked attempt.
async function startOffline(st) {
  let opened;
  try {
    opened = await openOffline(st.meta.key);
  } catch (e) {
    say(st, t('error', { error: e.message }), 'refusal', null, true);
    return;
  }
  st.conn = opened.conn;
  st.conn.bind((state) => setState(st, state, st.pendingBefore));
  st.elapsed = 0;
  st.focus = { pile: 'tableau:0', index: (opened.session.view.piles['tableau:0'] || []).length - 1 };
  setState(st, opened.session);
  say(st, t('offline_practice'), 'offline', null, true);
  root.dataset.ready = '1';
  root.dataset.offline = '1';
}

function offlineGameOpen(key) {
  const id = localStorage.getItem(`ds:offline:${key}`);
  return !!id && offlineGames().some((g) => g.client === id && !g.done);
}

// Resolves once the table is drawn and playable (or the page has said why not).  The table
// is drawn from the session's answer before its socket is opened.
export async function start(st) {
  const early = earlyStart(st.meta);
  if (!early && offlineMode()) {
    // No request was made ahead (frontend/start.js): this table may deal offline instead.
    let reachable = navigator.onLine;
    try { await api.me(); } catch (e) { if (!(e instanceof api.ApiError)) reachable = false; /* else the session cookie may already exist */ }
    if (!reachable || (st.meta.deal === 'random' && offlineGameOpen(st.meta.key))) {
      await startOffline(st);
      return;
    }
  }
  const session = await findSession(st, early);
  if (!session) return;
  localStorage.setItem(storeKey(st.meta, st.meta.deal), session.id);
  st.elapsed = Number(sessionStorage.getItem(`ds:time:${session.id}`))
    || (session.started_at ? Math.max(0, Date.now() - Date.parse(session.started_at)) : 0);
  st.focus = { pile: 'tableau:0', index: (session.view.piles['tableau:0'] || []).length - 1 };
  setState(st, session);
  st.conn = connect(session, {
    onState: (state) => setState(st, state, st.pendingBefore),
    // The server's verdict on the state shown, given after its answer (docs/api.md).
    onVerdict: (v) => {
      if (st.s && st.s.seq === v.seq && !st.s.no_legal_move) setState(st, { ...st.s, no_legal_move: v.no_legal_move });
    },
    onStatus: (up) => {
      if (!up) say(st, t('offline'), 'offline', null, true);
      else if (st.notice && st.notice.kind === 'offline') { st.notice = null; drawNotice(st); announce(t('online')); }
    },
  });
  root.dataset.ready = '1';
}

export async function undo(st) {
  stopHint(st); stopFinish(st);
  st.sel = null; st.targets = null;
  st.notice = null;
  try {
    await st.conn.undo();
    announce(t('undone'));
  } catch (e) {
    say(st, e instanceof Refusal ? translateReason(e.message, e.code, e.params) : t('no_undo'), 'refusal');
  }
}

export async function resign(st) {
  if (!st.s || st.s.status !== 'playing' || !window.confirm(t('resign_confirm'))) return;
  try {
    await st.conn.resign();
    st.notice = null; // the standing "resigned" notice with its exits takes the bar
    drawNotice(st);
  } catch (e) {
    say(st, e instanceof Refusal ? translateReason(e.message, e.code, e.params) : t('error', { error: e.message }), 'refusal');
  }
}

export function newDeal(st) {
  // Leaving a ranked attempt in play asks first, saying what becomes of it (docs/rules.md,
  // "The daily challenge"): it stays open, its clock running, until the day closes.
  const s = st.s;
  if (s && s.ranked && s.status === 'playing'
      && !window.confirm(t(s.seq ? 'leave_confirm' : 'leave_unplayed_confirm'))) return;
  if (st.conn && st.conn.offline) leaveOffline(st.meta.key);
  localStorage.removeItem(storeKey(st.meta, 'random'));
  location.href = `/play/${st.meta.key}/?deal=random`;
}

export function replay(st) {
  if (st.conn && st.conn.offline) { newDeal(st); return; } // an offline deal has no id to open again
  const id = dealId(st.s);
  localStorage.removeItem(storeKey(st.meta, id));
  location.href = `/play/${st.meta.key}/?deal=${encodeURIComponent(id)}`;
}
