"""How many play sockets are open on a daily deal ("playing now" on the boards and home).

Kept in Redis as a sorted set per (game, day) of socket names, each scored with the last
time its process said the socket was open, so every process counts the same sockets (or in
this process without Redis).  As the race does (games/live/race.py), every process rewrites
the time of its own sockets every ``HEARTBEAT`` seconds, from a thread of its own, and a
socket not rewritten for ``STALE`` seconds is not counted: its process died (``kill -9``, a
host lost) without saying goodbye.  The same thread sweeps such sockets out of every day's
set and tells the boards the new count, so "playing now" is right within ``STALE`` +
``HEARTBEAT`` seconds of any process dying, with no process of its own.  A change is told
through ``games.signals.presence_changed``; the boards push the new count to their watchers.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import threading
import time
from collections import defaultdict
from typing import cast

import redis
from django.conf import settings

from config import redis_client
from games import signals

log = logging.getLogger(__name__)

HEARTBEAT = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "10"))
STALE = float(os.environ.get("PRESENCE_STALE_SECONDS", "30"))
DAY_SECONDS = 2 * 24 * 3600  # a day's set fades with the day

_local: dict[str, set[str]] = defaultdict(set)
_mine: dict[tuple[str, dt.date], set[str]] = defaultdict(set)  # this process's sockets
# Held across a change to _mine and its write, and across a heartbeat's snapshot and
# write, so a heartbeat never writes back a socket that has just left.
_lock = threading.Lock()
_beating: threading.Thread | None = None


def _client() -> redis.Redis:
    return redis_client.client()


# Not the ``presence:`` keys of the release before, which were plain sets: a sorted-set
# command on one of those fails, so during a deploy each release keeps its own keys (and
# counts its own sockets) until the old ones expire with their day.
def _key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:playing:{game}:{date.isoformat()}"


def _days_key() -> str:
    """The (game, day) sets that may hold sockets, for the sweep: ``game|YYYY-MM-DD``."""
    return f"{settings.REDIS_KEY_PREFIX}:playing:days"


def playing(game: str, date: dt.date) -> int:
    if not settings.REDIS_URL:
        return len(_local[_key(game, date)])
    r = _client()
    return int(cast(int, r.zcount(_key(game, date), f"({time.time() - STALE}", "+inf")))


def join(game: str, date: dt.date, channel: str) -> None:
    k = _key(game, date)
    if not settings.REDIS_URL:
        _local[k].add(channel)
    else:
        with _lock:
            _mine[(game, date)].add(channel)
            pipe = _client().pipeline(transaction=False)
            pipe.zadd(k, {channel: time.time()})
            pipe.expire(k, DAY_SECONDS)
            pipe.sadd(_days_key(), f"{game}|{date.isoformat()}")
            pipe.expire(_days_key(), DAY_SECONDS)
            pipe.execute()
        _start_beating()
    signals.presence_changed.send(join, game=game, date=date)


def leave(game: str, date: dt.date, channel: str) -> None:
    k = _key(game, date)
    if not settings.REDIS_URL:
        _local[k].discard(channel)
    else:
        with _lock:
            mine = _mine.get((game, date))
            if mine is not None:
                mine.discard(channel)
                if not mine:
                    del _mine[(game, date)]
            _client().zrem(k, channel)
    signals.presence_changed.send(leave, game=game, date=date)


def _start_beating() -> None:
    global _beating
    with _lock:
        if _beating is not None and _beating.is_alive():
            return
        _beating = threading.Thread(target=_beat_forever, name="presence", daemon=True)
        _beating.start()


def beat() -> None:
    """Rewrite the time of this process's sockets (all of them: Redis may have restarted
    empty), then sweep every day's set of the sockets gone stale and tell their boards."""
    r = _client()
    now = time.time()
    with _lock:
        if _mine:
            pipe = r.pipeline(transaction=False)
            for (game, date), channels in _mine.items():
                k = _key(game, date)
                pipe.zadd(k, dict.fromkeys(channels, now))
                pipe.expire(k, DAY_SECONDS)
                pipe.sadd(_days_key(), f"{game}|{date.isoformat()}")
            pipe.expire(_days_key(), DAY_SECONDS)
            pipe.execute()
    days = sorted(m.decode() for m in cast(set[bytes], r.smembers(_days_key())))
    boards = []
    for day in days:
        game, _, iso = day.partition("|")
        try:
            date = dt.date.fromisoformat(iso)
        except ValueError:
            r.srem(_days_key(), day)
            continue
        boards.append((game, date))
    pipe = r.pipeline(transaction=False)
    for game, date in boards:
        pipe.zremrangebyscore(_key(game, date), "-inf", f"({now - STALE}")
        pipe.exists(_key(game, date))
    results = pipe.execute()
    for i, (game, date) in enumerate(boards):
        swept, exists = results[2 * i], results[2 * i + 1]
        if swept:
            log.info("presence: %d sockets of a stopped process left %s %s", swept, game, date)
            signals.presence_changed.send(beat, game=game, date=date)
        if not exists:
            r.srem(_days_key(), f"{game}|{date.isoformat()}")


def _beat_forever() -> None:
    while True:
        time.sleep(HEARTBEAT)
        try:
            beat()
        except Exception:  # noqa: BLE001 - Redis restarting, a board push failing: next beat
            log.warning(
                "presence: heartbeat failed; trying again in %.0f s", HEARTBEAT, exc_info=True
            )
