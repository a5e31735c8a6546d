"""Hints (SPEC 3.6): a move on a winning line when the solver finds one in time, otherwise
a sensible heuristic move, never a move that only takes the previous one back, and
"unsolvable" only with a proof.

>>> from games.engine import new_game
>>> h = hint(new_game("freecell", 1), 2.0)
>>> h.status, h.move is not None
('solved', True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..base import Game
from ..piles import CELL, FOUNDATION, STOCK, WASTE, Move
from .api import BAKERS_SCHEDULE, FREECELL_SCHEDULE, domain_for
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget, portfolio


@dataclass
class Hint:
    move: str | None  # the move to show, in the game's notation (None: no move at all)
    status: str  # SOLVED: on a winning line; UNSOLVABLE: proven; UNKNOWN: heuristic move
    line: list[str] = field(default_factory=list)  # the winning line, when one was found
    seconds: float = 0.0
    cancelled: bool = False


def previous_move(game: Game) -> Move | None:
    return game.history[-1][0] if game.history else None


def undoes(game: Game, move: Move, card: int | None, prev: Move | None) -> bool:
    """Does ``move`` (about to be played in ``game``) only take back ``prev``?"""
    if prev is None:
        return False
    src, dst, n = move
    ps, pd, pn = prev
    if STOCK in (src, dst, ps, pd) or WASTE in (ps, pd) and WASTE in (src, dst) and n > 1:
        return False  # turning the stock is never "taking a move back"

    def norm(p: int) -> int:  # which free cell does not matter
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


class _NoUndoAtRoot:
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
        if s is self.root and not self.inner.initial_moves:
            keep = [e for e in out if not self.is_undo(e[0][0])]
            self.filtered = self.filtered or len(keep) != len(out)
            return keep
        return out

    def is_undo(self, m: tuple[int, ...]) -> bool:
        card = m[3] if len(m) > 3 else None  # FreeCell moves carry their card
        return undoes(self.game, (m[0], m[1], m[2]), card, self.prev)


def hint(game: Game, budget: Budget | float = 0.8) -> Hint:
    """The hint for the player's current position.  Klondike-family games never look at
    a hidden card (see :mod:`.klondike_hint`).  The default search time leaves room for the
    heuristic fallback inside the one second a player waits at most."""
    if not isinstance(budget, Budget):
        budget = Budget(float(budget))
    if game.draw:
        from .klondike_hint import klondike_hint

        return klondike_hint(game, budget)
    t0 = time.monotonic()
    game = game.copy()  # the player may move on while this runs
    if game.won:
        return Hint(None, SOLVED)
    prev = previous_move(game)
    schedule = FREECELL_SCHEDULE if game.key == "freecell" else BAKERS_SCHEDULE
    dom = _NoUndoAtRoot(domain_for(game), game, prev)
    r = portfolio(dom, budget, schedule)
    if r.status == SOLVED and r.moves:
        return Hint(r.moves[0], SOLVED, r.moves, time.monotonic() - t0)
    if r.status == UNSOLVABLE:
        proven = True
        if dom.filtered:  # the only way on might be back: check without the filter
            left = budget.seconds - (time.monotonic() - t0)
            full = portfolio(domain_for(game), budget.sub(left), schedule)
            proven = full.status == UNSOLVABLE
        if proven:
            return Hint(None, UNSOLVABLE, [], time.monotonic() - t0)
    move = heuristic_move(dom)
    return Hint(move, UNKNOWN, [], time.monotonic() - t0, cancelled=r.cancelled)


def heuristic_move(dom: _NoUndoAtRoot) -> str | None:
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
