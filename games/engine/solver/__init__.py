"""Solvers for every game: winning lines, proven dead ends, hints and certified deals.

Pure standard-library Python.  One search framework (:mod:`.search`) with a transposition
table on canonical keys; a thin domain per game (:mod:`.freecell`, :mod:`.bakers_dozen`,
:mod:`.klondike`), and per game class the domain and search it uses (:mod:`.registry`).
A result is ``solved`` (with the moves in the game's notation), ``unsolvable`` (the search
space was exhausted: a proof) or ``unknown`` (budget spent).
"""

from __future__ import annotations

from .api import domain_for, solve, solve_deal
from .certify import Certificate, certify
from .hint import Hint, hint
from .registry import SOLVERS, Solver, solver_for
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget, Result

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
