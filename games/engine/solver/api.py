"""Solving a position or a deal: the game's domain and search from the registry.

>>> from games.engine import new_game
>>> r = solve(new_game("freecell", 1), Budget(10))
>>> r.status, len(r.moves) > 50
('solved', True)
"""

from __future__ import annotations

from typing import Any

from ..catalogue import new_game
from ..game import Game
from .registry import has_solver, solver_for
from .search import UNKNOWN, Budget, Result


def domain_for(game: Game) -> Any:
    """The search domain of ``game``'s position, with full knowledge of every card."""
    return solver_for(game).domain(game)


def solve(game: Game, budget: Budget | float = 10.0) -> Result:
    """Solve ``game`` from its current position.  Klondike-family games are solved with
    full knowledge of the hidden cards: a server-side tool, never a player's hint."""
    if not isinstance(budget, Budget):
        budget = Budget(float(budget))
    if game.won:
        return Result("solved")
    if not has_solver(type(game)):
        return Result(UNKNOWN)  # no solver: nothing is known, nothing proven
    solver = solver_for(game)
    return solver.search(solver.domain(game), budget)


def solve_deal(game_key: str, seed: int, budget: Budget | float = 10.0) -> Result:
    return solve(new_game(game_key, seed), budget)


__all__ = ["UNKNOWN", "domain_for", "solve", "solve_deal"]
