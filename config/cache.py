"""Django's Redis cache with one client per process.

Django keeps a cache object per context (its connection handler is an asgiref ``Local``),
and under ASGI every request is a context of its own: each request made a new client, a
new connection pool and so a new connection to Redis, a TCP handshake and a greeting
before its first read.  redis-py's pool is safe to share between threads, so here every
cache object of one configuration uses the same client (and its pool of connections).

Django's client also wraps the pool in a new ``redis.Redis`` for every call, and redis-py
builds a table of some 160 reply handlers for each one: about a tenth of ``GET /api/me/``'s
CPU went there (its two reads, bench/http_cost.py).  A ``redis.Redis`` over a pool is
as safe to share between threads as the pool, so here the client is the process's own
for the site's Redis (``config.redis_client``, shared with the rate limits at the same
timeout), which also makes the cache follow a Sentinel failover as every other user does.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

from config import redis_client

_clients: dict[tuple[str, ...], Any] = {}
_lock = threading.Lock()


class _Client(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timeout = kwargs.get("socket_timeout")  # the cache's OPTIONS

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        return redis_client.client(self._timeout)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _Client

    @cached_property
    def _cache(self) -> Any:
        options: dict[str, Any] = getattr(self, "_options", {})  # not in the type stubs
        key = (*getattr(self, "_servers", ()), repr(sorted(options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = super()._cache  # type: ignore[misc]
        return client
