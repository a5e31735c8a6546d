// A leaderboard: today's ranking of one game, kept live by its websocket (with a slow HTTP
// poll while the socket is down), and the all-time table.
import * as api from './api.js';
import { clock, page, t } from './i18n.js';
import { openSocket } from './socket.js';

const game = page.game.key;
const rows = document.getElementById('board-rows');
const empty = document.getElementById('board-empty');
let view = 'daily';
let date = null;
let lastDaily = [];
let seen = new Set();

const time = (ms) => (ms == null ? '–' : clock(ms));
// A win's fair-play mark beside the name: verified, or under review (docs/rules.md).
const mark = (e) => (!e.won ? '' : e.verified ? ' ✓' : e.review === 'pending' ? ` (${t('under_review')})` : '');
const DAILY = [
  ['rank', (e) => e.rank], ['player', (e) => e.player + mark(e)],
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
const ALL_TIME = [
  ['rank', (e) => e.rank], ['player', (e) => e.player], ['wins', (e) => e.wins],
  ['played', (e) => e.played], ['best_time', (e) => time(e.best_time_ms)], ['best_streak', (e) => e.best_streak ?? ''],
];

function draw(entries, highlight) {
  const cols = view === 'daily' ? DAILY : ALL_TIME;
  const head = document.querySelector('#board thead tr');
  head.replaceChildren(...cols.map(([key]) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(key);
    return th;
  }));
  rows.replaceChildren();
  empty.hidden = entries.length > 0;
  for (const e of entries) {
    const tr = document.createElement('tr');
    const key = `${e.player}|${e.rank}|${e.time_ms}|${e.won}`;
    if (highlight && !seen.has(key)) tr.className = 'fresh';
    for (const [, get] of cols) {
      const td = document.createElement('td');
      td.textContent = get(e);
      tr.append(td);
    }
    tr.dataset.player = e.player;
    rows.append(tr);
  }
  if (view === 'daily') seen = new Set(entries.map((e) => `${e.player}|${e.rank}|${e.time_ms}|${e.won}`));
}

function showDaily(entries, live) {
  lastDaily = entries;
  if (view === 'daily') draw(filtered(entries), live);
}

async function poll() {
  try {
    const r = await api.leaderboard(game, date);
    showDaily(r.entries || [], true);
    if (typeof r.playing === 'number') setPlaying(r.playing);
  } catch { /* keep the last table */ }
}

function setPlaying(n) { document.getElementById('board-playing').textContent = ' · ' + t('playing_now', { n }); }

async function start() {
  try { await api.me(); } catch { /* cookies only */ }
  try {
    const d = await api.daily();
    date = (d.deals.find((x) => x.game === game) || d).date;
  } catch {
    date = new Date().toISOString().slice(0, 10);
  }
  document.getElementById('board-date').textContent = date;
  draw([], false);
  await poll();
  let pollTimer = setInterval(poll, 5000);
  openSocket(`/ws/leaderboards/${game}/${date}/`, {
    onOpen() { clearInterval(pollTimer); pollTimer = 0; poll(); },
    onClose() { if (!pollTimer) pollTimer = setInterval(poll, 5000); },
    onMessage(msg) {
      if (msg.type === 'leaderboard') showDaily(msg.entries || [], true);
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
document.getElementById('tab-all').addEventListener('click', () => tab('all'));
for (const box of Object.values(only)) box.addEventListener('change', () => { if (view === 'daily') draw(filtered(lastDaily), false); });

start();
