// The time left until the next dailies, counted down in the page, with the moment they
// open in the player's own time zone (the server gives it: GET /api/daily/ next_at; the
// day itself follows the site's daily time zone).
import { page, t } from './i18n.js';

const two = (n) => String(n).padStart(2, '0');

export function startCountdown(el, nextAt) {
  const opens = new Date(nextAt);
  if (Number.isNaN(opens.getTime())) return;
  const at = opens.toLocaleTimeString(page.lang, { hour: '2-digit', minute: '2-digit' });
  const tick = () => {
    const left = Math.max(0, Math.round((opens - Date.now()) / 1000));
    if (left === 0) {
      el.textContent = t('next_out');
      clearInterval(timer);
      return;
    }
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    el.textContent = t('next_in', { left: `${h}:${two(m)}:${two(s)}`, at });
  };
  const timer = setInterval(tick, 1000);
  tick();
  el.hidden = false;
  return timer;
}
