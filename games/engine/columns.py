"""What a column does, in three behaviours a game names (table.py): what it takes onto its
top card (``build``), what an empty column takes (``empty_pile``), and which cards may leave
it at once (``runs``).

Each behaviour is a small object: the rules engine (legal.py) asks it which moves there
are and why one is refused, and never asks which game it is playing.  A rule the site has
not met yet is a new object here, or a subclass in the game's own module that overrides a
method (as PySolFC's stack classes do), not a new branch in legal.py.

>>> from games.engine import GAMES
>>> [(key, cls.runs.name, cls.empty_pile.name) for key, cls in GAMES.items()
...  if key in ("freecell", "bakers-dozen")]
[('freecell', 'supermove', 'any'), ('bakers-dozen', 'single', 'never')]
>>> ALTERNATE.refusal(parse_card("JD"), parse_card("KS"))
'jack of diamonds cannot go on king of spades: it needs a red queen'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .cards import CODE, RANK, RANK_NAMES, RED, SUIT, Card, card_name, parse_card  # noqa: F401
from .piles import CELL, EMPTY, FOUNDATION, Move
from .reasons import Reason

if TYPE_CHECKING:
    from .table import Table


class Build:
    """What a column's top card takes: a card one rank lower, of the other colour (this
    class) or of any suit (``AnySuit``); a subclass may say otherwise in ``fits_card``.
    ``fits[moving * 52 + onto]`` is looked up, not computed: move generation is the inner
    loop of random playouts and of the dead-end search."""

    name = "alternate"
    other_colour = True  # the card wanted is of the other colour (taps.py: safe cards up)

    def __init__(self) -> None:
        self.fits: tuple[bool, ...] = tuple(
            self.fits_card(m, o) for m in range(52) for o in range(52)
        )

    def __repr__(self) -> str:
        return f"<build {self.name}>"

    def fits_card(self, moving: Card, onto: Card) -> bool:
        return RANK[onto] == RANK[moving] + 1 and RED[onto] != RED[moving]

    def refusal(self, card: Card, onto: Card) -> Reason:
        """Why ``card`` cannot go on ``onto``: what ``onto`` needs instead."""
        # need: the rank wanted (None on an ace), colour: the colour wanted, if any.
        if RANK[onto] == 0:
            need, colour, text = None, None, "nothing goes on an ace"
        else:
            need = RANK_NAMES[RANK[onto] - 1]
            colour = ("black" if RED[onto] else "red") if self.other_colour else None
            if colour:
                text = f"it needs a {colour} {need}"
            else:
                text = f"it needs {'an' if need[0] in 'aeiou' else 'a'} {need}"
        return Reason(
            "cannot_go_on",
            f"{card_name(card)} cannot go on {card_name(onto)}: {text}",
            card=CODE[card],
            onto=CODE[onto],
            need=need,
            colour=colour,
        )


class AnySuit(Build):
    name = "any-suit"
    other_colour = False

    def fits_card(self, moving: Card, onto: Card) -> bool:
        return RANK[onto] == RANK[moving] + 1


ALTERNATE = Build()  # red on black or black on red, one rank lower
ANY_SUIT = AnySuit()  # any card one rank lower


class EmptyPile:
    """What an empty column takes: the ranks that may head whatever moves in."""

    def __init__(
        self, name: str, ranks: Iterable[int], refuse: Callable[[Table, Card], Reason] | None = None
    ) -> None:
        self.name = name
        self.ranks = frozenset(ranks)
        self.takes: tuple[bool, ...] = tuple(RANK[c] in self.ranks for c in range(52))
        self.refills = bool(self.ranks)  # is an empty column ever filled again?
        # in_run[top][most]: the sizes of the groups an empty column takes from the end of
        # an ordered run whose top card has rank ``top`` (its k-th card has rank top + k - 1),
        # up to ``most`` cards.  Looked up: it is asked for every column beside an empty one.
        self.in_run: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple(k for k in range(1, most + 1) if top + k - 1 in self.ranks)
                for most in range(53)
            )
            for top in range(13)
        )
        self._refuse = refuse

    def __repr__(self) -> str:
        return f"<empty pile {self.name}>"

    def refusal(self, game: Table, card: Card) -> Reason | None:
        """Why ``card`` (heading what moves) may not go into an empty column; None if it may."""
        if self.takes[card] or self._refuse is None:
            return None
        return self._refuse(game, card)


ANY_CARD = EmptyPile("any", range(13))
KINGS_ONLY = EmptyPile(
    "kings",
    (12,),
    lambda game, card: Reason(
        "king_only", "only a king, or a run headed by a king, can go into an empty pile"
    ),
)
NEVER_REFILLED = EmptyPile(
    "never",
    (),
    lambda game, card: Reason(
        "never_filled", f"an empty column is never filled again in {game.title}", game=game.key
    ),
)


def ordered_run(game: Table, pile: int) -> int:
    """Length of the ordered face-up run at the end of column ``pile``."""
    p = game.tab[pile]
    n = len(p)
    if not n:
        return 0
    fits = game._fits
    k = n - 1
    floor = game.down[pile]
    while k > floor and fits[p[k] * 52 + p[k - 1]]:
        k -= 1
    return n - k


def face_up(game: Table, pile: int) -> int:
    """How many cards of column ``pile`` are face up."""
    return len(game.tab[pile]) - game.down[pile]


def top_card(game: Table, pile: int) -> int:
    return 1


class Runs:
    """Which cards leave a column at once: any ordered face-up run, as one (the Klondike
    family).  The subclasses below change one part each."""

    name = "runs"
    top_only = False  # only a column's top card moves (the table page picks no other)
    counted = False  # how many may move depends on free cells and empty columns ("Move N")
    # movable(game, pile): how many cards at the end of column ``pile`` may leave it
    # together, wherever they go (``limits`` says how many a destination allows).  A plain
    # function, called once per column by every move generation: no bound method between.
    movable: Callable[[Table, int], int] = staticmethod(ordered_run)

    def __repr__(self) -> str:
        return f"<runs {self.name}>"

    def limits(self, game: Table, free_cells: int, empty_columns: int) -> tuple[int, int]:
        """The most cards that may move at once onto a card, and into an empty column, with
        ``free_cells`` cells and ``empty_columns`` columns empty."""
        return 52, 52

    def shape_refusal(self, game: Table, pile: int, n: int) -> Reason | None:
        """Why the last ``n`` face-up cards of column ``pile`` may not leave it together."""
        if n > ordered_run(game, pile):
            return Reason("not_run", "those cards are not an ordered run")
        return None

    def size_refusal(self, game: Table, n: int, to_empty: bool) -> Reason | None:
        """Why ``n`` cards may not move at once now (onto a card, or into an empty column)."""
        return None

    def column_moves(self, game: Table, out: list[Move]) -> None:
        """Add to ``out`` each column's moves: its top card up or to a free cell, then its
        run (or the part of it that fits) onto the other columns, in the columns' order."""
        tab, found, fits = game.tab, game.found, game._fits
        add = out.append
        ncols = game.columns
        by_rank, empties = _tops(tab, ncols)
        free = [CELL + i for i, c in enumerate(game.cells) if c == EMPTY]
        to_empty = empties > 0 and game.empty_pile.refills
        in_run = game.empty_pile.in_run
        limit_full, limit_empty = self.limits(game, len(free), empties)
        movable = self.movable
        for i in range(ncols):
            p = tab[i]
            if not p:
                continue
            top = p[-1]
            top_rank = RANK[top]
            if found[SUIT[top]] == top_rank:
                add((i, FOUNDATION + SUIT[top], 1))
            for cell in free:
                add((i, cell, 1))
            run = movable(game, i) if limit_full > 1 else 1
            longest = min(run, limit_full)
            if longest == 1 and not to_empty:
                for j in by_rank[top_rank + 1]:  # one card: only onto a top a rank above
                    if fits[top * 52 + tab[j][-1]]:
                        add((i, j, 1))
                continue
            heads = in_run[top_rank][min(run, limit_empty)] if to_empty else ()
            for j in range(ncols):  # runs: one look at each column, in order
                if j == i:
                    continue
                q = tab[j]
                if q:
                    # The only card of an ordered run that can fit: the one a rank below
                    # q's top.
                    k = RANK[q[-1]] - top_rank
                    if 1 <= k <= longest and fits[p[-k] * 52 + q[-1]]:
                        add((i, j, k))
                else:
                    for k in heads:
                        add((i, j, k))


def _tops(tab: list[list[Card]], ncols: int) -> tuple[list[list[int]], int]:
    """The columns by the rank of their top card (a single card only fits on a top one rank
    above it, so it looks at those columns, not at every one), and how many are empty."""
    by_rank: list[list[int]] = [[] for _ in range(14)]
    empties = 0
    for j in range(ncols):
        if tab[j]:
            by_rank[RANK[tab[j][-1]]].append(j)
        else:
            empties += 1
    return by_rank, empties


class Supermove(Runs):
    """An ordered run within what the free cells and empty columns would allow card by card:
    (free cells + 1) x 2 ^ (empty columns), one empty column fewer when it is the
    destination (FreeCell)."""

    name = "supermove"
    counted = True

    def limits(self, game: Table, free_cells: int, empty_columns: int) -> tuple[int, int]:
        return (free_cells + 1) << empty_columns, (free_cells + 1) << max(empty_columns - 1, 0)

    def size_refusal(self, game: Table, n: int, to_empty: bool) -> Reason | None:
        limit = game.move_limit(to_empty=to_empty)
        if n <= limit:
            return None
        return Reason(
            "supermove",
            f"moving {n} cards needs more free cells or empty columns ({limit} at most now)",
            n=n,
            max=limit,
        )


class TopCard(Runs):
    """Only the top card of a column moves (Baker's Dozen)."""

    name = "single"
    top_only = True
    movable = staticmethod(top_card)

    def limits(self, game: Table, free_cells: int, empty_columns: int) -> tuple[int, int]:
        return 1, 1

    def shape_refusal(self, game: Table, pile: int, n: int) -> Reason | None:
        if n > 1:
            return Reason(
                "top_only", f"only the top card of a column moves in {game.title}", game=game.key
            )
        return None


class FaceUpGroups(Runs):
    """Any face-up card moves with every card above it, whatever their order, when the
    first card fits (Yukon)."""

    name = "groups"
    movable = staticmethod(face_up)

    def shape_refusal(self, game: Table, pile: int, n: int) -> Reason | None:
        return None  # face-down cards are refused before this is asked

    def column_moves(self, game: Table, out: list[Move]) -> None:
        tab, found, fits, takes = game.tab, game.found, game._fits, game.empty_pile.takes
        add = out.append
        ncols = game.columns
        empties = sum(1 for p in tab if not p)
        free = [CELL + i for i, c in enumerate(game.cells) if c == EMPTY]
        to_empty = empties > 0 and game.empty_pile.refills
        for i in range(ncols):
            p = tab[i]
            if not p:
                continue
            top = p[-1]
            if found[SUIT[top]] == RANK[top]:
                add((i, FOUNDATION + SUIT[top], 1))
            for cell in free:
                add((i, cell, 1))
            up = len(p) - game.down[i]
            group = p[-up:]
            for j in range(ncols):
                if j == i:
                    continue
                q = tab[j]
                if q:
                    onto = q[-1]
                    for k in range(1, up + 1):  # any face-up card may head the group
                        if fits[group[-k] * 52 + onto]:
                            add((i, j, k))
                elif to_empty:
                    for k in range(1, up + 1):
                        if takes[group[-k]]:
                            add((i, j, k))


FREE_RUNS = Runs()
SUPERMOVE = Supermove()
SINGLE_CARD = TopCard()
FACE_UP_GROUPS = FaceUpGroups()
