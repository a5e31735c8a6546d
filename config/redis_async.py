"""The site's Redis for code that runs on an event loop, as ``config.redis_client`` gives
it to threads: the same server (``REDIS_URL``, or the primary ``REDIS_SENTINELS`` name under
``REDIS_SENTINEL_MASTER``), the same database and credentials, a connection made again to
the new primary after a failover.

A client of ``redis.asyncio`` belongs to the loop it first ran on (its connections are that
loop's streams), so each loop has its own, made on first use and dropped with the loop.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.sentinel import Sentinel

from config.redis_client import SENTINEL_TIMEOUTS, parse_sentinels, server_options

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, aioredis.Redis]] = (
    weakref.WeakKeyDictionary()
)


def client(timeout: float) -> aioredis.Redis:
    """This loop's client: each command (and a new connection) waits at most ``timeout``
    seconds for an answer."""
    from django.conf import settings

    key = (settings.REDIS_URL, tuple(settings.REDIS_SENTINELS), settings.REDIS_SENTINEL_MASTER,
           timeout)
    mine = _clients.setdefault(asyncio.get_running_loop(), {})
    found = mine.get(key)
    if found is None:
        found = mine[key] = _make(*key)
    return found


def _make(url: str, sentinels: tuple[str, ...], master: str, timeout: float) -> aioredis.Redis:
    timeouts = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if not sentinels:
        made: aioredis.Redis = aioredis.Redis.from_url(url, **timeouts)
        return made
    sentinel = Sentinel(parse_sentinels(list(sentinels)), sentinel_kwargs=dict(SENTINEL_TIMEOUTS))
    master_client: aioredis.Redis = sentinel.master_for(master, **timeouts,
                                                        **server_options(url))
    return master_client


async def close_all() -> None:
    """Close this loop's clients (a test's loop, before it ends)."""
    for found in _clients.pop(asyncio.get_running_loop(), {}).values():
        await found.aclose()
