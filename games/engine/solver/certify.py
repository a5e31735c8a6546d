"""Certifying daily deals (docs/rules.md, The daily challenge): the first candidate seed the
solver wins.

For (date, game) the candidates are ``daily_seed(date, game, secret, 0)``, ``..., 1)`` and
so on; the first one solved within the budget is the day's deal, and its solution --
replayed through the engine before it is trusted -- gives the deal's par move count.
Klondike-family deals are solved with full knowledge of the cards: this runs on the
server only and its moves are never shown to players.

>>> import datetime as dt
>>> c = certify(dt.date(2026, 1, 1), "freecell", "secret", budget=10)
>>> c is not None and c.par == len(c.moves)
True
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field

from ..catalogue import daily_seed
from ..record import ReplayError, replay
from .api import solve_deal
from .search import SOLVED, Budget


@dataclass
class Certificate:
    game: str
    date: dt.date
    seed: int
    candidate: int  # how many candidates were passed over before this one
    moves: list[str] = field(default_factory=list)
    seconds: float = 0.0
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (seed, verdict)
    states: int = 0  # positions the winning search looked at: the deal's difficulty

    @property
    def par(self) -> int:
        return len(self.moves)


def certify(
    date: dt.date,
    game: str,
    secret: str | bytes,
    budget: float = 10.0,
    max_candidates: int = 50,
    states: int = 3_000_000,
    first_candidate: int = 0,
) -> Certificate | None:
    """The first winnable candidate deal of (date, game) from ``first_candidate`` on (a
    replaced daily's successor starts past the one it replaces), or None if none was
    certified among ``max_candidates`` (the caller should alert an operator)."""
    t0 = time.monotonic()
    rejected: list[tuple[int, str]] = []
    for candidate in range(first_candidate, first_candidate + max_candidates):
        seed = daily_seed(date, game, secret, candidate)
        r = solve_deal(game, seed, Budget(budget, states))
        if r.status == SOLVED and _replays_as_win(game, seed, r.moves):
            return Certificate(
                game, date, seed, candidate, r.moves, time.monotonic() - t0, rejected, r.states
            )
        rejected.append((seed, r.status))
    return None


def _replays_as_win(game: str, seed: int, moves: list[str]) -> bool:
    try:
        return replay(game, seed, moves).won
    except ReplayError:
        return False
