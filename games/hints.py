"""Hints (SPEC 3.6): the solver's move when it is installed, else a plain heuristic.

The solver marks its hint ``solver`` (on a winning line), ``unsolvable`` (proven lost from
here) or ``heuristic`` (no verdict in the budget).  Without the solver: a card that can go
up, else a move on the table, else the stock -- never one that only takes back the last move.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.engine import Game, IllegalMove
from games.engine.piles import FOUNDATION, STOCK


def suggest(g: Game) -> tuple[dict[str, Any] | None, str]:
    """A move worth playing: the solver's when it is installed (``solver`` when on a winning
    line, ``unsolvable`` when proven lost, else its ``heuristic`` pick), else a plain
    heuristic of our own."""
    try:
        from games.engine.solver import SOLVED, UNSOLVABLE
        from games.engine.solver import hint as solver_hint
    except ImportError:
        solver_hint = None
    if solver_hint is not None:
        found = solver_hint(g, settings.HINT_BUDGET_SECONDS)
        source = {SOLVED: "solver", UNSOLVABLE: "unsolvable"}.get(found.status, "heuristic")
        if found.move is None:
            return None, source
        for obj in g.legal_move_objects():
            if obj["move"] == found.move:
                return obj, source
        try:
            move = g.parse(found.move)  # the same move, spelt another way
        except IllegalMove:
            move = None
        if move is not None and g.reason(move) is None:
            return g.move_object(move), source
    moves = list(g.legal_moves())
    last = _last_move(g)
    candidates = [m for m in moves if not _reverses(m, last)] or moves
    ups = [m for m in candidates if FOUNDATION <= m[1] < STOCK]
    table = [m for m in candidates if STOCK not in (m[0], m[1])]
    for group in (ups, table, candidates):
        if group:
            return g.move_object(group[0]), "heuristic"
    return None, "heuristic"


def _last_move(g: Game) -> tuple[int, int, int] | None:
    history = getattr(g, "history", None)
    if history:
        return history[-1][0]  # type: ignore[no-any-return]
    return None


def _reverses(move: tuple[int, int, int], last: tuple[int, int, int] | None) -> bool:
    """A hint never only takes back the previous move (SPEC 3.6)."""
    return last is not None and move[0] == last[1] and move[1] == last[0] and move[2] == last[2]
