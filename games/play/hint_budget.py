"""Each player's hint budget: ``HINT_SECONDS_PER_MINUTE`` of solver time in each minute of
the clock, counted in this process and, with ``REDIS_URL``, in Redis for every process
together.  A Redis outage leaves the count local: after a failure Redis is left alone for
a while, so an outage costs the hints no timeouts."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from django.conf import settings

from config import redis_client

log = logging.getLogger(__name__)

_lock = threading.Lock()
_local: dict[str, tuple[int, float]] = {}  # player: (window, seconds used in it)
_quiet_until = [0.0]


def window() -> int:
    return int(time.time() // 60)


def used(who: str) -> float:
    """The solver seconds the player used this minute, as this process counted them."""
    got = _local.get(who)
    return got[1] if got is not None and got[0] == window() else 0.0


def left(who: str) -> int | None:
    """None while the player may search; else the seconds until the next minute."""
    limit = settings.HINT_SECONDS_PER_MINUTE
    if limit <= 0:
        return None
    now = window()
    spent = used(who)
    if spent < limit:
        shared = _redis(lambda r: r.get(_key(who, now)))
        spent = max(spent, int(shared) / 1000 if shared is not None else 0.0)
    if spent < limit:
        return None
    return max(1, int((now + 1) * 60 - time.time()) + 1)


def charge(who: str, seconds: float) -> None:
    now = window()
    with _lock:
        if len(_local) > 20_000:  # players of past minutes are not needed again
            for k in [k for k, (w, _) in _local.items() if w < now]:
                del _local[k]
        _local[who] = (now, used(who) + seconds)
    key = _key(who, now)

    def add(r: redis.Redis) -> None:
        # One round trip, no MULTI: a lost EXPIRE only leaves a past minute's key behind.
        pipe = r.pipeline(transaction=False)
        pipe.incrby(key, int(seconds * 1000))
        pipe.expire(key, 61)
        pipe.execute()

    _redis(add)


def reset() -> None:
    with _lock:
        _local.clear()
        _quiet_until[0] = 0.0


def _key(who: str, now: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:hint-ms:{who}:{now}"


def _redis(call: Any) -> Any:
    """``call(client)``, or None without Redis (or while it is left alone)."""
    if not (settings.REDIS_URL or settings.REDIS_SENTINELS) or time.monotonic() < _quiet_until[0]:
        return None
    try:
        return call(redis_client.client(timeout=0.5))
    except redis.RedisError as exc:
        _quiet_until[0] = time.monotonic() + 10.0
        log.warning("hint budget counted in this process only, Redis unavailable: %s", exc)
        return None
