"""How many play sockets are open on a daily deal ("playing now" on the boards and home).

Kept in Redis as a set of socket names per (game, day), so every process counts the same
sockets (or in this process without Redis).  A change is told through
``games.signals.presence_changed``; the boards push the new count to their watchers.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import cast

import redis
from django.conf import settings

from config import redis_client
from games import signals

_local: dict[str, set[str]] = defaultdict(set)


def _client() -> redis.Redis:
    return redis_client.client()


def _key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:presence:{game}:{date.isoformat()}"


def playing(game: str, date: dt.date) -> int:
    if not settings.REDIS_URL:
        return len(_local[_key(game, date)])
    return int(cast(int, _client().scard(_key(game, date))))


def join(game: str, date: dt.date, channel: str) -> None:
    k = _key(game, date)
    if not settings.REDIS_URL:
        _local[k].add(channel)
    else:
        r = _client()
        r.sadd(k, channel)
        r.expire(k, 2 * 24 * 3600)  # a crashed server's sockets fade with the day
    signals.presence_changed.send(join, game=game, date=date)


def leave(game: str, date: dt.date, channel: str) -> None:
    k = _key(game, date)
    if not settings.REDIS_URL:
        _local[k].discard(channel)
    else:
        _client().srem(k, channel)
    signals.presence_changed.send(leave, game=game, date=date)
