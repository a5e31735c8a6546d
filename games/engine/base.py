"""The shared game: state, legal moves, apply and undo, for every game the site offers.

A game is declared as a subclass that sets a few parameters (how piles build, what an empty
pile takes, how many cards move at once, the stock) and supplies its deal and notation.
Everything else -- move generation, checking with a reason, undo, finishing, dead ends, the
player's view -- lives here once.

>>> from games.engine import new_game
>>> g = new_game("freecell", 617)
>>> g.play("8a")
(7, 16, 1)
>>> g.notation(g.parse("8b")), g.reason(g.parse("8a"))
('8b', 'free cell 1 is taken')
>>> g.undo()
(7, 16, 1)
>>> g.history_len
0
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any, ClassVar

from . import deals, endgame, views
from .cards import CODE, RANK, RANK_NAMES, RED, SUIT, SUIT_LETTERS, SUIT_NAMES, card_name
from .piles import (
    ALTERNATE,
    ANY_CARD,
    CELL,
    EMPTY,
    FITS,
    FOUNDATION,
    FREE_RUNS,
    KINGS_ONLY,
    NEVER_REFILLED,
    SINGLE_CARD,
    STOCK,
    SUPERMOVE,
    WASTE,
    Move,
)
from .reasons import Reason


class IllegalMove(ValueError):
    """A move the rules refuse; ``str(exc)`` is the one-line reason shown to the player, and
    ``exc.args[0]`` a ``Reason`` with its code where the engine gives one."""


class Game:
    # -- the declaration a game makes ------------------------------------------------------
    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    columns: ClassVar[int] = 0
    free_cells: ClassVar[int] = 0
    build: ClassVar[str] = ALTERNATE
    empty_pile: ClassVar[str] = ANY_CARD
    runs: ClassVar[str] = SINGLE_CARD
    foundation_back: ClassVar[bool] = False  # may a foundation's top card come back down?
    draw: ClassVar[int] = 0  # cards turned per touch of the stock; 0 = no stock
    redeals: ClassVar[int | None] = None  # times the waste may be turned back; None = always
    undo_limit: ClassVar[int | None] = None
    has_score: ClassVar[bool] = True
    partial_finish: ClassVar[bool] = False  # "auto finish" also when not every card goes up

    # -- state -----------------------------------------------------------------------------
    def __init__(self, seed: int) -> None:
        self.seed = seed
        tableau, down, stock = self.deal(seed)
        self.tab: list[list[int]] = tableau
        self.down: list[int] = down  # per pile: how many of its first cards are face down
        self.cells: list[int] = [EMPTY] * self.free_cells
        self.found: list[int] = [0, 0, 0, 0]  # cards on each suit's foundation
        self.stock: list[int] = stock  # last element is the next card turned
        self.waste: list[int] = []
        self.redeals_used = 0
        self.score = 0
        self.moves = 0  # moves on the board now (an undo takes one back)
        self.history: deque[tuple[Move, int, Any]] | list[tuple[Move, int, Any]] = (
            deque(maxlen=self.undo_limit) if self.undo_limit else []
        )
        self._fits = FITS[self.build]
        self.after_deal()

    @classmethod
    def setup(
        cls,
        tableau: list[list[str]],
        *,
        down: list[int] | None = None,
        cells: list[str | None] | None = None,
        foundations: dict[str, int] | None = None,
        stock: list[str] | None = None,
        waste: list[str] | None = None,
    ) -> Game:
        """A position given by card codes (for tests, puzzles and the solvers).

        ``foundations`` maps a suit letter to how many cards it holds; the cards are not
        checked for completeness, so partial positions (a few cards only) are allowed.
        """
        from .cards import parse_card

        g = cls.__new__(cls)
        g.seed = -1
        tab = [[parse_card(c) for c in p] for p in tableau]
        tab += [[] for _ in range(cls.columns - len(tab))]
        g.tab = tab
        g.down = list(down) if down else [0] * cls.columns
        g.down += [0] * (cls.columns - len(g.down))
        g.cells = [EMPTY] * cls.free_cells
        for i, c in enumerate(cells or []):
            g.cells[i] = EMPTY if c is None else parse_card(c)
        g.found = [0, 0, 0, 0]
        for letter, n in (foundations or {}).items():
            g.found["CDHS".index(letter.upper())] = n
        g.stock = [parse_card(c) for c in stock or []]
        g.waste = [parse_card(c) for c in waste or []]
        g.redeals_used = 0
        g.score = 0
        g.moves = 0
        g.history = deque(maxlen=cls.undo_limit) if cls.undo_limit else []
        g._fits = FITS[cls.build]
        return g

    def deal(self, seed: int) -> tuple[list[list[int]], list[int], list[int]]:
        """(tableau piles deepest card first, face-down counts, stock) for ``seed``."""
        raise NotImplementedError

    @classmethod
    def seed_from_digest(cls, digest: bytes) -> int:
        """The seed of a daily whose secret digest is ``digest`` (``deals.daily_digest``):
        every bit of it, so no search over seeds can recover the hidden cards."""
        return deals.seed_from_key(digest)

    @classmethod
    def random_seed(cls) -> int:
        """A fresh deal's seed, from 256 bits of the system's secure randomness."""
        return deals.random_seed()

    def after_deal(self) -> None:
        """Automatic play before the first move (Baker's Dozen sends up free aces)."""

    # -- notation (per game) ---------------------------------------------------------------
    def parse(self, token: str) -> Move:
        raise NotImplementedError

    def notation(self, move: Move) -> str:
        raise NotImplementedError

    # -- reading the state -----------------------------------------------------------------
    @property
    def cards_up(self) -> int:
        f = self.found
        return f[0] + f[1] + f[2] + f[3]

    @property
    def won(self) -> bool:
        return self.cards_up == 52

    @property
    def history_len(self) -> int:
        return len(self.history)

    @property
    def passes_left(self) -> int | None:
        """Turns of the waste back into the stock still allowed (None: unlimited)."""
        return None if self.redeals is None else self.redeals - self.redeals_used

    def foundation_top(self, suit: int) -> int | None:
        n = self.found[suit]
        return (n - 1) * 4 + suit if n else None

    def run_length(self, pile: int) -> int:
        """Length of the ordered face-up run at the end of a tableau pile."""
        p = self.tab[pile]
        n = len(p)
        if not n:
            return 0
        fits = self._fits
        k = n - 1
        floor = self.down[pile]
        while k > floor and fits[p[k] * 52 + p[k - 1]]:
            k -= 1
        return n - k

    def move_limit(self, to_empty: bool = False) -> int:
        """How many cards may move between columns now ("Move N" in FreeCell)."""
        if self.runs == SINGLE_CARD:
            return 1
        if self.runs == FREE_RUNS:
            return 52
        cells = self.cells.count(EMPTY)
        empty = sum(1 for p in self.tab if not p) - (1 if to_empty else 0)
        return (cells + 1) << max(empty, 0)

    # -- legal moves -----------------------------------------------------------------------
    def legal_moves(self) -> Iterator[Move]:
        """Every legal move, once per destination and, into empty piles, once per size."""
        tab, found, fits = self.tab, self.found, self._fits
        ncols = self.columns
        empties = [j for j in range(ncols) if not tab[j]]
        kings_only = self.empty_pile == KINGS_ONLY
        fill_empty = self.empty_pile != NEVER_REFILLED

        # Single cards that may land anywhere: waste top, free cells, foundation tops.
        singles: list[tuple[int, int]] = []
        if self.waste:
            singles.append((WASTE, self.waste[-1]))
        for i, c in enumerate(self.cells):
            if c != EMPTY:
                singles.append((CELL + i, c))
        for src, c in singles:
            if found[SUIT[c]] == RANK[c]:
                yield (src, FOUNDATION + SUIT[c], 1)
            for j in range(ncols):
                p = tab[j]
                if p:
                    if fits[c * 52 + p[-1]]:
                        yield (src, j, 1)
                elif fill_empty and (not kings_only or RANK[c] == 12):
                    yield (src, j, 1)
        if self.foundation_back:
            for s in range(4):
                if found[s]:
                    c = (found[s] - 1) * 4 + s
                    for j in range(ncols):
                        p = tab[j]
                        if p:
                            if fits[c * 52 + p[-1]]:
                                yield (FOUNDATION + s, j, 1)
                        elif fill_empty and (not kings_only or RANK[c] == 12):
                            yield (FOUNDATION + s, j, 1)

        free = [CELL + i for i, c in enumerate(self.cells) if c == EMPTY]
        # Columns by the rank of their top card: a single card only fits on a top one rank
        # above it, so it looks at those columns, not at every one.
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for j in range(ncols):
            if tab[j]:
                by_rank[RANK[tab[j][-1]]].append(j)
        to_empty = fill_empty and bool(empties)
        runs = self.runs
        if runs == SUPERMOVE:
            ncells = len(free) + 1
            limit_full = ncells << len(empties)
            limit_empty = ncells << max(len(empties) - 1, 0)
        elif runs == FREE_RUNS:
            limit_full = limit_empty = 52
        else:
            limit_full = limit_empty = 1
        for i in range(ncols):
            p = tab[i]
            if not p:
                continue
            top = p[-1]
            if found[SUIT[top]] == RANK[top]:
                yield (i, FOUNDATION + SUIT[top], 1)
            for cell in free:
                yield (i, cell, 1)
            run = self.run_length(i) if limit_full > 1 else 1
            top_rank = RANK[top]
            longest = min(run, limit_full)
            if longest == 1 and not to_empty:
                for j in by_rank[top_rank + 1]:
                    if fits[top * 52 + tab[j][-1]]:
                        yield (i, j, 1)
                continue
            for j in range(ncols):  # runs: one look at each column, in order
                if j == i:
                    continue
                q = tab[j]
                if q:
                    # The only run start that can fit: the card one rank below q's top.
                    k = RANK[q[-1]] - top_rank
                    if 1 <= k <= longest and fits[p[-k] * 52 + q[-1]]:
                        yield (i, j, k)
                elif to_empty:
                    if kings_only:
                        k = 13 - top_rank  # the king heading the run
                        if k <= run and RANK[p[-k]] == 12:
                            yield (i, j, k)
                    else:
                        for k in range(1, min(run, limit_empty) + 1):
                            yield (i, j, k)
        if self.draw:
            if self.stock:
                yield (STOCK, WASTE, min(self.draw, len(self.stock)))
            elif self.waste and (self.redeals is None or self.redeals_used < self.redeals):
                yield (WASTE, STOCK, len(self.waste))

    # -- checking --------------------------------------------------------------------------
    def reason(self, move: Move) -> Reason | None:
        """Why ``move`` is illegal now, in one line; None when it is legal."""
        src, dst, n = move
        if src == STOCK or dst == STOCK:
            return self._stock_reason(move)
        if n < 1:
            return Reason("zero_cards", "a move takes at least one card")
        if src == dst:
            return Reason("same_pile", "a card cannot move onto the pile it is on")
        # What is being moved?
        if src < CELL:
            if src >= self.columns:
                return Reason("no_column", f"there is no column {src + 1}", n=src + 1)
            p = self.tab[src]
            if not p:
                return Reason("column_empty", f"column {src + 1} is empty", n=src + 1)
            if n > len(p) - self.down[src]:
                return Reason("face_down", "face-down cards cannot move")
            if n > 1:
                if self.runs == SINGLE_CARD:
                    return Reason("top_only", f"only the top card of a column moves in {self.title}",
                                  game=self.key)
                if n > self.run_length(src):
                    return Reason("not_run", "those cards are not an ordered run")
            c = p[-n]
        elif src < FOUNDATION:
            if src - CELL >= self.free_cells:
                return Reason("no_cell", "there is no such free cell")
            c = self.cells[src - CELL]
            if c == EMPTY:
                return Reason("cell_empty", f"free cell {src - CELL + 1} is empty", n=src - CELL + 1)
        elif src < STOCK:
            if not self.foundation_back:
                return Reason("no_come_back",
                              f"cards on the foundations do not come back in {self.title}",
                              game=self.key)
            c_or_none = self.foundation_top(src - FOUNDATION)
            if c_or_none is None:
                return Reason("found_empty",
                              f"the {SUIT_NAMES[src - FOUNDATION]} foundation is empty",
                              suit=SUIT_LETTERS[src - FOUNDATION])
            c = c_or_none
        else:
            if not self.waste:
                return Reason("waste_empty", "the waste is empty")
            c = self.waste[-1]
        if n > 1 and src >= CELL:
            return Reason("one_from_there", "only one card moves from there")
        # Where is it going?
        if dst < CELL:
            if dst >= self.columns:
                return Reason("no_column", f"there is no column {dst + 1}", n=dst + 1)
            q = self.tab[dst]
            if q:
                if not self._fits[c * 52 + q[-1]]:
                    return self._cannot_go_on(c, q[-1])
            elif self.empty_pile == NEVER_REFILLED:
                return Reason("never_filled",
                              f"an empty column is never filled again in {self.title}",
                              game=self.key)
            elif self.empty_pile == KINGS_ONLY and RANK[c] != 12:
                return Reason("king_only",
                              "only a king, or a run headed by a king, can go into an empty pile")
            if n > 1 and self.runs == SUPERMOVE:
                limit = self.move_limit(to_empty=not q)
                if n > limit:
                    return Reason("supermove",
                                  f"moving {n} cards needs more free cells or empty columns "
                                  f"({limit} at most now)", n=n, max=limit)
            return None
        if dst < FOUNDATION:
            if dst - CELL >= self.free_cells:
                if not self.free_cells:
                    return Reason("no_free_cells", f"there are no free cells in {self.title}",
                                  game=self.key)
                return Reason("no_cell", "there is no such free cell")
            if src >= CELL and src < FOUNDATION:
                return Reason("cell_to_cell", "a card does not move from one free cell to another")
            if n > 1:
                return Reason("cell_one", "a free cell holds one card")
            if self.cells[dst - CELL] != EMPTY:
                return Reason("cell_taken", f"free cell {dst - CELL + 1} is taken", n=dst - CELL + 1)
            return None
        if dst < STOCK:
            if n > 1:
                return Reason("one_at_a_time", "cards go up to the foundations one at a time")
            if dst - FOUNDATION != SUIT[c]:
                return Reason("belongs",
                              f"{card_name(c)} belongs on the {SUIT_NAMES[SUIT[c]]} foundation",
                              card=CODE[c], suit=SUIT_LETTERS[SUIT[c]])
            have = self.found[SUIT[c]]
            if have != RANK[c]:
                if have == 13:
                    return Reason("complete", f"the {SUIT_NAMES[SUIT[c]]} foundation is complete",
                                  suit=SUIT_LETTERS[SUIT[c]])
                return Reason("not_yet",
                              f"{card_name(c)} cannot go up yet: the {SUIT_NAMES[SUIT[c]]} "
                              f"foundation needs the {RANK_NAMES[have]} first",
                              card=CODE[c], suit=SUIT_LETTERS[SUIT[c]], rank=RANK_NAMES[have])
            if src >= FOUNDATION and src < STOCK:
                return Reason("already_up", "that card is already on its foundation")
            return None
        return Reason("not_on_waste", "cards cannot be put on the waste")

    def _cannot_go_on(self, c: int, onto: int) -> Reason:
        # need: the rank wanted (None on an ace), colour: the colour wanted, if any.
        if RANK[onto] == 0:
            need, colour, text = None, None, "nothing goes on an ace"
        else:
            need = RANK_NAMES[RANK[onto] - 1]
            colour = ("black" if RED[onto] else "red") if self.build == ALTERNATE else None
            if colour:
                text = f"it needs a {colour} {need}"
            else:
                text = f"it needs {'an' if need[0] in 'aeiou' else 'a'} {need}"
        return Reason("cannot_go_on", f"{card_name(c)} cannot go on {card_name(onto)}: {text}",
                      card=CODE[c], onto=CODE[onto], need=need, colour=colour)

    def _stock_reason(self, move: Move) -> Reason | None:
        src, dst, n = move
        if not self.draw:
            return Reason("no_stock", f"there is no stock in {self.title}", game=self.key)
        if src == STOCK and dst == WASTE:
            if not self.stock:
                return Reason("stock_empty", "the stock is empty: turn the waste back over instead")
            if n != min(self.draw, len(self.stock)):
                k = min(self.draw, len(self.stock))
                return Reason("stock_turns", f"the stock turns {k} card(s) at a time", n=k)
            return None
        if src == WASTE and dst == STOCK:
            if self.stock:
                return Reason("waste_back", "the waste goes back only once the stock is empty")
            if not self.waste:
                return Reason("nothing_back", "there are no cards to turn back")
            if self.redeals is not None and self.redeals_used >= self.redeals:
                return Reason("no_passes", "no passes through the stock are left in this game")
            if n != len(self.waste):
                return Reason("whole_waste", "the whole waste turns back at once")
            return None
        return Reason("not_on_stock", "cards cannot be put on the stock")

    # -- changing the state ----------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Apply ``move`` after checking it; an illegal move raises and changes nothing."""
        why = self.reason(move)
        if why:
            raise IllegalMove(why)
        self.apply(move)

    def play(self, token: str) -> Move:
        """Parse and apply one move in the game's notation; returns the move."""
        move = self.parse(token)
        self.push(move)
        return move

    def apply(self, move: Move) -> None:
        """Apply a move known to be legal (from ``legal_moves`` or ``reason``)."""
        src, dst, n = move
        prev = self.score
        extra: Any = 0
        if src == STOCK:
            s, w = self.stock, self.waste
            for _ in range(n):
                w.append(s.pop())
        elif dst == STOCK:
            self.stock = self.waste[::-1]
            self.waste = []
            self.redeals_used += 1
        else:
            if src < CELL:
                p = self.tab[src]
                if n == 1:
                    cards = [p.pop()]
                else:
                    cards = p[-n:]
                    del p[-n:]
            elif src < FOUNDATION:
                cards = [self.cells[src - CELL]]
                self.cells[src - CELL] = EMPTY
            elif src < STOCK:
                suit = src - FOUNDATION
                self.found[suit] -= 1
                cards = [self.found[suit] * 4 + suit]
            else:
                cards = [self.waste.pop()]
            if dst < CELL:
                self.tab[dst].extend(cards)
            elif dst < FOUNDATION:
                self.cells[dst - CELL] = cards[0]
            else:
                self.found[dst - FOUNDATION] += 1
            if src < CELL:
                extra = self.uncovered(src)
            self.score_move(move, extra)
        self.moves += 1
        self.history.append((move, prev, extra))

    def uncovered(self, pile: int) -> Any:
        """Automatic consequence of uncovering a pile's new top; returns what undo needs."""
        if self.down[pile] and self.down[pile] == len(self.tab[pile]):
            self.down[pile] -= 1
            return 1
        return 0

    def score_move(self, move: Move, extra: Any) -> None:
        """Update ``self.score`` after a move; the default keeps nothing but cards up."""

    def undo(self) -> Move:
        """Take back the last move exactly as it was (score included)."""
        if not self.history:
            if self.undo_limit and self.moves:
                raise IllegalMove(Reason("undo_limit",
                                         f"undo goes back {self.undo_limit} moves at most",
                                         n=self.undo_limit))
            raise IllegalMove(Reason("no_undo", "there is no move to undo"))
        move, prev, extra = self.history.pop()
        src, dst, n = move
        if src == STOCK:
            s, w = self.stock, self.waste
            for _ in range(n):
                s.append(w.pop())
        elif dst == STOCK:
            self.waste = self.stock[::-1]
            self.stock = []
            self.redeals_used -= 1
        else:
            if src < CELL and extra:
                self.undo_uncovered(src, extra)
            if dst < CELL:
                q = self.tab[dst]
                cards = q[-n:]
                del q[-n:]
            elif dst < FOUNDATION:
                cards = [self.cells[dst - CELL]]
                self.cells[dst - CELL] = EMPTY
            else:
                suit = dst - FOUNDATION
                self.found[suit] -= 1
                cards = [self.found[suit] * 4 + suit]
            if src < CELL:
                self.tab[src].extend(cards)
            elif src < FOUNDATION:
                self.cells[src - CELL] = cards[0]
            elif src < STOCK:
                self.found[src - FOUNDATION] += 1
            else:
                self.waste.append(cards[0])
        self.score = prev
        self.moves -= 1
        return move

    def undo_uncovered(self, pile: int, extra: Any) -> None:
        self.down[pile] += 1

    # -- whole-game helpers ----------------------------------------------------------------
    def copy(self) -> Game:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.tab = [p[:] for p in self.tab]
        g.down = self.down[:]
        g.cells = self.cells[:]
        g.found = self.found[:]
        g.stock = self.stock[:]
        g.waste = self.waste[:]
        g.history = (
            deque(self.history, maxlen=self.undo_limit) if self.undo_limit else list(self.history)
        )
        return g

    # Finishing and dead ends live in endgame.py; these are the game's handles on them.
    dead_end_search: ClassVar[bool] = True  # FreeCell's dead end is "no legal move at all"
    DEAD_END_BUDGET: ClassVar[int] = 1000
    # The last dead-end search's verdict, kept on the table (see endgame._remembered).
    dead_end_memo: tuple[bool, Any, tuple[Move, ...]] | None = None

    def finish_moves(self) -> list[Move]:
        """The cards sent up one by one by "finish", with stock turns where needed."""
        return endgame.finish_moves(self)

    def can_finish(self) -> bool:
        """Is "finish" offered now?  Only once the remaining cards are sure to go up."""
        return endgame.can_finish(self)

    def no_legal_move(self) -> bool:
        """SPEC 3.6: nothing but the stock moves, and the stock brings no playable card."""
        return endgame.no_legal_move(self)

    def no_move_matters(self) -> bool:
        """SPEC 3.1: no move can change the outcome any more (see endgame.py)."""
        return endgame.no_move_matters(self)

    def cannot_progress(self) -> bool:
        """A game's own quick proof that no card can ever go up (False: no proof; the
        dead-end search decides)."""
        return False

    # What the player may see lives in views.py; these are the game's handles on it.
    def move_object(self, move: Move) -> dict[str, Any]:
        return views.move_object(self, move)

    def legal_move_objects(self) -> list[dict[str, Any]]:
        return [views.move_object(self, m) for m in self.legal_moves()]

    def view(self) -> dict[str, Any]:
        """The table as the player may see it: no hidden card is named."""
        return views.view(self)

    def state(self) -> dict[str, Any]:
        """Everything a client needs after a move (the shape of the HTTP answers)."""
        return views.state(self)

    def layout(self) -> dict[str, Any]:
        """The full layout, hidden cards included (an operator's tool, never for players)."""
        return views.layout(self)
