// The win panel: the game's figures, the medal against par, the deal's id to copy, the
// result to share, and the ways on.
import * as api from './api.js';
import { startCountdown } from './countdown.js';
import { shareSession } from './share.js';
import { announce, clock, t } from './i18n.js';

const $ = (id) => document.getElementById(id);

// The deal as a player names it: FreeCell's number, or the deal's public id.
export function dealId(s) { return String(s.deal_number ?? s.deal); }

export function showWin(st) {
  const s = st.s;
  const dlg = $('win');
  if (dlg.open || st.looked) return;
  $('win-time').textContent = clock(s.time_ms ?? st.elapsed);
  $('win-active').textContent = s.active_ms == null ? '–' : clock(s.active_ms);
  showReview(st);
  $('win-moves').textContent = s.moves;
  $('win-up').textContent = s.cards_up;
  $('win-score-row').hidden = s.score === null;
  $('win-score').textContent = s.score ?? '';
  $('win-deal').textContent = dealId(s);
  $('win-medal-row').hidden = !s.medal;
  $('win-medal').textContent = s.medal
    ? t('medal_par', { medal: t('medal_' + s.medal), par: s.par }) : '';
  $('win-board').hidden = !s.date;  // a daily's board; other deals have none
  $('win-share').onclick = () => shareResult(st);
  $('win-watch').href = `/replay/${s.id}/`;
  $('win-rank-row').hidden = true;
  if (s.ranked && s.date) showRank(s, 0);
  if (s.date && !st.countdown) {
    api.daily().then((d) => { st.countdown = startCountdown($('win-next'), d.next_at); }, () => {});
  }
  $('win-share').textContent = t('share');
  dlg.showModal();
  announce(t('won'));
}

// Verified, or under review and why, in one line (docs/rules.md, "Fair play").
export function showReview(st) {
  const r = st.s.review;
  const line = $('win-review');
  line.hidden = !st.s.ranked || !r;
  if (line.hidden) return;
  if (r.state === 'disqualified') line.textContent = t('review_disqualified');
  else if (r.verified === null) line.textContent = t('review_checking');
  else if (r.verified) line.textContent = t('review_verified');
  else line.textContent = t('review_pending', { why: r.reasons.join('; ') });
}

export function copyDeal(st) {
  const id = dealId(st.s);
  const done = () => { $('win-copy').textContent = t('copied'); announce(t('copied')); };
  if (navigator.clipboard) navigator.clipboard.writeText(id).then(done, done); else done();
}

// Share: the server's words for the result (share.js), said on the button.
export async function shareResult(st) {
  const button = $('win-share');
  const how = await shareSession(st.s.id);
  if (how === 'copied' || how === 'failed') {
    const key = how === 'copied' ? 'copied' : 'share_failed';
    button.textContent = t(key);
    announce(t(key));
  }
}

// The win's rank on today's board: the board's own row for this player, once the win is
// scored (a worker does it within a moment of the win, so it is asked again a few times).
async function showRank(s, tries) {
  try {
    const r = await api.leaderboard(s.game, s.date);
    if (r.me && r.me.session === s.id && r.me.rank) {
      $('win-rank').textContent = t('rank_of', { rank: r.me.rank, total: r.total });
      $('win-rank-row').hidden = false;
      return;
    }
  } catch { /* the panel does without */ }
  if (tries < 4) setTimeout(() => showRank(s, tries + 1), 800 * (tries + 1));
}
