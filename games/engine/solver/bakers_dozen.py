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
  and each of those is home already or buried under it in the same column.
"""

from __future__ import annotations

from ..base import Game
from ..piles import FOUNDATION
from .search import disorder

BMove = tuple[int, int, int, int]
State = tuple[tuple[bytes, ...], tuple[int, ...]]


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
        self.dead_at_start = self.dead(state)
        return state

    def dead(self, s: State) -> bool:
        cols, found = s
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
        out: list[tuple[tuple[BMove, ...], State]] = []
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
                out.append(self._child(s, (i, FOUNDATION + (x & 3), 1, x)))
            if len(c) == 1:
                continue
            for j in by_rank.get((x >> 2) + 1, ()):
                out.append(self._child(s, (i, j, 1, x)))
        dead = self.dead
        return [e for e in out if not dead(e[1])]

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
                if found[x & 3] != r or r > low:
                    break
                found[x & 3] += 1
                c = c[:-1]
                edge.append((i, FOUNDATION + (x & 3), 1, x))
                moved = True
                low = min(found)
            cols[i] = c


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

