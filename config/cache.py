"""Django's Redis cache with one client per process.

Django keeps a cache object per context (its connection handler is an asgiref ``Local``),
and under ASGI every request is a context of its own: each request made a new client, a
new connection pool and so a new connection to Redis, a TCP handshake and a greeting
before its first read.  redis-py's pool is safe to share between threads, so here every
cache object of one configuration uses the same client (and its pool of connections).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.functional import cached_property

_clients: dict[tuple[str, ...], Any] = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self) -> Any:
        options: dict[str, Any] = getattr(self, "_options", {})  # not in the type stubs
        key = (*getattr(self, "_servers", ()), repr(sorted(options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = super()._cache  # type: ignore[misc]
        return client
