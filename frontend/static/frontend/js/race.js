// The live race beside a ranked daily: the Race button opens the board socket with ?race=1
// and the strip lists the others playing this daily now, as the server sends them once a
// second (docs/api.md, "race").  Only progress ever comes: there is nothing to hide here.
import { clock, t } from './i18n.js';
import { openSocket } from './socket.js';

const $ = (id) => document.getElementById(id);

function row(p) {
  const li = document.createElement('li');
  li.className = 'race-player' + (p.finished ? ' finished' : '');
  const name = document.createElement('strong');
  name.textContent = p.player;
  const progress = document.createElement('span');
  progress.textContent = t('race_row', { up: p.cards_up, moves: p.moves, time: clock(p.elapsed_ms) })
    + (p.finished ? ` · ${t('race_finished')}` : '');
  li.append(name, ' ', progress);
  return li;
}

// The players other than this table's own attempt, found by its session id.
function show(st, players) {
  const others = players.filter((p) => !st.s || p.session !== st.s.id);
  const list = $('race-list');
  list.replaceChildren(...others.map(row));
  $('race-empty').hidden = others.length > 0;
}

function open(st) {
  const { game, date } = st.s;
  $('race-empty').textContent = t('loading');
  st.race = openSocket(`/ws/leaderboards/${game}/${date}/?race=1`, {
    onMessage: (msg) => { if (msg.type === 'race') { $('race-empty').textContent = t('race_none'); show(st, msg.players); } },
    onClose: () => { $('race-empty').textContent = t('race_offline'); $('race-empty').hidden = false; },
  });
}

function close(st) {
  if (st.race) st.race.close();
  st.race = null;
  $('race-list').replaceChildren();
}

export function toggleRace(st) {
  const on = !st.race;
  if (on) open(st); else close(st);
  $('btn-race').setAttribute('aria-pressed', String(on));
  $('race').hidden = !on;
}

// Called with every state drawn: the race belongs to a ranked daily only, so a table that
// left it (another deal, a practice replay) closes the strip.
export function raceFits(st) {
  const fits = !!(st.s && st.s.ranked && st.s.date);
  $('btn-race').hidden = !fits;
  if (!fits && st.race) toggleRace(st);
}
