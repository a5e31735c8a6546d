// The archive: a month of past dailies of one game (GET /api/archive/<game>/?month=), each
// a link to play it again (practice) with the player's own best result beside it.
import * as api from './api.js';
import { page, t } from './i18n.js';

const $ = (id) => document.getElementById(id);
let month = page.today.slice(0, 7);

function shift(m, by) {
  const [y, mo] = m.split('-').map(Number);
  const d = new Date(Date.UTC(y, mo - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

function result(mine) {
  if (!mine) return t('ar_unplayed');
  if (mine.status === 'won') return mine.medal ? t('medal_' + mine.medal) : t('status_won');
  return t('status_' + mine.status) + ' · ' + t('ar_cards_up', { n: mine.cards_up });
}

async function show() {
  const list = $('ar-days');
  list.replaceChildren();
  $('ar-month').textContent = new Date(month + '-01T12:00:00Z').toLocaleDateString(page.lang, { month: 'long', year: 'numeric' });
  $('ar-next').disabled = month >= page.today.slice(0, 7);
  let r;
  try { r = await api.archive(page.game.key, month); } catch (e) { $('ar-empty').hidden = false; $('ar-empty').textContent = e.message; return; }
  $('ar-empty').hidden = r.days.length > 0;
  for (const d of r.days) {
    const li = document.createElement('li');
    li.className = 'ar-day ' + (d.mine ? d.mine.status : 'unplayed') + (d.mine && d.mine.medal ? ' ' + d.mine.medal : '');
    li.dataset.date = d.date;
    const play = document.createElement('a');
    play.href = `/play/${page.game.key}/?deal=${encodeURIComponent(d.deal)}`;
    play.textContent = d.date.slice(8);
    play.setAttribute('aria-label', t('ar_play', { date: d.date }));
    const what = document.createElement('span');
    what.className = 'ar-result';
    what.textContent = result(d.mine) + (d.par ? ' · ' + t('ar_par', { par: d.par }) : '');
    const board = document.createElement('a');
    board.href = `/leaderboards/${page.game.key}/?date=${d.date}`;
    board.className = 'ar-board';
    board.textContent = t('ar_board');
    li.append(play, what, board);
    list.append(li);
  }
  document.body.dataset.ready = '1';
}

$('ar-prev').addEventListener('click', () => { month = shift(month, -1); show(); });
$('ar-next').addEventListener('click', () => { month = shift(month, 1); show(); });
show();
