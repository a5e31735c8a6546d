"""The week and all-time boards (players by daily wins), kept computed in the shared cache.

Each board is computed (``stats.period_board``: a grouping of every entry of the period)
once, then answered from the cache.  What changes a board -- a win scored, a day closed, a
disqualification, a merge -- marks it stale (``invalidate``, a new version); the next
request still answers the stale board at once and asks a worker to compute it again, at
most once every ``PERIOD_BOARD_SECONDS`` per board, so a busy day's stream of wins costs
one computation a minute, not one per request or per win.  Only a board the cache has
never held (or lost) is computed in the request that finds it missing.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from leaderboards import stats

KEEP = 7 * 86400  # a board nobody asks for is let go after a week


def _span(start: dt.date | None) -> str:
    return "all" if start is None else start.isoformat()


def _keys(game: str, start: dt.date | None) -> tuple[str, str, str]:
    base = f"periods:{game}:{_span(start)}"
    return base, f"{base}:version", f"{base}:asked"


def week(day: dt.date) -> tuple[dt.date, dt.date]:
    """The ISO week (Monday to Sunday) holding ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def refresh(game: str, start: dt.date | None, end: dt.date | None) -> list[dict[str, Any]]:
    """Compute a board and keep it, stamped with the version it was computed from."""
    data, version, _ = _keys(game, start)
    stamp = cache.get(version, 0)
    rows = stats.period_board(game, start, end)
    cache.set(data, (stamp, rows), KEEP)
    return rows


def board(
    game: str, start: dt.date | None = None, end: dt.date | None = None
) -> list[dict[str, Any]]:
    """The board as kept; a stale one is answered as it is while a worker recomputes it."""
    data, version, asked = _keys(game, start)
    got = cache.get_many([data, version])
    kept, current = got.get(data), got.get(version, 0)
    if kept is None:
        return refresh(game, start, end)
    if kept[0] != current and (
        settings.PERIOD_BOARD_SECONDS <= 0 or cache.add(asked, 1, settings.PERIOD_BOARD_SECONDS)
    ):
        refresh_period_board.delay(
            game, start.isoformat() if start else None, end.isoformat() if end else None
        )
        kept = cache.get(data, kept)  # a task run in line (no worker) has just written it
    return list(kept[1])


# Named as when it lived in leaderboards/tasks.py: a message queued before still finds it.
@shared_task(name="leaderboards.tasks.refresh_period_board", acks_late=True)
def refresh_period_board(game: str, start: str | None, end: str | None) -> None:
    """Compute a week or all-time board again."""
    refresh(
        game,
        dt.date.fromisoformat(start) if start else None,
        dt.date.fromisoformat(end) if end else None,
    )


def invalidate(game: str, day: dt.date) -> None:
    """A change on ``day``: its week's board and the all-time board are stale."""
    stamp = time.time_ns()
    cache.set_many({_keys(game, start)[1]: stamp for start in (None, week(day)[0])}, None)
