"""Which search solves which game: a domain and a way to spend the budget, per game class.

A game class is solvable once it has a line here (its exact class: a subclass that changes
a rule may need another domain).  A game that only changes what a domain already reads
from the game -- columns, free cells, draw, passes -- reuses that domain's line.

>>> from games.engine import new_game
>>> solver_for(new_game("bakers-dozen", 1)).domain.__name__
'BakersDozenDomain'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..bakers_dozen import BakersDozen
from ..freecell import FreeCell
from ..game import Game
from ..klondike import Klondike, KlondikeDraw3, KlondikeOnePass, KlondikeThreePasses, Whitehorse
from . import bakers_dozen, freecell
from .klondike import KlondikeDomain
from .race import race
from .search import Budget, Result, portfolio


@dataclass(frozen=True)
class Solver:
    domain: Callable[[Game], Any]  # the search domain of a position, every card known
    search: Callable[[Any, Budget], Result]  # how a budget is spent on such a domain


_KLONDIKE = Solver(KlondikeDomain, KlondikeDomain.search)  # its own schedule of searches

SOLVERS: dict[type[Game], Solver] = {
    FreeCell: Solver(freecell.FreeCellDomain,
                     partial(race, schedule=freecell.SCHEDULE, entries=freecell.RACE)),
    BakersDozen: Solver(bakers_dozen.BakersDozenDomain,
                        partial(portfolio, schedule=bakers_dozen.SCHEDULE)),
    **dict.fromkeys(
        (Klondike, KlondikeDraw3, KlondikeThreePasses, KlondikeOnePass, Whitehorse), _KLONDIKE
    ),
}


def solver_for(game: Game) -> Solver:
    try:
        return SOLVERS[type(game)]
    except KeyError:
        raise ValueError(f"no solver for {game.key!r}") from None
