"""The game: its table dealt or set up, and the moves that change it, for every game the
site offers.

A game is a subclass that makes its declaration (``table.py``) and supplies its deal and
notation.  Which moves are legal, and why one is not, is ``legal.py``; the game here deals,
applies a move with its automatic consequences and score, and takes it back.  The end of a
game (finish, dead ends) is ``endgame.py``; what the player may see is ``seen.py``.

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
from typing import Any

from . import deals
from .cards import CODE, SUIT_LETTERS, Card, parse_card
from .legal import Legal
from .piles import CELL, EMPTY, FOUNDATION, STOCK, Move, Pile
from .reasons import Reason


class IllegalMove(ValueError):
    """A move the rules refuse; ``str(exc)`` is the one-line reason shown to the player, and
    ``exc.args[0]`` a ``Reason`` with its code where the engine gives one."""


class Game(Legal):
    # -- the table dealt, or set up --------------------------------------------------------
    def __init__(self, seed: int, scoring: str | None = None) -> None:
        if scoring is not None:
            self.score_under(scoring)
        tableau, down, stock = self.deal(seed)
        self._lay_out(seed, tableau, down, stock)
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
        g = cls.__new__(cls)
        g._lay_out(
            -1,
            [[parse_card(c) for c in p] for p in tableau],
            list(down) if down else [],
            [parse_card(c) for c in stock or []],
            [EMPTY if c is None else parse_card(c) for c in cells or []],
            foundations or {},
            [parse_card(c) for c in waste or []],
        )
        return g

    def _lay_out(
        self,
        seed: int,
        tab: list[list[Card]],
        down: list[int],
        stock: list[Card],
        cells: list[Card] | None = None,
        foundations: dict[str, int] | None = None,
        waste: list[Card] | None = None,
    ) -> None:
        """The one initialiser of a table, dealt or set up: the piles given, the missing
        columns and face-down counts empty, nothing played yet."""
        self.seed = seed
        self.tab = tab + [[] for _ in range(self.columns - len(tab))]
        self.down = down + [0] * (self.columns - len(down))
        self.cells = [EMPTY] * self.free_cells
        for i, c in enumerate(cells or []):
            self.cells[i] = c
        self.found = [0, 0, 0, 0]
        for letter, n in (foundations or {}).items():
            self.found["CDHS".index(letter.upper())] = n
        self.stock = stock
        self.waste = waste or []
        self.redeals_used = 0
        self.score = 0
        self.moves = 0
        self.history = deque(maxlen=self.undo_limit) if self.undo_limit else []
        self._fits = self.build.fits

    def deal(self, seed: int) -> tuple[list[list[Card]], list[int], list[Card]]:
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
            self._scorer(self, move, extra)
        self.moves += 1
        self.history.append((move, prev, extra))

    def uncovered(self, pile: Pile) -> Any:
        """Automatic consequence of uncovering a pile's new top; returns what undo needs."""
        if self.down[pile] and self.down[pile] == len(self.tab[pile]):
            self.down[pile] -= 1
            return 1
        return 0

    def undo(self) -> Move:
        """Take back the last move exactly as it was (score included)."""
        if not self.history:
            if self.undo_limit and self.moves:
                raise IllegalMove(
                    Reason(
                        "undo_limit",
                        f"undo goes back {self.undo_limit} moves at most",
                        n=self.undo_limit,
                    )
                )
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

    def undo_uncovered(self, pile: Pile, extra: Any) -> None:
        self.down[pile] += 1

    # -- whole-game helpers ----------------------------------------------------------------
    def copy(self) -> Game:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g.dead_end_known = None  # this table's own: a copy may be a search's scratch table
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

    def layout(self) -> dict[str, Any]:
        """The full layout, hidden cards included: an operator's tool, never for players
        (what they may see is ``seen.view``)."""
        out: dict[str, Any] = {"tableau": [[CODE[c] for c in p] for p in self.tab]}
        if self.draw:
            out["stock"] = [CODE[c] for c in self.stock]
        if self.hides_cards:  # Yukon has face-down cards and no stock
            out["face_down"] = list(self.down)
        # Every card is somewhere: Baker's Dozen sends the aces on top home at the deal.
        out["foundations"] = self.foundation_cards()
        return out

    def foundation_cards(self) -> dict[str, list[str]]:
        """Each suit's foundation, ace first (a foundation holds its suit in order)."""
        return {
            letter: [CODE[rank * 4 + suit] for rank in range(self.found[suit])]
            for suit, letter in enumerate(SUIT_LETTERS)
        }

    def cannot_progress(self) -> bool:
        """A game's own quick proof that no card can ever go up (False: no proof; the
        dead-end search decides)."""
        return False
