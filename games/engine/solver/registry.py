"""Which search solves which game: a domain and a way to spend the budget, by the name a
game class declares (``Table.solver``), and the rules each domain plays by.

A domain is written for some rules and reads the rest from the game (columns, free cells,
draw, passes).  So each entry says which declared facts it plays by, and a game that names
a domain whose rules it does not follow is refused here rather than searched wrongly: a
search over another game's moves proves nothing (a subclass inherits its parent's solver,
and Yukon, a Klondike by its deal, would otherwise be "proven" lost by Klondike's moves).
tests/engine/test_declarations.py checks every domain's moves against the engine's.

>>> from games.engine import new_game
>>> solver_for(new_game("bakers-dozen", 1)).domain.__name__
'BakersDozenDomain'
>>> solver_for(new_game("whitehorse", 1)) is SOLVERS["klondike"]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..columns import (
    ALTERNATE,
    ANY_CARD,
    ANY_SUIT,
    FACE_UP_GROUPS,
    FREE_RUNS,
    KINGS_ONLY,
    NEVER_REFILLED,
    SINGLE_CARD,
    SUPERMOVE,
)
from ..game import Game
from . import bakers_dozen, freecell, yukon
from .klondike import KlondikeDomain
from .race import race
from .search import Budget, Result, portfolio


@dataclass(frozen=True)
class Solver:
    domain: Callable[[Game], Any]  # the search domain of a position, every card known
    search: Callable[[Any, Budget], Result]  # how a budget is spent on such a domain
    # The declared facts (Table's attributes) the domain's moves follow, with their values.
    plays: tuple[tuple[str, Any], ...] = ()

    def refusal(self, cls: type[Game]) -> str | None:
        """Which of ``cls``'s declared facts this solver does not play by, or None."""
        wrong = [
            f"{name} {getattr(cls, name)!r} (it plays {value!r})"
            for name, value in self.plays
            if getattr(cls, name) != value
        ]
        return ", ".join(wrong) or None


SOLVERS: dict[str, Solver] = {
    "klondike": Solver(  # its own schedule of searches
        KlondikeDomain,
        KlondikeDomain.search,
        (("build", ALTERNATE), ("empty_pile", KINGS_ONLY), ("runs", FREE_RUNS), ("free_cells", 0)),
    ),
    "freecell": Solver(
        freecell.FreeCellDomain,
        partial(race, schedule=freecell.SCHEDULE, entries=freecell.RACE),
        (
            ("build", ALTERNATE),
            ("empty_pile", ANY_CARD),
            ("runs", SUPERMOVE),
            ("draw", 0),
            ("foundation_back", False),
            ("hides_cards", False),
        ),
    ),
    "bakers-dozen": Solver(
        bakers_dozen.BakersDozenDomain,
        partial(portfolio, schedule=bakers_dozen.SCHEDULE),
        (
            ("build", ANY_SUIT),
            ("empty_pile", NEVER_REFILLED),
            ("runs", SINGLE_CARD),
            ("draw", 0),
            ("free_cells", 0),
            ("foundation_back", False),
            ("hides_cards", False),
        ),
    ),
    "yukon": Solver(
        yukon.YukonDomain,
        partial(portfolio, schedule=yukon.SCHEDULE),
        (
            ("build", ALTERNATE),
            ("empty_pile", KINGS_ONLY),
            ("runs", FACE_UP_GROUPS),
            ("draw", 0),
            ("free_cells", 0),
            ("foundation_back", False),
        ),
    ),
}

_CHECKED: dict[type[Game], Solver] = {}


def solver_of(cls: type[Game]) -> Solver:
    """The solver game class ``cls`` declares; ValueError when it declares none, or one
    that does not play by its rules."""
    found = _CHECKED.get(cls)
    if found is not None:
        return found
    if cls.solver is None:
        raise ValueError(f"no solver for {cls.key!r}")
    solver = SOLVERS.get(cls.solver)
    if solver is None:
        raise ValueError(
            f"{cls.key!r} names the solver {cls.solver!r}; solvers: {', '.join(SOLVERS)}"
        )
    wrong = solver.refusal(cls)
    if wrong:
        raise ValueError(
            f"no solver for {cls.key!r}: the {cls.solver} solver does not play by its {wrong}"
        )
    _CHECKED[cls] = solver
    return solver


def solver_for(game: Game) -> Solver:
    return solver_of(type(game))


def has_solver(cls: type[Game]) -> bool:
    try:
        solver_of(cls)
    except ValueError:
        return False
    return True
