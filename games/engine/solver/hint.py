"""Hints (docs/rules.md, Hints): a move on a winning line when the solver finds one in time,
otherwise a sensible heuristic move, never a move that only takes the previous one back,
and "unsolvable" only with a proof.

>>> from games.engine import new_game
>>> h = hint(new_game("freecell", 1), 2.0)
>>> h.status, h.move is not None
('solved', True)
"""

from __future__ import annotations

import time

from ..game import Game
from .hinting import Hint, NoUndoAtRoot, heuristic_move, previous_move
from .klondike_hint import klondike_hint
from .registry import solver_for
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget


def hint(game: Game, budget: Budget | float = 0.8) -> Hint:
    """The hint for the player's current position.  Games with a stock never look at a
    hidden card (see :mod:`.klondike_hint`).  The default search time leaves room for the
    heuristic fallback inside the one second a player waits at most."""
    if not isinstance(budget, Budget):
        budget = Budget(float(budget))
    if game.draw:
        return klondike_hint(game, budget)
    t0 = time.monotonic()
    game = game.copy()  # the player may move on while this runs
    if game.won:
        return Hint(None, SOLVED)
    prev = previous_move(game)
    solver = solver_for(game)
    dom = NoUndoAtRoot(solver.domain(game), game, prev)
    r = solver.search(dom, budget)
    if r.status == SOLVED and r.moves:
        return Hint(r.moves[0], SOLVED, r.moves, time.monotonic() - t0)
    if r.status == UNSOLVABLE:
        proven = True
        if dom.filtered:  # the only way on might be back: check without the filter
            left = budget.seconds - (time.monotonic() - t0)
            full = solver.search(solver.domain(game), budget.sub(left))
            proven = full.status == UNSOLVABLE
        if proven:
            return Hint(None, UNSOLVABLE, [], time.monotonic() - t0)
    move = heuristic_move(dom)
    return Hint(move, UNKNOWN, [], time.monotonic() - t0, cancelled=r.cancelled)


__all__ = ["Hint", "hint"]
