"""Solving a position or a deal: which domain, which search, which budget.

>>> from games.engine import new_game
>>> r = solve(new_game("freecell", 1), Budget(10))
>>> r.status, len(r.moves) > 50
('solved', True)
"""

from __future__ import annotations

from typing import Any

from .. import new_game
from ..base import Game
from .bakers_dozen import BakersDozenDomain
from .freecell import FreeCellDomain
from .search import UNKNOWN, Budget, Result, best_first, portfolio

# Heuristic weight sets tried in turn, each up to a number of states (see
# search.portfolio); the first is the best alone.  Chosen on deals 1-1000 and on the
# slowest deals of 1-32000: each later set wins quickly on deals where the first dives.
_FC = ((3, 2, 1, 2, 3), (3, 2, 1, 4, 6), (1, 1, 1, 1, 1), (3, 2, 0, 2, 3), (2, 1, 1, 2, 3),
       (4, 3, 1, 2, 3), (2, 2, 0, 1, 2), (2, 1, 1, 1, 3))
FREECELL_SCHEDULE = tuple((w, 20_000) for w in _FC[:4]) + tuple((w, 100_000) for w in _FC)
BAKERS_SCHEDULE = (((2, 3, 1), 30_000), ((1, 1, 1), 30_000), ((3, 1, 2), 30_000),
                   ((1, 3, 0), 30_000))


def domain_for(game: Game) -> Any:
    """The search domain of ``game``'s position, with full knowledge of every card."""
    if game.key == "freecell":
        return FreeCellDomain(game)
    if game.key == "bakers-dozen":
        return BakersDozenDomain(game)
    if game.draw:
        from .klondike import KlondikeDomain

        return KlondikeDomain(game)
    raise ValueError(f"no solver for {game.key!r}")


def solve(game: Game, budget: Budget | float = 10.0) -> Result:
    """Solve ``game`` from its current position.  Klondike-family games are solved with
    full knowledge of the hidden cards: a server-side tool, never a player's hint."""
    if not isinstance(budget, Budget):
        budget = Budget(float(budget))
    if game.won:
        return Result("solved")
    domain = domain_for(game)
    if game.key == "freecell":
        return portfolio(domain, budget, FREECELL_SCHEDULE)
    if game.key == "bakers-dozen":
        return portfolio(domain, budget, BAKERS_SCHEDULE)
    return domain.search(budget) if hasattr(domain, "search") else best_first(domain, budget)


def solve_deal(game_key: str, seed: int, budget: Budget | float = 10.0) -> Result:
    return solve(new_game(game_key, seed), budget)


__all__ = ["UNKNOWN", "domain_for", "solve", "solve_deal"]
