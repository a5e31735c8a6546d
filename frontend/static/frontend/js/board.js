// A leaderboard: today's ranking of one game, kept live by its websocket (with a slow HTTP
// poll while the socket is down), and the all-time table.  Wins come first with their
// ranks; unfinished attempts follow in a section of their own with their status; the
// player's own row is pinned above, wherever it is; a long board comes in pages of 100.
import * as api from './api.js';
import { clock, page, t } from './i18n.js';
import { shareSession } from './share.js';
import { openSocket } from './socket.js';

const game = page.game.key;
const rows = document.getElementById('board-rows');
const empty = document.getElementById('board-empty');
let view = 'daily';
let date = null;
let lastDaily = [];
let seen = new Set();
let offset = 0;  // the first row's place on the board: the page shown
let total = 0;
let mine = null;  // the player's own row (GET answer's "me")
// What sharing that row last gave ('copied', 'share_failed'): the line is drawn anew
// whenever the board changes, and the player must still see what the tap did.
let shared = null;
const PAGE = 100;
const unfinished = document.getElementById('board-unfinished');
const unfinishedRows = document.getElementById('board-unfinished-rows');

const time = (ms) => (ms == null ? '–' : clock(ms));
let closed = false;  // a closed day: each row links to its replay
function watch(e) {
  const a = document.createElement('a');
  a.href = `/replay/${e.session}/`;
  a.textContent = e.player + mark(e);
  a.title = t('watch_game');
  return a;
}
// A win's fair-play mark beside the name: verified, or under review (docs/rules.md).
const mark = (e) => (!e.won ? '' : e.verified ? ' ✓' : e.review === 'pending' ? ` (${t('under_review')})` : '');
const DAILY = [
  ['rank', (e) => e.rank], ['player', (e) => (closed && e.session ? watch(e) : e.player + mark(e))],
  ...(page.game.has_score ? [['score', (e) => e.score ?? '']] : []),
  ['time', (e) => time(e.time_ms)], ['active_time', (e) => time(e.active_ms)],
  ['moves', (e) => e.moves ?? ''], ['cards_up', (e) => e.cards_up ?? ''],
];
const only = { verified: document.getElementById('only-verified'), clean: document.getElementById('only-clean') };

// The filters show a board of their own: ranks counted again among the wins they keep.
function filtered(entries) {
  const keep = entries.filter((e) => (!only.verified.checked || (e.won && e.verified))
    && (!only.clean.checked || (e.won && e.clean)));
  return keep.length === entries.length ? entries : keep.map((e, i) => ({ ...e, rank: i + 1 }));
}
const UNFINISHED = [
  ['player', (e) => (closed ? watch(e) : e.player)], ['status', (e) => t('status_' + e.status)],
  ['moves', (e) => e.moves ?? ''], ['cards_up', (e) => e.cards_up ?? ''],
];
const ALL_TIME = [
  ['rank', (e) => e.rank], ['player', (e) => e.player], ['wins', (e) => e.wins],
  ['played', (e) => e.played], ['best_time', (e) => time(e.best_time_ms)], ['best_streak', (e) => e.best_streak ?? ''],
];

function fill(body, cols, entries, highlight) {
  body.replaceChildren();
  for (const e of entries) {
    const tr = document.createElement('tr');
    const key = `${e.player}|${e.rank}|${e.time_ms}|${e.won}`;
    if (highlight && !seen.has(key)) tr.className = 'fresh';
    if (mine && e.session === mine.session) tr.classList.add('me');
    for (const [, get] of cols) {
      const td = document.createElement('td');
      const value = get(e);
      if (value instanceof Node) td.append(value); else td.textContent = value;
      tr.append(td);
    }
    tr.dataset.player = e.player;
    body.append(tr);
  }
}

function head(table, cols) {
  table.querySelector('thead tr').replaceChildren(...cols.map(([key]) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(key);
    return th;
  }));
}

function draw(entries, highlight) {
  const daily = view === 'daily';
  const cols = daily ? DAILY : ALL_TIME;
  head(document.getElementById('board'), cols);
  const wins = daily ? entries.filter((e) => e.won) : entries;
  const rest = daily ? entries.filter((e) => !e.won) : [];
  fill(rows, cols, wins, highlight);
  empty.hidden = wins.length > 0 || offset > 0;
  unfinished.hidden = rest.length === 0;
  head(unfinished.querySelector('table'), UNFINISHED);
  fill(unfinishedRows, UNFINISHED, rest, highlight);
  if (daily) seen = new Set(entries.map((e) => `${e.player}|${e.rank}|${e.time_ms}|${e.won}`));
  drawMine();
  drawPager();
}

// The player's own line, pinned above the board: a rank for a win, else the status.
function drawMine() {
  const line = document.getElementById('board-me');
  line.hidden = view !== 'daily' || !mine;
  if (line.hidden) return;
  const text = document.createElement('span');
  text.textContent = mine.won && mine.rank
    ? t('you_ranked', { rank: mine.rank, time: time(mine.time_ms), moves: mine.moves })
    : t('you_unfinished', { status: t('status_' + mine.status), up: mine.cards_up });
  // The player's own result, shared from here as from the win panel (share.js).
  const share = document.createElement('button');
  share.type = 'button';
  share.id = 'board-share';
  share.textContent = t(shared ?? 'share');
  share.addEventListener('click', async () => {
    const how = await shareSession(mine.session);
    if (how === 'copied' || how === 'failed') {
      shared = how === 'copied' ? 'copied' : 'share_failed';
      const now = document.getElementById('board-share');  // this one, or its redraw
      if (now) now.textContent = t(shared);
    }
  });
  line.replaceChildren(text, ' ', share);
}

function drawPager() {
  const pager = document.getElementById('board-pager');
  pager.hidden = view !== 'daily' || total <= PAGE;
  document.getElementById('board-prev').disabled = offset === 0;
  document.getElementById('board-next').disabled = offset + PAGE >= total;
  document.getElementById('board-page').textContent = t('board_rows', {
    first: total ? offset + 1 : 0, last: Math.min(total, offset + PAGE), total });
}

function showDaily(entries, live) {
  lastDaily = entries;
  if (view === 'daily') draw(filtered(entries), live);
}

async function poll() {
  try {
    const r = await api.leaderboard(game, date, offset);
    mine = r.me ?? null;
    closed = Boolean(r.closed);
    total = r.total ?? (r.entries || []).length;
    showDaily(r.entries || [], true);
    if (typeof r.playing === 'number') setPlaying(r.playing);
  } catch { /* keep the last table */ }
}

function setPlaying(n) { document.getElementById('board-playing').textContent = ' · ' + t('playing_now', { n }); }

async function start() {
  try { await api.me(); } catch { /* cookies only */ }
  if (page.date) date = page.date;  // a past day's board (?date=YYYY-MM-DD)
  else {
    try {
      const d = await api.daily();
      date = (d.deals.find((x) => x.game === game) || d).date;
    } catch {
      date = new Date().toISOString().slice(0, 10);
    }
  }
  document.getElementById('board-date').textContent = date;
  draw([], false);
  await poll();
  let pollTimer = setInterval(poll, 5000);
  openSocket(`/ws/leaderboards/${game}/${date}/`, {
    onOpen() { clearInterval(pollTimer); pollTimer = 0; poll(); },
    onClose() { if (!pollTimer) pollTimer = setInterval(poll, 5000); },
    onMessage(msg) {
      // The socket carries the first page; another page is polled.
      if (msg.type === 'leaderboard') { if (offset === 0) showDaily(msg.entries || [], true); else poll(); }
      else if (msg.type === 'presence') setPlaying(msg.playing);
    },
  });
  document.body.dataset.ready = '1';
}

function tab(which) {
  view = which;
  document.getElementById('tab-daily').setAttribute('aria-selected', String(which === 'daily'));
  document.getElementById('tab-all').setAttribute('aria-selected', String(which === 'all'));
  if (which === 'daily') { draw(filtered(lastDaily), false); return; }
  api.allTime(game).then((r) => draw(r.entries || [], false), () => draw([], false));
}
document.getElementById('tab-daily').addEventListener('click', () => tab('daily'));
document.getElementById('board-prev').addEventListener('click', () => { offset = Math.max(0, offset - PAGE); poll(); });
document.getElementById('board-next').addEventListener('click', () => { offset += PAGE; poll(); });
document.getElementById('tab-all').addEventListener('click', () => tab('all'));
for (const box of Object.values(only)) box.addEventListener('change', () => { if (view === 'daily') draw(filtered(lastDaily), false); });

start();
