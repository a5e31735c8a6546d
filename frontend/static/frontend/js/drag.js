// The cards being dragged: a "ghost" of them follows the pointer above the table, and the
// pile under the pointer is outlined.  Only the page's look; which move a drop makes is
// play.js's business.
let ghost = null;

// The pile under a point of the screen, by its name ("tableau:3"), or null.
export function hitPile(x, y) {
  const el = document.elementFromPoint(x, y);
  const p = el && el.closest('#table .pile');
  return p ? p.dataset.pile : null;
}

// Copies of the cards from `index` up in pile `name`, where they lie now.
export function liftGhost(root, name, index) {
  const els = [...root.querySelectorAll(`.card[data-pile="${name}"]`)].filter((c) => Number(c.dataset.index) >= index);
  ghost = document.createElement('div');
  ghost.className = 'ghost';
  ghost.style.setProperty('--cw', root.style.getPropertyValue('--cw'));
  ghost.style.setProperty('--ch', root.style.getPropertyValue('--ch'));
  ghost.origin = [];
  for (const c of els) {
    const r = c.getBoundingClientRect();
    const clone = c.cloneNode(true);
    clone.removeAttribute('role'); clone.removeAttribute('aria-label');
    clone.classList.remove('selected', 'hint-from');
    clone.style.left = r.left + 'px'; clone.style.top = r.top + 'px';
    ghost.append(clone);
    ghost.origin.push([r.left, r.top]);
  }
  document.body.append(ghost);
}

export function moveGhost(root, dx, dy, x, y) {
  if (!ghost) return;
  ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = hitPile(x, y);
  root.querySelectorAll('.pile.over').forEach((p) => p.classList.remove('over'));
  if (over) root.querySelector(`.pile[data-pile="${over}"]`)?.classList.add('over');
}

// Where each dragged card is on the screen now, so the drop can animate from there.
export function ghostPositions() {
  const map = new Map();
  if (ghost) ghost.querySelectorAll('.card[data-card]').forEach((c) => map.set(c.dataset.card, c.getBoundingClientRect()));
  return map;
}

export function removeGhost() { if (ghost) { ghost.remove(); ghost = null; } }
