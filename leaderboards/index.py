"""The Redis rank index: one sorted set per (game, day), member = session id, score = the
entry's sort key (ties by session id, as PostgreSQL orders them: a UUID's text sorts as its
bytes).

PostgreSQL holds the truth; this index answers "what is my rank", "who is around me", "how
many are on the board" and "who is on page n" in O(log n), so that a board of a million
entries costs a request no more than one of ten.  A set Redis has lost (flushed, restarted)
is never rebuilt inside a request: the request asks for a rebuild (``want``, a task) and is
answered from PostgreSQL meanwhile; the rebuild fills a set of its own in batches and swaps
it in at once.  Without Redis configured every lookup is answered by PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import redis
from celery import shared_task
from django.conf import settings
from django.db import connection
from django.db.models import QuerySet

from config import redis_client
from games.daily.deals import today
from games.engine import DAILY_GAMES
from leaderboards.models import Entry

BATCH = 25_000
WANT_SECONDS = 300  # a rebuild asked for is not asked for again meanwhile
S_TABLE, E_TABLE = "games_gamesession", Entry._meta.db_table
# Holds the set being rebuilt open from its first moment, so that an entry scored while the
# rebuild reads PostgreSQL is added to it (``_ADD``) instead of being lost in the swap.
BUILDING = "~building"

# An entry goes to the live set when there is one (or the day is known to be empty), else
# to a set being rebuilt; with neither it is left to the rebuild that will read it.
_ADD = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]); redis.call('DEL', KEYS[3]); return 1
end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2]); return 2 end
return 0
"""
_SWAP = """
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('RENAME', KEYS[2], KEYS[1]); redis.call('DEL', KEYS[3])
else
  redis.call('DEL', KEYS[1]); redis.call('SET', KEYS[3], '1')
end
return redis.call('ZCARD', KEYS[1])
"""


def _client() -> redis.Redis:
    return redis_client.client()


def client() -> redis.Redis | None:
    return _client() if settings.REDIS_URL else None


def key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:rank:{game}:{date.isoformat()}"


def _keys(game: str, date: dt.date) -> list[str]:
    """The live set, the set being rebuilt, the mark of a day with no entries."""
    k = key(game, date)
    return [k, f"{k}:rebuild", f"{k}:empty"]


def want(game: str, date: dt.date) -> None:
    """Ask a worker to rebuild the set (once per WANT_SECONDS, whoever asks)."""
    r = client()
    if r is not None and r.set(f"{key(game, date)}:wanted", "1", nx=True, ex=WANT_SECONDS):
        rebuild_rank_index.apply_async((game, date.isoformat()), queue=settings.CELERY_CLOSE_QUEUE)


# Named as when it lived in leaderboards/tasks.py (CELERY_TASK_ROUTES, queued messages).
@shared_task(name="leaderboards.tasks.rebuild_rank_index", acks_late=True)
def rebuild_rank_index(game: str | None = None, date: str | None = None) -> dict[str, int]:
    """Rebuild the Redis index from PostgreSQL (all daily games of a day by default)."""
    day = dt.date.fromisoformat(date) if date else today()
    games = [game] if game else list(DAILY_GAMES)
    return {g: rebuild(g, day) for g in games}


def size(game: str, date: dt.date) -> int | None:
    """How many entries the set holds; None when Redis has no set (asked for, then)."""
    r = client()
    if r is None:
        return None
    k, _, empty = _keys(game, date)
    with r.pipeline(transaction=False) as p:
        p.zcard(k)
        p.exists(empty)
        count, known_empty = p.execute()
    if count or known_empty:
        return int(count)
    want(game, date)
    return None


def page(game: str, date: dt.date, offset: int, limit: int) -> tuple[int, list[str]] | None:
    """(entries on the board, session ids of rows ``offset`` to ``offset + limit``); None
    when Redis has no set, which is then asked for."""
    r = client()
    if r is None:
        return None
    k, _, empty = _keys(game, date)
    with r.pipeline(transaction=False) as p:
        p.zcard(k)
        p.zrange(k, offset, offset + limit - 1)
        p.exists(empty)
        count, members, known_empty = p.execute()
    if not count and not known_empty:
        want(game, date)
        return None
    return int(count), [m.decode() for m in members]


def add(entry: Entry) -> None:
    r = client()
    if r is None:
        return
    keys = _keys(entry.game, entry.date)
    if not r.eval(_ADD, 3, *keys, entry.sort_key, str(entry.session_id)):
        want(entry.game, entry.date)


def remove(game: str, date: dt.date, session_id: Any) -> None:
    r = client()
    if r is not None:
        k, tmp, _ = _keys(game, date)
        with r.pipeline(transaction=False) as p:
            p.zrem(k, str(session_id))
            p.zrem(tmp, str(session_id))
            p.execute()


def _disqualified(game: str, date: dt.date) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.id FROM {S_TABLE} s JOIN games_deal d ON d.id = s.deal_id "
            "WHERE d.game = %s AND d.date = %s AND s.ranked AND s.disqualified",
            [game, date],
        )
        return {str(row[0]) for row in cursor.fetchall()}


def _batches(game: str, date: dt.date) -> Iterator[dict[str, int]]:
    """The day's entries in rank order, BATCH at a time: a range of entry_order_idx from
    where the last batch ended, the disqualified left out."""
    skip = _disqualified(game, date)
    pg = connection.vendor == "postgresql"
    column = "session_id::text" if pg else "session_id"  # SQLite keeps the bare hex
    last: tuple[Any, Any] | None = None
    while True:
        after = "" if last is None else "AND (sort_key, session_id) > (%s, %s) "
        with connection.cursor() as cursor:
            cursor.execute(
                # The id as text: what Redis stores, made by the database (no UUID objects).
                f"SELECT {column}, sort_key FROM {E_TABLE} WHERE game = %s AND date = %s "
                f"{after}ORDER BY sort_key, session_id LIMIT {BATCH}",
                [game, date, *(last or ())],
            )
            rows = cursor.fetchall()
        if not pg:
            rows = [(str(uuid.UUID(str(sid))), key) for sid, key in rows]
        yield {sid: key for sid, key in rows if sid not in skip}
        if len(rows) < BATCH:
            return
        last = (rows[-1][1], rows[-1][0] if pg else uuid.UUID(rows[-1][0]).hex)


def rebuild(game: str, date: dt.date, progress: Callable[[str], None] | None = None) -> int:
    """Replace the set with what PostgreSQL says; returns the number of members.  Reads the
    entries in rank order a batch at a time (never a whole day in memory), each batch sent
    in one command from a thread while the next is read."""
    r = client()
    if r is None:
        return 0
    k, tmp, empty = _keys(game, date)
    r.delete(tmp)
    r.zadd(tmp, {BUILDING: float("-inf")})
    r.expire(tmp, 3600)  # a rebuild that died leaves nothing behind for long
    count, sending = 0, None
    with ThreadPoolExecutor(1) as sender:
        for batch in _batches(game, date):
            if sending is not None:
                sending.result()
            if batch:
                sending = sender.submit(r.zadd, tmp, batch)
            if progress is not None and (count + len(batch)) // 200_000 > count // 200_000:
                progress(f"{game}: rank index, {count + len(batch)} entries so far")
            count += len(batch)
        if sending is not None:
            sending.result()
    total = int(cast(int, r.eval(_SWAP, 3, k, tmp, empty, BUILDING)))
    r.delete(f"{k}:wanted")
    return total


def rank(game: str, date: dt.date, session_id: Any) -> int | None:
    """1-based rank of a session's entry, or None when it has none."""
    r = client()
    if r is None:
        return _pg_rank(game, date, session_id)
    k, _, empty = _keys(game, date)
    with r.pipeline(transaction=False) as p:
        p.zrank(k, str(session_id))
        p.exists(k, empty)
        pos, present = p.execute()
    if pos is not None:
        return int(pos) + 1
    if present:
        return None
    want(game, date)
    return _pg_rank(game, date, session_id)


def around(game: str, date: dt.date, session_id: Any, width: int = 5) -> list[tuple[str, int]]:
    """(session id, rank) of the entries from ``width`` above to ``width`` below a session."""
    r = client()
    k = key(game, date)
    pos = None if r is None else cast(int | None, r.zrank(k, str(session_id)))
    if pos is None:
        if r is not None and not r.exists(k):
            want(game, date)
        return _pg_around(game, date, session_id, width)
    start = max(0, pos - width)
    members = cast(list[bytes], cast(redis.Redis, r).zrange(k, start, pos + width))
    return [(m.decode(), start + i + 1) for i, m in enumerate(members)]


def _ordered(game: str, date: dt.date) -> QuerySet[Entry]:
    return Entry.objects.filter(game=game, date=date, session__disqualified=False).order_by(
        "sort_key", "session_id"
    )


def _pg_rank(game: str, date: dt.date, session_id: Any) -> int | None:
    """The rank PostgreSQL gives: the stored final rank of a closed day, else a count."""
    mine = Entry.objects.filter(session_id=session_id).values_list("sort_key", "final_rank").first()
    if mine is None:
        return None
    if mine[1] is not None:
        return int(mine[1])
    qs = _ordered(game, date)
    ahead = qs.filter(sort_key__lt=mine[0]).count()
    ties = qs.filter(sort_key=mine[0], session_id__lt=session_id).count()
    return ahead + ties + 1


def _pg_around(game: str, date: dt.date, session_id: Any, width: int) -> list[tuple[str, int]]:
    pos = _pg_rank(game, date, session_id)
    if pos is None:
        return []
    start = max(1, pos - width)
    ids = _ordered(game, date).values_list("session_id", flat=True)[start - 1 : pos + width]
    return [(str(s), start + i) for i, s in enumerate(ids)]
