"""Solvers for every game: winning lines, proven dead ends, hints and certified deals.

Pure standard-library Python (the FreeCell search may also run compiled: :mod:`.native`).
One search framework (:mod:`.search`) with a transposition table on canonical keys, and
for FreeCell a race of three kinds of search in turns (:mod:`.race`); a thin domain per
game (:mod:`.freecell`, :mod:`.bakers_dozen`, :mod:`.klondike`), and per game class the
domain and search it uses (:mod:`.registry`).
A result is ``solved`` (with the moves in the game's notation), ``unsolvable`` (the search
space was exhausted: a proof) or ``unknown`` (budget spent).
"""

from __future__ import annotations

from . import native

native.check()  # before a compiled module that no longer matches its source is imported

from .api import domain_for, solve, solve_deal  # noqa: E402
from .certify import Certificate, certify  # noqa: E402
from .hint import Hint, hint  # noqa: E402
from .registry import SOLVERS, Solver, solver_for  # noqa: E402
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget, Result  # noqa: E402

__all__ = [
    "SOLVED",
    "SOLVERS",
    "UNKNOWN",
    "UNSOLVABLE",
    "Budget",
    "Certificate",
    "Hint",
    "Result",
    "Solver",
    "certify",
    "domain_for",
    "hint",
    "solve",
    "solve_deal",
    "solver_for",
]
