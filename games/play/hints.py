"""Hints (docs/rules.md, Hints): the solver's move, searched in a worker process, else a plain heuristic.

The solver marks its hint ``solver`` (on a winning line), ``unsolvable`` (proven lost from
here) or ``heuristic`` (no verdict in the budget).  When there is no search for this request
(the player's hint budget is spent, a newer hint replaced it, the pool is full or broken:
see :mod:`games.play.hint_pool`), the answer is our own heuristic at once: a card that can go up,
else a move on the table, else the stock -- never one that only takes back the last move.
"""

from __future__ import annotations

from typing import Any

from games.engine import Game, IllegalMove, seen
from games.engine.piles import FOUNDATION, STOCK
from games.engine.solver.search import SOLVED, UNSOLVABLE
from games.play import analysis_cache, hint_pool

__all__ = ["cancel", "heuristic", "suggest"]


def suggest(g: Game, session_id: object, player_id: object,
            daily: analysis_cache.Daily | None = None) -> tuple[dict[str, Any] | None, str]:
    """A move worth playing and where it came from (``solver``, ``unsolvable`` or
    ``heuristic``).  ``g`` is ours alone: it goes to the worker as it is.  On a daily,
    a hint another player got on this very table (or a line found from it) is the hint
    again without a search (``analysis_cache``), and a search's is kept for the next."""
    found = analysis_cache.hint(daily, g)
    if found is None:
        found = hint_pool.search(g, session_id, player_id)
        if found is not None:
            analysis_cache.keep_hint(daily, g, found)
    if found is not None:
        answer = _solver_answer(g, found)
        if answer is not None:
            return answer
    return heuristic(g), "heuristic"


def cancel(session_id: object) -> None:
    """A move on the session makes its running hint search moot: stop it."""
    hint_pool.cancel(session_id)


def _solver_answer(g: Game, found: Any) -> tuple[dict[str, Any] | None, str] | None:
    source = {SOLVED: "solver", UNSOLVABLE: "unsolvable"}.get(found.status, "heuristic")
    if found.move is None:
        return None, source
    for obj in seen.move_objects(g):
        if obj["move"] == found.move:
            return obj, source
    try:
        move = g.parse(found.move)  # the same move, spelt another way
    except IllegalMove:
        move = None
    if move is not None and g.reason(move) is None:
        return seen.move_object(g, move), source
    return None


def heuristic(g: Game) -> dict[str, Any] | None:
    """Cheap enough for the server's own thread: no search."""
    moves = list(g.legal_moves())
    last = _last_move(g)
    candidates = [m for m in moves if not _reverses(m, last)] or moves
    ups = [m for m in candidates if FOUNDATION <= m[1] < STOCK]
    table = [m for m in candidates if STOCK not in (m[0], m[1])]
    for group in (ups, table, candidates):
        if group:
            return seen.move_object(g, group[0])
    return None


def _last_move(g: Game) -> tuple[int, int, int] | None:
    history = getattr(g, "history", None)
    if history:
        return history[-1][0]  # type: ignore[no-any-return]
    return None


def _reverses(move: tuple[int, int, int], last: tuple[int, int, int] | None) -> bool:
    """A hint never only takes back the previous move (docs/rules.md, Hints)."""
    return last is not None and move[0] == last[1] and move[1] == last[0] and move[2] == last[2]
