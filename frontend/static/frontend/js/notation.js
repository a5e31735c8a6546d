// Move tokens for a gesture the server did not list as legal, so that the server can say
// why it refuses it (docs/api.md, Move notation).  Legal gestures always use the listed
// token.  The names come from the game's own declaration, in the page's meta.

function pileToken(names, name, asDest) {
  const [kind, rest] = name.split(':');
  if (kind === 'foundation') {
    if (asDest) return 'h';
    return names.foundation_from === null ? null : names.foundation_from.replace('{suit}', rest.toLowerCase());
  }
  if (kind === 'tableau') return names.columns[Number(rest)] ?? null;
  if (kind === 'cell') return 'abcd'[Number(rest)];
  if (kind === 'waste' && !asDest) return 'w';
  return null;
}

export function tokenFor(meta, from, to, count) {
  const a = pileToken(meta.notation, from, false);
  const b = pileToken(meta.notation, to, true);
  if (!a || !b) return null;
  if (from.startsWith('foundation') && to.startsWith('foundation')) return null;
  return a + b + (count > 1 && !meta.single ? 'v' + count : '');
}
