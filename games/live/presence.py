"""How many play sockets are open on a daily deal ("playing now" on the boards and home).

Kept in Redis as a set of socket names per (game, day), so every process counts the same
sockets (or in this process without Redis).  A change is told through
``games.signals.presence_changed``; the boards push the new count to their watchers.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from functools import lru_cache
from typing import cast

import redis
from django.conf import settings

from games import signals

_local: dict[str, set[str]] = defaultdict(set)


@lru_cache(maxsize=4)
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def _key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:presence:{game}:{date.isoformat()}"


def playing(game: str, date: dt.date) -> int:
    if not settings.REDIS_URL:
        return len(_local[_key(game, date)])
    return int(cast(int, _client(settings.REDIS_URL).scard(_key(game, date))))


def join(game: str, date: dt.date, channel: str) -> None:
    k = _key(game, date)
    if not settings.REDIS_URL:
        _local[k].add(channel)
    else:
        r = _client(settings.REDIS_URL)
        r.sadd(k, channel)
        r.expire(k, 2 * 24 * 3600)  # a crashed server's sockets fade with the day
    signals.presence_changed.send(join, game=game, date=date)


def leave(game: str, date: dt.date, channel: str) -> None:
    k = _key(game, date)
    if not settings.REDIS_URL:
        _local[k].discard(channel)
    else:
        _client(settings.REDIS_URL).srem(k, channel)
    signals.presence_changed.send(leave, game=game, date=date)
