"""The unfinished attempts of a day still being played, as its board shows them: after the
wins, by cards up, then fewer moves (their sort key, leaderboards/keys.py).

They change with every move, so no index keeps them in order (an index on cards up would
make every move's write update every index of the sessions table).  Instead a task counts
them and, while the board's pages can still reach them (fewer wins than the deepest page),
writes their order to a Redis sorted set, at most once every ``BOARD_COUNT_SECONDS`` per
board, asked for by the requests that read them: a request reads a count and a range,
never counts or sorts the day's sessions itself.  A board seen for the first time since
Redis lost these keys is counted once in the request (two index-only counts, no join).
Without Redis everything is read from PostgreSQL as it is asked for.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from celery import shared_task
from django.conf import settings
from django.db import connection

from games.models import Deal, GameSession
from leaderboards import index
from leaderboards.keys import sort_key_sql

S = GameSession._meta.db_table
DEEPEST = 10_100  # the deepest row a board page shows (ranking.MAX_OFFSET + 100)


def _keys(game: str, date: dt.date) -> tuple[str, str, str]:
    base = f"{settings.REDIS_KEY_PREFIX}:pending:{game}:{date.isoformat()}"
    return base, f"{base}:counts", f"{base}:fresh"


def _unfinished(deal_id: int) -> Any:
    return GameSession.objects.filter(
        deal_id=deal_id, ranked=True, disqualified=False, started_at__isnull=False
    ).exclude(status=GameSession.WON)


def count(deal_id: int) -> tuple[int, int]:
    """(unfinished attempts, won ranked sessions) of a deal, from PostgreSQL."""
    won = GameSession.objects.filter(
        deal_id=deal_id, ranked=True, disqualified=False, status=GameSession.WON
    ).count()
    return _unfinished(deal_id).count(), won


def ordered(game: str, deal_id: int, offset: int, limit: int) -> list[str]:
    """Session ids of unfinished attempts ``offset`` to ``offset + limit``, by sort key."""
    key = sort_key_sql(game, "FALSE", "score", "NULL", "move_count", "cards_up")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {S} WHERE deal_id = %s AND ranked AND NOT disqualified "
            "AND started_at IS NOT NULL AND status <> %s "
            f"ORDER BY {key}, id LIMIT %s OFFSET %s",
            [deal_id, GameSession.WON, limit, offset],
        )
        return [str(row[0]) for row in cursor.fetchall()]


def refresh(game: str, date: dt.date, deal_id: int) -> tuple[int, int]:
    """Count the unfinished attempts and write their order (the task's work)."""
    r = index.client()
    unfinished, won = count(deal_id)
    if r is None:
        return unfinished, won
    base, counts, _ = _keys(game, date)
    reach = DEEPEST - won  # rows of unfinished attempts the deepest page can show
    with r.pipeline(transaction=True) as p:
        p.set(counts, f"{unfinished} {won}", ex=86400)
        if reach <= 0 or not unfinished:
            p.delete(base)
        else:
            ids = ordered(game, deal_id, 0, reach)
            p.delete(base)
            # The score is the position: ties and all, the order the query gave.
            p.zadd(base, {sid: n for n, sid in enumerate(ids)})
            p.expire(base, 86400)
        p.execute()
    return unfinished, won


def counts(game: str, date: dt.date, deal_id: int) -> tuple[int, int]:
    """(unfinished attempts, won ranked sessions) as last counted, and a recount asked for
    when that count is older than BOARD_COUNT_SECONDS."""
    r = index.client()
    if r is None:
        return count(deal_id)
    _, key, fresh = _keys(game, date)
    if settings.BOARD_COUNT_SECONDS <= 0 or r.set(
        fresh, "1", nx=True, ex=settings.BOARD_COUNT_SECONDS
    ):
        refresh_board.delay(game, date.isoformat())
    got = cast(bytes | None, r.get(key))
    if got is None:
        return refresh(game, date, deal_id)  # first sight since Redis lost it
    unfinished, won = (int(x) for x in got.split())
    return unfinished, won


# Named as when it lived in leaderboards/tasks.py: a message queued before still finds it.
@shared_task(name="leaderboards.tasks.refresh_board", acks_late=True)
def refresh_board(game: str, date: str) -> None:
    """Count a live day's unfinished attempts and write their order."""
    day = dt.date.fromisoformat(date)
    deal = Deal.objects.filter(game=game, date=day).values_list("id", flat=True).first()
    if deal is not None:
        refresh(game, day, deal)


def page(game: str, date: dt.date, deal_id: int, offset: int, limit: int) -> list[str]:
    """Session ids of unfinished attempts ``offset`` to ``offset + limit``, in board order
    as last written (the rows themselves are read fresh by the caller)."""
    if limit <= 0:
        return []
    r = index.client()
    if r is None:
        return ordered(game, deal_id, offset, limit)
    base, _, _ = _keys(game, date)
    return [m.decode() for m in cast(list[bytes], r.zrange(base, offset, offset + limit - 1))]


def unscored_wins(deal_id: int) -> list[GameSession]:
    """Wins stored whose scoring has not run yet: shown at once, among the unfinished
    attempts' rows' head (they rank by the same key).  Read only when a page reaches past
    the scored wins, so at most a page's depth of won sessions is looked through."""
    return list(
        GameSession.objects.filter(
            deal_id=deal_id,
            ranked=True,
            disqualified=False,
            status=GameSession.WON,
            entry__isnull=True,
        )
        .select_related("player", "deal")
        .defer("legacy_moves")[:DEEPEST]
    )
