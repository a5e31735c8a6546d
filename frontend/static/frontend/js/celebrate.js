// The win's flourish: the cards leap off the foundations one after another and fall out
// of the window, under two seconds in all; any press or key ends it at once.  Then `done`
// (the win panel).  A player who asks for reduced motion goes straight to the panel.
import { cardEl } from './table.js';

const RANKS = 'KQJT98765432A';
const STAGGER = 30; // ms between two cards leaving
const FLIGHT = 900; // ms a card is in the air
let running = null;

export function celebrate(root, done) {
  if (running) return;
  const piles = [...root.querySelectorAll('.pile.foundation')];
  if (!piles.length || matchMedia('(prefers-reduced-motion: reduce)').matches) { done(); return; }
  const layer = document.createElement('div');
  layer.className = 'celebration';
  layer.setAttribute('aria-hidden', 'true');
  for (const v of ['--cw', '--ch']) layer.style.setProperty(v, root.style.getPropertyValue(v));
  document.body.append(layer);
  const animations = [];
  const w = window.innerWidth, h = window.innerHeight;
  // Thirteen rounds, the four kings first, so every foundation empties at the same pace.
  for (let k = 0; k < RANKS.length; k++) {
    piles.forEach((pile, f) => {
      const r = pile.getBoundingClientRect();
      const el = cardEl(RANKS[k] + pile.dataset.pile.slice(-1), false);
      el.removeAttribute('role');
      el.removeAttribute('aria-label');
      delete el.dataset.card;
      el.style.left = r.left + 'px';
      el.style.top = r.top + 'px';
      layer.append(el);
      // A throw up and to one side, then a fall past the window's bottom edge.
      const side = (f % 2 ? 1 : -1) * (0.25 + ((k * 7 + f * 3) % 10) / 16) * w;
      const rise = h * (0.15 + ((k * 5 + f) % 6) / 20);
      const frames = [];
      for (let i = 0; i <= 8; i++) {
        const p = i / 8;
        const y = -rise * 4 * p * (1 - p) + (h + 200 - r.top) * p * p;
        frames.push({ transform: `translate(${Math.round(side * p)}px, ${Math.round(y)}px) rotate(${Math.round(side / 8 * p)}deg)` });
      }
      const a = el.animate(frames, { duration: FLIGHT, delay: (k * piles.length + f) * STAGGER / 2.2, easing: 'linear', fill: 'backwards' });
      animations.push(a);
    });
  }
  const end = () => {
    if (running !== end) return;
    running = null;
    window.removeEventListener('pointerdown', end, true);
    window.removeEventListener('keydown', end, true);
    animations.forEach((a) => a.cancel());
    layer.remove();
    done();
  };
  running = end;
  window.addEventListener('pointerdown', end, true);
  window.addEventListener('keydown', end, true);
  Promise.all(animations.map((a) => a.finished)).then(end, () => {});
}
