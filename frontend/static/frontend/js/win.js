// The win panel: the game's figures, the deal's id to copy, and the ways on.
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
  dlg.showModal();
  announce(t('won'));
}

// Verified, or under review and why, in one line (docs/rules.md, "Fair play").
export function showReview(st) {
  const r = st.s.review;
  const line = $('win-review');
  line.hidden = !st.s.ranked || !r;
  if (line.hidden) return;
  if (r.verified === null) line.textContent = t('review_checking');
  else if (r.verified) line.textContent = t('review_verified');
  else line.textContent = t('review_pending', { why: r.reasons.join('; ') });
}

export function copyDeal(st) {
  const id = dealId(st.s);
  const done = () => { $('win-copy').textContent = t('copied'); announce(t('copied')); };
  if (navigator.clipboard) navigator.clipboard.writeText(id).then(done, done); else done();
}
