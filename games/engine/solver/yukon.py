"""Yukon for the search framework, every card known (a hint while a card is face down
searches samples of what the player could see: :mod:`.sampling`).

State: ``(cols, downs, found)``: the 7 columns as ``bytes`` (deepest card first), their
face-down counts and the foundation counts.  A step is one move of the game followed by
the cards that go up by themselves.  No rule depends on where a column stands, so the key
is the columns sorted (with their face-down counts); the foundations follow from them, as
every card not on the table is on its foundation.

Pruning (all of it keeps "unsolvable" a proof):

* a card goes up by itself once both suits of the other colour hold the rank below it (an
  ace at once): nothing could ever land on it again, it is the top of its column, and any
  line that leaves it there plays as well without it -- a group it would have topped
  moves with the same first card, a move onto the card it covers comes sooner, and the
  card under it turns up sooner.  (Not a two before the aces of the other colour: in
  Yukon an ace may head a group, and a two is a place to put it.)  Foundation cards never
  come back, so the card is never wanted again;
* a king's group goes into the first empty column only: the empty columns are alike;
* a whole column headed by a king with nothing under it never moves into an empty
  column: that only swaps two columns.
"""

from __future__ import annotations

from ..game import Game
from ..piles import FOUNDATION, Move
from .search import disorder, replay_tokens

State = tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, ...]]

# The two suits of the other colour, per suit (C D H S).
OTHER = ((1, 2), (0, 3), (0, 3), (1, 2))
KING = 12

# Weight sets tried in turn, each up to a number of states (see search.portfolio): each
# wins deals the others lose in a few thousand positions.
SCHEDULE = (
    ((2, 4, 1, 2), 4_000),
    ((1, 8, 1, 0), 4_000),
    ((1, 5, 0, 2), 4_000),
    ((1, 5, 1, 1), 8_000),
)


class YukonDomain:
    # Weights: cards not up, face-down cards, cards lying on a lower card of their suit,
    # face-up cards lying on a card they do not build on.
    weights = (2, 4, 1, 2)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.initial_moves: tuple[Move, ...] = ()
        self._colinfo: dict[bytes, tuple[int, int]] = {}

    def initial(self) -> State:
        g = self.game
        cols = [bytes(p) for p in g.tab]
        downs = list(g.down)
        found = list(g.found)
        edge: list[Move] = []
        _autoplay(cols, downs, found, edge)
        self.initial_moves = tuple(edge)
        return tuple(cols), tuple(downs), tuple(found)

    def key(self, s: State) -> tuple[bytes, ...]:
        return tuple(sorted(bytes((64 + d,)) + c for c, d in zip(s[0], s[1], strict=True)))

    def is_won(self, s: State) -> bool:
        return sum(s[2]) == 52

    def heuristic(self, s: State) -> int:
        cols, downs, found = s
        info = self._colinfo
        blocked = loose = 0
        for c, d in zip(cols, downs, strict=True):
            if not c:
                continue
            k = bytes((d,)) + c
            v = info.get(k)
            if v is None:
                v = info[k] = _column_info(c, d)
            blocked += v[0]
            loose += v[1]
        wl, wd, wb, wo = self.weights
        return wl * (52 - sum(found)) + wd * sum(downs) + wb * blocked + wo * loose

    def successors(self, s: State) -> list[tuple[tuple[Move, ...], State]]:  # noqa: C901  (the search's inner loop, once per node: kept in one frame)
        cols, downs, found = s
        # Where each face-up card lies: (column, index).
        where: dict[int, tuple[int, int]] = {}
        empty = -1
        for i, c in enumerate(cols):
            if not c:
                if empty < 0:
                    empty = i
                continue
            for k in range(downs[i], len(c)):
                where[c[k]] = (i, k)
        out: list[tuple[tuple[Move, ...], State]] = []
        for i, c in enumerate(cols):  # a top card up
            if c:
                x = c[-1]
                if found[x & 3] == x >> 2:
                    out.append(self._child(s, (i, FOUNDATION + (x & 3), 1)))
        for j, q in enumerate(cols):  # a group onto a column: headed by a card that fits
            if not q:
                continue
            r, su = q[-1] >> 2, q[-1] & 3
            if r == 0:
                continue
            for t in OTHER[su]:
                at = where.get((r - 1) * 4 + t)
                if at is None or at[0] == j:
                    continue
                i, k = at
                out.append(self._child(s, (i, j, len(cols[i]) - k)))
        if empty >= 0:  # a king's group into the first empty column
            for t in range(4):
                at = where.get(KING * 4 + t)
                if at is None:
                    continue
                i, k = at
                if k == 0:
                    continue  # the whole column: a swap
                out.append(self._child(s, (i, empty, len(cols[i]) - k)))
        return out

    def tokens(self, path: list[tuple[Move, ...]]) -> list[str]:
        return replay_tokens(self.game, self.initial_moves, path)

    def _child(self, s: State, m: Move) -> tuple[tuple[Move, ...], State]:
        cols = list(s[0])
        downs = list(s[1])
        found = list(s[2])
        src, dst, k = m
        c = cols[src]
        if dst >= FOUNDATION:
            found[dst - FOUNDATION] += 1
        else:
            cols[dst] += c[-k:]
        c = cols[src] = c[:-k]
        if downs[src] and downs[src] == len(c):
            downs[src] -= 1
        edge = [m]
        _autoplay(cols, downs, found, edge)
        return tuple(edge), (tuple(cols), tuple(downs), tuple(found))


def _autoplay(cols: list[bytes], downs: list[int], found: list[int], edge: list[Move]) -> None:
    """Send up every top card that nothing could land on any more (see the module's
    docstring), until none is left."""
    moved = True
    while moved:
        moved = False
        for i, c in enumerate(cols):
            while c:
                x = c[-1]
                r, su = x >> 2, x & 3
                a, b = OTHER[su]
                if found[su] != r or (r and (found[a] < r or found[b] < r)):
                    break
                found[su] += 1
                c = c[:-1]
                if downs[i] and downs[i] == len(c):
                    downs[i] -= 1
                edge.append((i, FOUNDATION + su, 1))
                moved = True
            cols[i] = c


def _column_info(c: bytes, down: int) -> tuple[int, int]:
    """(cards lying on a lower card of their suit, face-up cards lying on a face-up card
    they do not build on) in one column."""
    loose = 0
    for k in range(down + 1, len(c)):
        x, y = c[k], c[k - 1]
        if (y >> 2) != (x >> 2) + 1 or ((x & 3) in (1, 2)) == ((y & 3) in (1, 2)):
            loose += 1
    return disorder(c), loose
