"""Baker's Dozen for the search framework.

State: ``(cols, found)`` with 13 columns as ``bytes`` (deepest card first) and the
foundation counts.  Columns are never refilled, so where a column stands does not matter:
the key is the sorted columns.

Pruning (all of it keeps "unsolvable" a proof):

* a card goes up by itself once every card one rank lower is home: nothing left on the
  table could ever be built on it (aces always: the engine sends them up itself);
* the only card of a column never moves onto another column: alone it blocks nothing,
  on another column it covers a card, and whatever can be done after the move can be
  done without it (the lone card plays the part of the new top of the other column);
* a position is dropped as dead when some card lies above a lower card of its own suit
  in its column and every card it could land on is gone: it cannot go up before that
  lower card, which cannot leave before it, so it must go onto a card one rank higher --
  and each of those is home already or buried under it in the same column;
* a card goes up by itself, too, once every card two ranks lower is home: each card one
  rank lower still out can then go up the moment it is free, and it loses nothing by
  doing so rather than landing on a card (nothing two ranks lower is left to land on it),
  so no card ever needs one of its rank as a place to land.  The same holds when the
  ones that cannot go up yet are the bottom cards of their columns, which never move
  onto another column (see above);
* a position is dropped as dead, before it is expanded, when some card can never move.
  Start from every card on the table and keep striking out cards that might move: the
  top card of what is left of a column is struck out when it could go up (no lower card
  of its suit is left among the cards not struck out) or when it could land somewhere
  (a card one rank higher, not home, that is not below a card left in its column; a
  column's bottom card never lands anywhere).  What is left when nothing more can be
  struck out can never move: the first of those cards to move would need a lower card of
  its suit to be home, or a place to land, and each of those lies among (or below) cards
  that have not moved yet.
"""

from __future__ import annotations

from ..game import Game
from ..piles import FOUNDATION
from .search import disorder

BMove = tuple[int, int, int, int]
State = tuple[tuple[bytes, ...], tuple[int, ...]]

# Weight sets tried in turn, each up to a number of states (see search.portfolio).
SCHEDULE = (((2, 3, 1), 30_000), ((1, 1, 1), 30_000), ((3, 1, 2), 30_000), ((1, 3, 0), 30_000))


class BakersDozenDomain:
    # Weights: cards left, cards above a lower card, depth of the next cards needed.
    weights = (2, 3, 1)

    def __init__(self, game: Game) -> None:
        self.game = game
        self._colinfo: dict[bytes, int] = {}
        self._needs: dict[bytes, tuple[tuple[int, ...], ...]] = {}

    def initial(self) -> State:
        g = self.game
        cols = [bytes(p) for p in g.tab]
        found = list(g.found)
        auto: list[BMove] = []
        _autoplay(cols, found, auto)
        self.initial_moves = tuple(auto)
        state = (tuple(cols), tuple(found))
        self.dead_at_start = self.dead(state) or _stuck(*state)
        return state

    def dead(self, s: State) -> bool:
        return self._dead(s[0], s[1])

    def _dead(self, cols: tuple[bytes, ...], found: tuple[int, ...]) -> bool:
        needs = self._needs
        for c in cols:
            if not c:
                continue
            lst = needs.get(c)
            if lst is None:
                lst = needs[c] = _needs(c)
            for targets in lst:
                for t in targets:
                    if found[t & 3] <= t >> 2:
                        break
                else:
                    return True
        return False

    def key(self, s: State) -> tuple[bytes, ...]:
        return tuple(sorted(s[0]))

    def is_won(self, s: State) -> bool:
        return sum(s[1]) == 52

    def heuristic(self, s: State) -> int:
        cols, found = s
        info = self._colinfo
        blocked = 0
        depth = 0
        for c in cols:
            if not c:
                continue
            b = info.get(c)
            if b is None:
                b = info[c] = disorder(c)
            blocked += b
            n = len(c)
            for i in range(n):
                x = c[i]
                if x >> 2 == found[x & 3]:
                    depth += n - 1 - i
        wl, wb, wd = self.weights
        return wl * (52 - sum(found)) + wb * blocked + wd * depth

    def successors(self, s: State) -> list[tuple[tuple[BMove, ...], State]]:
        cols, found = s
        if _stuck(cols, found):
            # Checked here rather than on each child: it costs a few cheap expansions,
            # and most children are never expanded.
            return []
        out: list[tuple[tuple[BMove, ...], State]] = []
        dead = self._dead
        # Tops by rank: a card may go onto any top one rank higher.
        by_rank: dict[int, list[int]] = {}
        for j, c in enumerate(cols):
            if c:
                by_rank.setdefault(c[-1] >> 2, []).append(j)
        for i, c in enumerate(cols):
            if not c:
                continue
            x = c[-1]
            if found[x & 3] == x >> 2:
                e = self._child(s, (i, FOUNDATION + (x & 3), 1, x))
                if not dead(*e[1]):
                    out.append(e)
            if len(c) == 1:
                continue
            targets = by_rank.get((x >> 2) + 1)
            if not targets:
                continue
            rest = c[:-1]
            y = rest[-1]
            if found[y & 3] == y >> 2:
                for j in targets:
                    e = self._child(s, (i, j, 1, x))
                    if not dead(*e[1]):
                        out.append(e)
                continue
            # Nothing can go up after this move (the parent had nothing left to send up
            # and the card uncovered cannot go), and only two columns change: only they
            # need the dead test.
            for j in targets:
                d = cols[j] + bytes((x,))
                if dead((rest, d), found):
                    continue
                new = list(cols)
                new[i] = rest
                new[j] = d
                out.append((((i, j, 1, x),), (tuple(new), found)))
        return out

    def tokens(self, path: list[tuple[BMove, ...]]) -> list[str]:
        g = self.game.copy()
        out: list[str] = []
        for edge in [self.initial_moves, *path]:
            for src, dst, n, card in edge:
                if dst >= FOUNDATION and card >> 2 == 0:
                    continue  # the engine sent this ace up inside the previous move
                m = (src, dst, n)
                out.append(g.notation(m))
                g.apply(m)
        return out

    def _child(self, s: State, m: BMove) -> tuple[tuple[BMove, ...], State]:
        cols = list(s[0])
        found = list(s[1])
        src, dst, _, card = m
        cols[src] = cols[src][:-1]
        if dst < FOUNDATION:
            cols[dst] += bytes((card,))
        else:
            found[card & 3] += 1
        edge = [m]
        _autoplay(cols, found, edge)
        return tuple(edge), (tuple(cols), tuple(found))


def _autoplay(cols: list[bytes], found: list[int], edge: list[BMove]) -> None:
    moved = True
    while moved:
        moved = False
        low = min(found)
        for i, c in enumerate(cols):
            while c:
                x = c[-1]
                r = x >> 2
                if found[x & 3] != r or (r > low + 1 and not _spare(cols, found, r)):
                    break
                found[x & 3] += 1
                c = c[:-1]
                cols[i] = c
                edge.append((i, FOUNDATION + (x & 3), 1, x))
                moved = True
                low = min(found)
            cols[i] = c


def _spare(cols: list[bytes], found: list[int], r: int) -> bool:
    """True when no card of rank ``r - 1`` will ever need to land on a card of rank ``r``:
    each is home, free to go home the moment it is uncovered, or the bottom card of its
    column (which never moves onto another column)."""
    need = [(r - 1) * 4 + t for t in range(4) if found[t] < r - 1]
    if not need:
        return True
    bottoms = {c[0] for c in cols if c}
    return all(y in bottoms for y in need)


def _needs(c: bytes) -> tuple[tuple[int, ...], ...]:
    """For each card of the column lying above a lower card of its own suit: the cards it
    could still land on (the four one rank higher, less those buried under it here)."""
    out: list[tuple[int, ...]] = []
    for i in range(1, len(c)):
        x = c[i]
        r, su = x >> 2, x & 3
        below = c[:i]
        if any(y & 3 == su and y >> 2 < r for y in below):
            if r == 12:
                out.append(())
            else:
                out.append(tuple(t for t in range((r + 1) * 4, (r + 2) * 4) if t not in below))
    return tuple(out)


def _stuck(cols: tuple[bytes, ...], found: tuple[int, ...]) -> bool:
    """True when some card can never move (see the module docstring).  Below each
    column's ``left[i]`` every card is still left; the top of those is struck out in turn
    until none can be, in passes over the columns until a pass strikes out nothing.  A
    pass reads what it has struck out so far, so the last pass reads a fixed set."""
    col = [0] * 52
    pos = [0] * 52
    left = []
    for i, c in enumerate(cols):
        for j, x in enumerate(c):
            col[x] = i
            pos[x] = j
        left.append(len(c) - 1)
    # The lowest rank of each suit still left: every higher card of it is held back.
    low = list(found)
    changed = True
    while changed:
        changed = False
        for i, c in enumerate(cols):
            k = left[i]
            while k >= 0:
                x = c[k]
                r = x >> 2
                su = x & 3
                if r != low[su]:
                    if not k or r == 12:
                        break
                    for t in range(r * 4 + 4, r * 4 + 8):
                        if found[t & 3] <= r + 1 and pos[t] >= left[col[t]]:
                            break
                    else:
                        break
                k -= 1
                left[i] = k
                changed = True
                if r == low[su]:
                    y = x + 4
                    while y < 52 and pos[y] > left[col[y]]:
                        y += 4
                    low[su] = y >> 2
        if max(left) < 0:
            return False
    return True
