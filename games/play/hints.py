"""Hints (docs/rules.md, Hints): every one searched in the hint pool (``hint_pool``), never
in a web process's thread or on its event loop.

The engine marks its hint ``solver`` (the next move of a winning line), ``unsolvable``
(proven lost from here) or ``heuristic`` (no line in the budget: a move its heuristic
likes, never back to a position of the game's path).  A winning line a hint found is
remembered for its session, so the next hint follows it (the engine checks it still wins
from there without coming back to the path); on a daily, a hint another player got after
the same moves, or a line found from this very table, serves too (``analysis_cache``).

A hint that cannot run is refused with its reason (``HintUnavailable``, games/errors.py);
``refusal_pause`` says how long the answer waits first, so a client that loops on a
refused hint asks about once a second, not as fast as the server can answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings

from games.engine import Game, IllegalMove, seen
from games.engine.solver.search import SOLVED, UNSOLVABLE
from games.errors import HintUnavailable
from games.play import analysis_cache, hint_pool
from games.play.hint_jobs import Job

__all__ = ["Job", "abandon", "admit", "answer", "cancel", "refusal_pause", "start"]

_LINES_KEPT = 20_000  # sessions whose last winning line this process remembers
_lines: OrderedDict[str, tuple[int, list[str]]] = OrderedDict()
_lines_lock = threading.Lock()


def admit(session_id: object, player_id: object) -> tuple[Job, bool]:
    """A place in the pool for this request, before anything is counted, and whether it
    joined a search already asked for (see hint_pool)."""
    return hint_pool.admit(session_id, player_id)


def abandon(job: Job, joined: bool) -> None:
    if not joined:
        hint_pool.abandon(job)


def start(
    job: Job,
    joined: bool,
    g: Game,
    session_id: object,
    seq: int,
    daily: analysis_cache.Daily | None = None,
) -> Any:
    """Send the table to the pool, with the lines the engine may follow; a Hint at once
    when the daily's cache has this table's answer (then nothing is searched).  A joined
    request sends nothing: it waits for the search it joined."""
    if joined:
        return None
    cached = analysis_cache.hint(daily, g)
    if cached is not None and (cached.move is not None or cached.status == UNSOLVABLE):
        abandon(job, joined)
        return cached
    lines = [cached.line] if cached is not None and cached.line else []
    with _lines_lock:
        kept = _lines.get(str(session_id))
    if kept is not None and seq >= kept[0]:
        lines.append(kept[1][seq - kept[0] :])  # the moves played since, if they were its
    hint_pool.start(job, g, lines)
    return None


def answer(
    g: Game, found: Any, session_id: object, seq: int, daily: analysis_cache.Daily | None = None
) -> tuple[dict[str, Any] | None, str]:
    """The hint as the client gets it (a move object and its source), remembering its line
    for the session and, on a daily, the hint for the next player at this table."""
    if found.line and found.status == SOLVED:
        with _lines_lock:
            _lines[str(session_id)] = (seq, list(found.line))
            _lines.move_to_end(str(session_id))
            while len(_lines) > _LINES_KEPT:
                _lines.popitem(last=False)
    analysis_cache.keep_hint(daily, g, found)
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
    return None, source


def cancel(session_id: object) -> None:
    """A move on the session makes its hint moot: stop it."""
    hint_pool.cancel(session_id)


def refusal_pause(exc: HintUnavailable) -> float:
    """Seconds a refused hint's answer waits before it is sent (none for a hint the
    player's own move cancelled: they are playing)."""
    return 0.0 if exc.code == "hint_cancelled" else settings.HINT_REFUSED_WAIT
