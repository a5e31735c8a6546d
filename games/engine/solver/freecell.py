"""FreeCell for the search framework.

State: ``(cols, cells, found)`` with each column a ``bytes`` (deepest card first), the
occupied free cells as sorted ``bytes`` and the foundation counts as a tuple.  ``bytes``
because Python caches their hash and compares them with memcmp, which makes the canonical
key (the columns sorted, the cells sorted) cheap.  The foundations are implied by the
cards left, so the key leaves them out.

Moves are ``(src, dst, n, card)``: engine pile ids, except that a free cell is just
``CELL`` -- which cell holds a card only matters for the notation, and :meth:`tokens`
picks the positional letter when it replays the line on the engine.

Pruning (all of it keeps "unsolvable" a proof):

* cards go up by themselves when no card still on the table could ever need them as a
  place to land: a two or an ace always, otherwise when both foundations of the other
  colour hold the rank below (the cards that could sit on it are home for good), or two
  ranks below while the other suit of its colour holds three below (see ``_safe``);
* of several empty columns only the first is a destination (they are interchangeable);
* a whole column never moves into an empty column (the position would not change);
* supermoves into an empty column are offered as one card and as the longest run only:
  the other sizes are sequences of single-card moves, which are all offered.
"""

from __future__ import annotations

from typing import Final

from ..cards import RANK, RED
from ..game import Game
from ..piles import CELL, EMPTY, FOUNDATION
from .search import disorder

FMove = tuple[int, int, int, int]
State = tuple[tuple[bytes, ...], bytes, tuple[int, ...]]

# Final: compiled (games/engine/solver/native.py), these are constants, not lookups.
_FITS: Final = bytes(
    1 if RANK[o] == RANK[m] + 1 and RED[o] != RED[m] else 0 for m in range(52) for o in range(52)
)
# The two suits of the other colour, per suit (C D H S).
_OTHER: Final = ((1, 2), (0, 3), (0, 3), (1, 2))
# _ONTO[t]: the two cards that may land on ``t`` (one rank lower, the other colour).
_ONTO: Final = tuple(tuple(x for x in range(52) if _FITS[x * 52 + t]) for t in range(52))
_ONE: Final = tuple(bytes((x,)) for x in range(52))
_GAP: Final = bytes((255,))

# The first round: four weight sets, each up to 3,000 states (search.portfolio's runs, as
# solver.race runs them); a run that comes back goes on from where it stopped.  It wins
# about nine deals in ten.  On deals 1-200, 278k states in all with caps of 3000 (349k with
# 2000, 287k with 4000, 334k with 8000, 344k with 20000).
_WEIGHTS: Final = ((3, 2, 1, 2, 3), (3, 2, 1, 4, 6), (1, 1, 1, 1, 1), (3, 2, 0, 2, 3))
SCHEDULE: Final = tuple((w, 3_000) for w in _WEIGHTS)
# Then the race (solver.race): a best-first search with type-based exploration on the first
# weights (solver.typed) and a depth-first search on the last, in turns of 6,000 and 2,000
# states.  Two kinds of search, because each kind's slow deals are its own: on the 298
# deals of 1-10000 that took the old schedule (eight best-first runs one after another)
# over 8,000 states, best-first runs alone left 9-23 of them unsolved within 150,000
# states, the type-based ones 1-3 and the depth-first ones 18-21, and the two in turns
# none.  The type-based search has the larger share because it is the one a proof waits
# for (deal 11982: 93,832 states in all, against 127,069 for a race of three searches with
# a plain best-first one beside these two, which had slightly shorter tails).  Chosen on
# deals 1-10000 (bench/freecell_sweep.py); measured on fresh deals in bench/native.py.
RACE: Final = (("typed", _WEIGHTS[0], 3), ("depth", _WEIGHTS[3], 1))


class FreeCellDomain:
    # Heuristic weights: cards left, cards lying above a lower card, depth of the next
    # cards each suit needs, occupied cells, empty columns (a bonus).  Tuned on deals 1-1000.
    weights = (3, 2, 1, 2, 3)

    def __init__(self, game: Game) -> None:
        self.game = game
        # The game's own columns and cells: a FreeCell with fewer cells is the same search.
        self.ncols, self.ncells = game.columns, game.free_cells
        self._colinfo: dict[bytes, int] = {}  # column -> its disorder (heuristic)
        self._info: dict[bytes, int] = {}  # column -> the length of its top run

    # -- the framework's interface ---------------------------------------------------------
    def initial(self) -> State:
        g = self.game
        cols = [bytes(p) for p in g.tab[: self.ncols]]
        cells = bytearray(c for c in g.cells if c != EMPTY)
        found = list(g.found)
        auto: list[FMove] = []
        self._autoplay(cols, cells, found, auto)
        self.initial_moves = tuple(auto)  # safe moves before the search starts
        return (tuple(cols), bytes(sorted(cells)), tuple(found))

    def key(self, s: State) -> tuple[bytes, ...]:
        return (*sorted(s[0]), s[1])

    def is_won(self, s: State) -> bool:
        return sum(s[2]) == 52

    def heuristic(self, s: State) -> int:
        cols, cells, found = s
        info = self._colinfo
        blocked = 0
        empty = 0
        for c in cols:
            if not c:
                empty += 1
                continue
            b = info.get(c)
            if b is None:
                b = info[c] = disorder(c)
            blocked += b
        # The next card each suit needs, and how deep it lies: digging is the work left.
        # One search of all the columns joined (255 is no card) instead of one per column.
        depth = 0
        table = _GAP.join(cols)
        end = len(table)
        for su in range(4):
            x = found[su] * 4 + su
            if x < 52:
                i = table.find(x)
                if i >= 0:
                    j = table.find(255, i)
                    depth += (end if j < 0 else j) - 1 - i
        left = 52 - found[0] - found[1] - found[2] - found[3]
        wl, wb, wd, wc, we = self.weights
        return wl * left + wb * blocked + wd * depth + wc * len(cells) - we * empty

    def successors(self, s: State) -> list[tuple[tuple[FMove, ...], State]]:  # noqa: C901  (the search's inner loop, once per node: kept in one frame)
        cols, cells, found = s
        out: list[tuple[tuple[FMove, ...], State]] = []
        nfree = self.ncells - len(cells)
        ncols = self.ncols
        info = self._info
        # want[x]: the columns whose top card x (or a run headed by x) may go onto.
        want: dict[int, list[int]] = {}
        empties = 0
        first_empty = -1
        for j in range(ncols):
            c = cols[j]
            if c:
                for x in _ONTO[c[-1]]:
                    if x in want:
                        want[x].append(j)
                    else:
                        want[x] = [j]
            else:
                if first_empty < 0:
                    first_empty = j
                empties += 1
        limit_full = (nfree + 1) << empties
        limit_empty = (nfree + 1) << (empties - 1) if empties else 0
        # self._move each time, not a local alias: compiled, that is a direct call.

        # Cards that may go up now but were not safe to send automatically.
        for i in range(ncols):
            c = cols[i]
            if c:
                t = c[-1]
                if found[t & 3] == t >> 2:
                    out.append(self._move(s, i, FOUNDATION + (t & 3), 1, t))
        for x in cells:
            if found[x & 3] == x >> 2:
                out.append(self._move(s, CELL, FOUNDATION + (x & 3), 1, x))

        for i in range(ncols):
            c = cols[i]
            if not c:
                continue
            n = len(c)
            run = info.get(c)
            if run is None:
                run = info[c] = _run(c)
            lim = run if run < limit_full else limit_full
            for k in range(1, lim + 1):
                dsts = want.get(c[-k])
                if dsts is not None:
                    for j in dsts:
                        out.append(self._move(s, i, j, k, c[-k]))
            if first_empty >= 0 and n > 1:
                out.append(self._move(s, i, first_empty, 1, c[-1]))
                m = min(run, limit_empty, n - 1)
                if m > 1:
                    out.append(self._move(s, i, first_empty, m, c[-m]))
            if nfree:
                out.append(self._move(s, i, CELL, 1, c[-1]))

        for x in cells:
            for j in want.get(x, ()):
                out.append(self._move(s, CELL, j, 1, x))
            if first_empty >= 0:
                out.append(self._move(s, CELL, first_empty, 1, x))
        return out

    def tokens(self, path: list[tuple[FMove, ...]]) -> list[str]:
        """The line in the engine's notation, replayed on a copy so cells are positional."""
        g = self.game.copy()
        out: list[str] = []
        for edge in [self.initial_moves, *path]:
            for src, dst, n, card in edge:
                if src == CELL:
                    src = CELL + g.cells.index(card)
                if dst == CELL:
                    dst = CELL + g.cells.index(EMPTY)
                m = (src, dst, n)
                out.append(g.notation(m))
                g.apply(m)
        return out

    # -- helpers ---------------------------------------------------------------------------
    def _move(
        self, s: State, src: int, dst: int, n: int, card: int
    ) -> tuple[tuple[FMove, ...], State]:
        """The edge of one move and the position after it and the safe cards it frees.

        Every position of the search has already sent up its safe cards, so only a move to
        a foundation (the other suits' cards may be safe now) or the card a move uncovers
        can start more of them: the rest is checked cheaply and skipped."""
        cols_t, cells, found = s
        cols = list(cols_t)
        m = (src, dst, n, card)
        auto = False
        if src < CELL:
            c = cols[src]
            moving = c[-n:]
            cols[src] = c = c[:-n]
            if c:
                x = c[-1]
                auto = found[x & 3] == x >> 2 and _safe(x, found)
        else:
            cells = cells.replace(_ONE[card], b"", 1)
            moving = _ONE[card]
        if dst < CELL:
            cols[dst] += moving
        elif dst == CELL:
            cells = bytes(sorted(cells + moving))
        else:
            found = (*found[: card & 3], found[card & 3] + 1, *found[(card & 3) + 1 :])
            auto = True
        if not auto:
            return (m,), (tuple(cols), cells, found)
        cellv, foundv = bytearray(cells), list(found)
        edge = [m]
        self._autoplay(cols, cellv, foundv, edge)
        return tuple(edge), (tuple(cols), bytes(sorted(cellv)), tuple(foundv))

    @staticmethod
    def _autoplay(cols: list[bytes], cells: bytearray, found: list[int], edge: list[FMove]) -> None:
        moved = True
        while moved:
            moved = False
            for i, c in enumerate(cols):
                if c:
                    x = c[-1]
                    if found[x & 3] == x >> 2 and _safe(x, found):
                        found[x & 3] += 1
                        cols[i] = c[:-1]
                        edge.append((i, FOUNDATION + (x & 3), 1, x))
                        moved = True
            for x in list(cells):
                if found[x & 3] == x >> 2 and _safe(x, found):
                    found[x & 3] += 1
                    del cells[cells.index(x)]
                    edge.append((CELL, FOUNDATION + (x & 3), 1, x))
                    moved = True


def _safe(x: int, found: tuple[int, ...] | list[int]) -> bool:
    """May ``x``, the next card of its suit, go up for good?  Yes when no card still on the
    table could ever need it to land on: an ace or a two always; otherwise when both suits
    of the other colour hold the rank below (nothing can land on it any more), or hold
    two ranks below while the other suit of its colour holds three below (the cards that
    could land on it can then go up themselves whenever they are free, and so can the
    cards that could land on those)."""
    r = x >> 2
    if r <= 1:
        return True
    a, b = _OTHER[x & 3]
    fa, fb = found[a], found[b]
    if fa >= r and fb >= r:
        return True
    return fa >= r - 1 and fb >= r - 1 and found[(x & 3) ^ 3] >= r - 2


def _run(column: bytes) -> int:
    """How many cards at the top of a column lie in order (alternate colours, down)."""
    n = len(column)
    k = n - 1
    while k > 0 and _FITS[column[k] * 52 + column[k - 1]]:
        k -= 1
    return n - k
