"""Django: its ASGI handler, its Redis cache's client and a model built from a row.

Three patches, each with a switch of its own (config/patches/__init__.py):

``request_threads`` -- the threads Django's HTTP requests run in, under ASGI, kept from one
request to the next.

Django's ASGI handler runs each request's synchronous part (the middleware chain and the
view) in a thread of the request's own: it enters a fresh ``ThreadSensitiveContext``, and
asgiref starts a new single-thread executor for it, so every request paid for starting a
thread and for its hand-over (about a tenth of a small request's time here, bench/http_cost.py).
This application gives each request a thread-sensitive context with an executor taken from
a pool of idle ones instead; Django's own context, inside it, uses that one.  A request
still has a thread to itself while it runs (one request's blocking query never holds up
another's), as many at once as there are requests in flight; only the idle ones are kept,
``REQUEST_THREADS`` of them at most.

``Handler`` is Django's ASGI handler with its middleware chain built synchronous, called
once in that thread.  Django builds the chain asynchronous under ASGI: with every
middleware here synchronous, the chain went into the thread, came back to the event loop
for the URL's resolution (an async_to_sync hop) and went into the thread again for the
view, three hand-overs instead of one.  Its ``handle`` also sends ``request_started`` in
that same hand-over (Django's ``asend`` gives the signal's synchronous receivers one of
their own), and waits for no disconnect: Django races the request against a task that
listens for the client leaving, which can only cancel an async view (a synchronous one
runs to its end in its thread whatever happens), and this site has none; Daphne drops
what is sent to a connection that has gone.  And it closes a response whose body is
already in memory (every one but a streaming response) in that thread too, before it is
sent: ``request_finished``'s receivers (the database connection back to its pool, the
caches', the URL conf's and the request id's resets) have to run in the request's
thread, and none of them needs the bytes on the wire first.  That was a third hand-over,
after the answer was sent.  A streaming response is still closed after its last chunk.
One hand-over a request is left, the one that runs it.

``cache_client`` -- Django's Redis cache with one client per process.

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

``model_rows`` -- a model instance from a row's values as ``Model.from_db`` builds one,
but without ``Model.__init__``'s work per field (``from_row``): the play paths build a
session from the row they just read or wrote for every move, and that work cost more than
the statement's share (games/play/outcome.py).

Patches: ``ASGIHandler.handle`` and ``load_middleware`` (``Handler``, a subclass used as the
site's handler, config/asgi.py), the executor of asgiref's ``ThreadSensitiveContext``
(``RequestThreads``); ``RedisCacheClient.get_client`` and ``RedisCache._cache`` (a
subclass named as the cache's BACKEND, config/settings/services.py); a model's
``__dict__`` and ``_state`` filled in directly (``from_row``).
Written for: Django 5.2.19, asgiref 3.13.0 (config/tripwires.json).
Tripwires: ``Django`` (the handler's ``__call__``, ``handle``, ``load_middleware``; the
cache's ``RedisCacheClient`` and ``RedisCache._cache``; ``Model.from_db``) and ``asgiref``
(``ThreadSensitiveContext``, ``SyncToAsync.__call__``).
Off (``FRAMEWORK_PATCHES_OFF`` naming it): ``request_threads`` (or ``REQUEST_THREADS=0``)
leaves Django's own handler, a new thread for every request; ``cache_client`` Django's own
cache, a client and a connection for every request; ``model_rows`` ``Model.from_db``.
Tested: tests/test_request_threads.py, tests/test_patches.py.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import DEFAULT_DB_ALIAS
from django.db.models import DEFERRED, Model
from django.db.models.base import ModelState
from django.http import FileResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix
from django.utils.functional import cached_property

from config import patches, redis_client

log = logging.getLogger(__name__)


class Handler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:  # the client left while it was sent, as Django
                pass
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """In the request's thread: what Django's ``handle`` does between reading the body
        and sending the answer."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            assert error_response is not None
            response: HttpResponseBase = error_response
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            try:
                response.close()
            except Exception:  # the answer is made: it still goes out, as under Django
                log.exception("closing the response failed")
        return response


class RequestThreads:
    def __init__(self, inner: Any, keep: int) -> None:
        self.inner = inner
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "http" or self.keep <= 0:
            return await self.inner(scope, receive, send)
        executor = (
            self.idle.pop()
            if self.idle
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        )
        try:
            async with ThreadSensitiveContext(executor=executor):
                return await self.inner(scope, receive, send)
        finally:
            # One thread runs one call at a time: a call still running (a request given up
            # half-way) only makes the next request on this thread wait its turn.
            if len(self.idle) < self.keep:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)


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


M = TypeVar("M", bound=Model)


def from_row(model: type[M], values: dict[str, Any], related: dict[str, Any]) -> M:
    """An instance of ``model`` from a row's ``values`` (by attname), its ``related``
    objects already known (by field name) put in its cache, as ``Model.from_db`` builds
    one; fields left out stay deferred."""
    if _LEAN_ROWS:
        instance = model.__new__(model)
        instance.__dict__.update(values)
        instance._state = ModelState()
        instance._state.adding, instance._state.db = False, DEFAULT_DB_ALIAS
    else:
        fields = model._meta.concrete_fields
        instance = model.from_db(
            DEFAULT_DB_ALIAS,
            [f.attname for f in fields],
            [values.get(f.attname, DEFERRED) for f in fields],
        )
    instance._state.fields_cache.update(related)
    return instance


_LEAN_ROWS = patches.on("model_rows")
