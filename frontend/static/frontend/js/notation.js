// Move tokens for a gesture the server did not list as legal, so that the server can say
// why it refuses it (SPEC 9 notation).  Legal gestures always use the listed token.
const BAKERS = '123456789tjqk';

function pileToken(key, name, asDest) {
  const [kind, rest] = name.split(':');
  if (kind === 'foundation') {
    if (asDest) return 'h';
    if (key === 'freecell') return 'h';
    if (key === 'bakers-dozen') return null;
    return 'f' + rest.toLowerCase();
  }
  if (kind === 'tableau') return key === 'bakers-dozen' ? BAKERS[Number(rest)] : String(Number(rest) + 1);
  if (kind === 'cell') return 'abcd'[Number(rest)];
  if (kind === 'waste' && !asDest) return 'w';
  return null;
}

export function tokenFor(meta, from, to, count) {
  const a = pileToken(meta.key, from, false);
  const b = pileToken(meta.key, to, true);
  if (!a || !b) return null;
  if (from.startsWith('foundation') && to.startsWith('foundation')) return null;
  return a + b + (count > 1 && !meta.single ? 'v' + count : '');
}
