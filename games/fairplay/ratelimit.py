"""Rate limits on the calls worth abusing: starting sessions, moves, sign-up and sign-in.

A fixed window per (scope, who) counted in Redis, so every Daphne process shares the count;
over the limit the answer is ``429 Too Many Requests`` with ``Retry-After`` (HTTP) or an
``error`` message with ``retry_after`` (socket).  "Who" is the player (from the browser
session) for play, and the client address for signing in, where there is no player yet to
trust.  Limits come from ``settings.RATE_LIMITS`` (``RATE_LIMIT_*`` in the environment).

When Redis cannot be reached the limits are not enforced: playing on through a Redis
outage matters more than throttling during one.  Without Redis configured (``make run`` on
SQLite) the count is kept in this process.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis
from django.conf import settings
from rest_framework.throttling import BaseThrottle

from config import redis_async, redis_client
from games.accounts.session_life import SESSION_KEY

log = logging.getLogger(__name__)
_local_lock = threading.Lock()


_TIMEOUT = 0.5  # seconds: a Redis that stopped answering must not stall a move


def _client() -> redis.Redis:
    return redis_client.client(timeout=_TIMEOUT)


# Counting every call in Redis would cost a round trip per move.  Each process counts its
# calls and adds them to the shared count in steps of limit // _STEPS (1 for small limits,
# which so stay exact): the shared count then trails the truth by less than a step per
# process, and a move costs a Redis call only once a step.
_STEPS = 50
_counts: dict[str, list[int]] = {}  # key -> [calls not yet added to Redis, shared total]


# Steps due on an event loop go to Redis from this thread, so a socket never waits on Redis;
# at most _BACKLOG of them queue (a Redis that stopped answering makes them slow), beyond
# that a step is kept in this process only, as when Redis is down.
_sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ratelimit")
_BACKLOG = 200
_queued = [0]


def hit(scope: str, who: str, local_only: bool = False) -> int | None:
    """Count one call; the seconds to wait when it is over the limit, else None.

    With ``local_only`` (an event loop, which must not wait on Redis) a step that is due
    goes to Redis in the background and the answer comes from this process's count."""
    answer, step = _count(scope, who, local_only)
    if step is None:
        return answer
    key, pending, seconds, entry, limit = step
    count = _send(key, pending, seconds, entry)
    return None if count is None or count <= limit else answer


async def ahit(scope: str, who: str) -> int | None:
    """``hit`` on an event loop, a due step sent to Redis by its asyncio client (so the
    answer is the shared count's, as ``hit``'s is, without a thread)."""
    answer, step = _count(scope, who, False)
    if step is None:
        return answer
    key, pending, seconds, entry, limit = step
    try:
        count = int(
            (
                await redis_async.client(_TIMEOUT).calls(
                    ("INCRBY", key, pending), ("EXPIRE", key, seconds + 1)
                )
            )[0]
        )
    except (redis.RedisError, OSError) as exc:
        log.warning("rate limit not enforced, Redis unavailable: %s", exc)
        return None
    with _local_lock:
        entry[1] = max(entry[1], count)
    return None if count <= limit else answer


Step = tuple[str, int, int, list[int], int]  # a due step: key, calls, window, entry, limit


def _count(scope: str, who: str, local_only: bool) -> tuple[int | None, Step | None]:
    """The call counted in this process: (the answer, None) when that decides, or (the wait
    should the shared count be over the limit, the step to add to it)."""
    limit, seconds = settings.RATE_LIMITS.get(scope, (0, 60))
    if limit <= 0:
        return None, None
    now = time.time()
    window = int(now // seconds)
    key = f"{settings.REDIS_KEY_PREFIX}:rl:{scope}:{who}:{window}"
    wait = max(1, math.ceil((window + 1) * seconds - now))
    with _local_lock:
        entry = _counts.get(key)
        if entry is None:
            if len(_counts) > 10_000:  # past windows' keys are never read again
                for k in [k for k in _counts if not k.endswith(f":{window}")]:
                    del _counts[k]
            entry = _counts[key] = [0, 0]
        pending, total = entry[0] + 1, entry[1] + entry[0] + 1
        if not settings.REDIS_URL or pending < max(1, limit // _STEPS):
            entry[0] = pending
            return (None if total <= limit else wait), None
        entry[0] = 0
        if local_only:
            entry[1] = total  # what Redis will hold at least, once the step lands
            if _queued[0] < _BACKLOG:
                _queued[0] += 1
                _sender.submit(_send_queued, key, pending, seconds, entry)
            return (None if total <= limit else wait), None
    return wait, (key, pending, seconds, entry, limit)


def _send(key: str, pending: int, seconds: int, entry: list[int]) -> int | None:
    """Add a step to the shared count; the count, None when Redis cannot be reached."""
    try:
        # One round trip, no MULTI: a lost EXPIRE only leaves a past window's key behind.
        pipe = _client().pipeline(transaction=False)
        pipe.incrby(key, pending)
        pipe.expire(key, seconds + 1)
        count = int(pipe.execute()[0])
    except redis.RedisError as exc:
        log.warning("rate limit not enforced, Redis unavailable: %s", exc)
        return None
    with _local_lock:
        # A window's count only grows: never below what this process knows it added.
        entry[1] = max(entry[1], count)
    return count


def _send_queued(key: str, pending: int, seconds: int, entry: list[int]) -> None:
    try:
        _send(key, pending, seconds, entry)
    finally:
        with _local_lock:
            _queued[0] -= 1


def client_address(meta: dict[str, Any]) -> str:
    return str(meta.get("REMOTE_ADDR") or "unknown")


class ScopedRateLimit(BaseThrottle):
    """DRF throttle for views with a ``rate_limit_scope``: per player, or per address for
    the ``auth`` scope (and for a browser that has no player yet)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        scope = getattr(view, "rate_limit_scope", None)
        if scope is None:
            return True
        player_id = None if scope == "auth" else request._request.session.get(SESSION_KEY)
        who = f"p{player_id}" if player_id else f"a{client_address(request.META)}"
        self.retry_after = hit(scope, who)
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after
