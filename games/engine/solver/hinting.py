"""What every hint shares: its answer, the rule that it never only takes the previous move
back (docs/rules.md, Hints), and the heuristic's move when no search finds a line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..game import Game
from ..piles import CELL, FOUNDATION, STOCK, WASTE, Move, Pile


@dataclass
class Hint:
    move: str | None  # the move to show, in the game's notation (None: no move at all)
    status: str  # SOLVED: on a winning line; UNSOLVABLE: proven; UNKNOWN: heuristic move
    line: list[str] = field(default_factory=list)  # the winning line, when one was found
    seconds: float = 0.0
    cancelled: bool = False


def previous_move(game: Game) -> Move | None:
    return game.history[-1][0] if game.history else None


def undoes(game: Game, move: Move, card: Card | None, prev: Move | None) -> bool:
    """Does ``move`` (about to be played in ``game``) only take back ``prev``?"""
    if prev is None:
        return False
    src, dst, n = move
    ps, pd, pn = prev
    if STOCK in (src, dst, ps, pd) or WASTE in (ps, pd) and WASTE in (src, dst) and n > 1:
        return False  # turning the stock is never "taking a move back"

    def norm(p: Pile) -> Pile:  # which free cell does not matter
        return CELL if CELL <= p < FOUNDATION else p

    if n != pn or norm(src) != norm(pd) or norm(dst) != norm(ps):
        return False
    if card is None:
        return True
    if pd < CELL:
        return game.tab[pd][-pn] == card
    if pd < FOUNDATION:
        return game.cells[pd - CELL] == card
    return True


class NoUndoAtRoot:
    """A domain whose first moves leave out the one that takes the previous move back."""

    def __init__(self, inner: Any, game: Game, prev: Move | None) -> None:
        self.inner, self.game, self.prev = inner, game, prev
        self.root: Any = None
        self.filtered = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "weights":
            self.inner.weights = value
        else:
            object.__setattr__(self, name, value)

    def initial(self) -> Any:
        self.root = self.inner.initial()
        return self.root

    def successors(self, s: Any) -> Any:
        out = self.inner.successors(s)
        # Equal, not only the same object: each search of a race makes its own start (the
        # last made is self.root), and a depth-first line is shortened from its own.
        if (s is self.root or s == self.root) and not self.inner.initial_moves:
            keep = [e for e in out if not self.is_undo(e[0][0])]
            self.filtered = self.filtered or len(keep) != len(out)
            return keep
        return out

    def is_undo(self, m: tuple[int, ...]) -> bool:
        card = m[3] if len(m) > 3 else None  # FreeCell moves carry their card
        return undoes(self.game, (m[0], m[1], m[2]), card, self.prev)


def heuristic_move(dom: NoUndoAtRoot) -> str | None:
    """The move whose position the heuristic likes best (undoing the previous one aside)."""
    s = dom.initial()
    if dom.inner.initial_moves:  # a card that goes up safely: always a sound first move
        return str(dom.inner.tokens([])[0])
    best: tuple[int, int] | None = None
    best_edge = None
    for i, (edge, child) in enumerate(dom.successors(s)):
        score = (dom.inner.heuristic(child), i)
        if best is None or score < best:
            best, best_edge = score, edge
    if best_edge is None:
        return None
    return str(dom.inner.tokens([best_edge])[0])

