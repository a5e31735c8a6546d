"""The Redis rank index: one sorted set per (game, day), member = session id.

PostgreSQL holds the truth; this index only answers "what is my rank" and "who is around
me" in O(log n).  When Redis has lost a set (flushed, restarted), the first lookup rebuilds it
from PostgreSQL.  Without Redis configured every lookup is answered by PostgreSQL instead.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import redis
from django.conf import settings

from config import redis_client
from leaderboards.models import Entry

BATCH = 10_000


def _client() -> redis.Redis:
    return redis_client.client()


def client() -> redis.Redis | None:
    return _client() if settings.REDIS_URL else None


def key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:rank:{game}:{date.isoformat()}"


def _ready(r: redis.Redis, game: str, date: dt.date) -> str:
    k = key(game, date)
    if not r.exists(k):
        rebuild(game, date)
    return k


def add(entry: Entry) -> None:
    r = client()
    if r is None:
        return
    k = _ready(r, entry.game, entry.date)
    r.zadd(k, {str(entry.session_id): entry.sort_key})


def remove(game: str, date: dt.date, session_id: Any) -> None:
    r = client()
    if r is not None:
        r.zrem(key(game, date), str(session_id))


def rebuild(game: str, date: dt.date) -> int:
    """Replace the set with what PostgreSQL says; returns the number of members."""
    r = client()
    if r is None:
        return 0
    k = key(game, date)
    tmp = f"{k}:rebuild"
    r.delete(tmp)
    rows = (
        Entry.objects.filter(game=game, date=date, session__disqualified=False)
        .values_list("session_id", "sort_key")
        .iterator(chunk_size=BATCH)
    )
    count, batch = 0, {}
    for session_id, sort_key in rows:
        batch[str(session_id)] = sort_key
        if len(batch) >= BATCH:
            r.zadd(tmp, batch)
            count, batch = count + len(batch), {}
    if batch:
        r.zadd(tmp, batch)
        count += len(batch)
    if count:
        r.rename(tmp, k)  # atomic swap: readers never see a half-built set
    else:
        r.delete(k)
    return count


def rank(game: str, date: dt.date, session_id: Any) -> int | None:
    """1-based rank of a session's entry, or None when it has none."""
    r = client()
    if r is None:
        return _pg_rank(game, date, session_id)
    pos = cast(int | None, r.zrank(_ready(r, game, date), str(session_id)))
    return None if pos is None else pos + 1


def around(game: str, date: dt.date, session_id: Any, width: int = 5) -> list[tuple[str, int]]:
    """(session id, rank) of the entries from ``width`` above to ``width`` below a session."""
    r = client()
    if r is None:
        return _pg_around(game, date, session_id, width)
    k = _ready(r, game, date)
    pos = cast(int | None, r.zrank(k, str(session_id)))
    if pos is None:
        return []
    start = max(0, pos - width)
    members = cast(list[bytes], r.zrange(k, start, pos + width))
    return [(m.decode(), start + i + 1) for i, m in enumerate(members)]


def _ordered(game: str, date: dt.date) -> Any:
    return Entry.objects.filter(game=game, date=date, session__disqualified=False).order_by(
        "sort_key", "session_id"
    )


def _pg_rank(game: str, date: dt.date, session_id: Any) -> int | None:
    mine = Entry.objects.filter(session_id=session_id).values_list("sort_key", flat=True).first()
    if mine is None:
        return None
    qs = _ordered(game, date)
    ahead = qs.filter(sort_key__lt=mine).count()
    ties = qs.filter(sort_key=mine, session_id__lt=session_id).count()
    return ahead + ties + 1


def _pg_around(game: str, date: dt.date, session_id: Any, width: int) -> list[tuple[str, int]]:
    pos = _pg_rank(game, date, session_id)
    if pos is None:
        return []
    start = max(1, pos - width)
    ids = _ordered(game, date).values_list("session_id", flat=True)[start - 1 : pos + width]
    return [(str(s), start + i) for i, s in enumerate(ids)]
