"""A guest's ``POST /api/sessions/`` of a random deal, answered on the event loop.

``LeanStartMiddleware`` (games/api/starts.py) answers a guest's start without DRF, but in
the request's thread: the hand-over to that thread and back, and the thread's Redis reads
and INSERT contending for the interpreter lock with the loop, were a large share of the
start's CPU (bench/RESULTS.md).  ``LoopStart`` sits ahead of the request threads
(config/asgi.py) and, for the start it can make exactly, waits on nothing but asyncio: the
session's and the player's cached copies read by the loop's own Redis client
(config/redis_async.py), the rate limit's step counted by it too, and the deal and session
stored by ``games.play.fresh``'s one statement on the asyncio PostgreSQL connections of
the play socket (games/live/driver.py).  The middleware chain then runs on the loop with
the start already made: the middleware above ``LeanStartMiddleware`` as for any request,
and it answering as it does in the thread, so the answer is the thread's to the byte.

Whatever it cannot make so it hands on untouched, the body it read given back as it came,
to the request threads and the chain, which answer as they always have: a query string, a
deal other than ``random``, a session or player not in Redis (or Redis not answering: the
chain reads around it), a session due its renewal (a write), anything ``_ready`` refuses,
an answer a middleware above would give itself (a redirect to HTTPS, a refused body), a
MIDDLEWARE not the one it knows, SQLite.  Until the rate limit has counted the start
nothing has changed; once it has, the start is answered here (a database that does not
answer: 503 as the chain gives it, the one statement stored whole or not at all), but for
a seed whose deal another request is inserting or that is a daily, where nothing was
stored and the chain starts it without counting it again.
"""

from __future__ import annotations

import functools
import io
import logging
import pickle
from typing import Any

import psycopg
import redis
from django.conf import settings
from django.contrib.auth import SESSION_KEY as USER_SESSION_KEY
from django.core import signals
from django.core.cache import caches
from django.core.cache.backends.redis import RedisSerializer
from django.core.handlers.asgi import get_script_prefix
from django.db import utils as db_utils
from django.http import HttpRequest, parse_cookie
from django.http.response import HttpResponseBase
from django.middleware.security import SecurityMiddleware
from django.urls import set_script_prefix

from config import patches, redis_async
from config.errors import BodyLimitMiddleware
from games.accounts import devices, player_cache, session_life
from games.api.parsers import MAX_BODY_BYTES
from games.api.starts import COUNTED, GIVEN, PATH, Given, LeanStartMiddleware, _never, _route
from games.engine import GAMES
from games.fairplay import ratelimit
from games.live import driver
from games.models import Deal
from games.play import fresh, operations, tables
from games.play.outcome import Outcome

log = logging.getLogger(__name__)

LEAN = "games.api.starts.LeanStartMiddleware"
# The middleware above LeanStartMiddleware this path runs as the chain does: none of them
# reads a store, and the two that may answer themselves are asked first (``_ready``).
ABOVE = (
    "config.logs.RequestIdMiddleware",
    "config.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.security.CSPMiddleware",
    "config.errors.DatabaseUnavailableMiddleware",
    "config.errors.BodyLimitMiddleware",
)
TIMEOUT = 0.5  # seconds, as the caches' client: a Redis that stopped answering is read around
_SERIALIZER = RedisSerializer()  # how Django's Redis cache writes a value
# psycopg's errors as Django's (the chain's 503 is for Django's), most specific first.
_ERRORS = [
    (getattr(psycopg, name), getattr(db_utils, name))
    for name in (
        "InterfaceError",
        "OperationalError",
        "IntegrityError",
        "DataError",
        "ProgrammingError",
        "InternalError",
        "NotSupportedError",
        "DatabaseError",
    )
]


@functools.cache  # the settings are the process's
def usable() -> bool:
    middleware = list(settings.MIDDLEWARE)
    return (
        patches.on("lean_views")
        and driver.usable()
        and redis_async.usable()
        and LEAN in middleware
        and tuple(middleware[: middleware.index(LEAN)]) == ABOVE
        and settings.SESSION_CACHE_SECONDS > 0
        and settings.PLAYER_CACHE_SECONDS > 0
        and "sessions" in settings.CACHES
    )


class LoopStart:
    """The ASGI application ahead of ``inner`` (the request threads); ``handler`` is the one
    whose chain they run (config/patches/django.py)."""

    def __init__(self, inner: Any, handler: Any) -> None:
        self.inner, self.handler = inner, handler
        self.lean = LeanStartMiddleware(_never)  # for its _ready only
        self.security = SecurityMiddleware(_never)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or scope["path"] != PATH
            or scope.get("query_string")
            or not usable()
        ):
            return await self.inner(scope, receive, send)
        messages, body = await _read(receive)
        if body is None or not await self._answered(scope, body, send):
            return await self.inner(scope, _replay(messages, receive), send)
        return None

    async def _answered(self, scope: dict[str, Any], body: bytes, send: Any) -> bool:
        """Whether the start was answered here; False before anything changed (or, with
        ``COUNTED`` in the scope, once counted with nothing stored)."""
        loaded = await _loaded(_session_key(scope))
        if loaded is None:
            return False
        set_script_prefix(get_script_prefix(scope))
        try:
            ready = self._ready(scope, body, loaded)
        except Exception:  # nothing counted or stored yet: the chain answers as it always has
            log.exception("start handed on to the request thread")
            ready = None
        if ready is None:
            return False
        request, fields = ready
        given = await _start(request, loaded[2], fields)
        if given is None:
            scope[COUNTED] = True
            return False
        setattr(request, GIVEN, given)
        await self.handler.send_response(self._respond(scope, request), send)
        return True

    def _ready(
        self, scope: dict[str, Any], body: bytes, loaded: tuple[Any, Any, Any]
    ) -> tuple[HttpRequest, dict[str, Any]] | None:
        """The chain's request, ready for the start, and the body's fields; None when the
        chain must have it."""
        request: HttpRequest | None = self.handler.create_request(scope, io.BytesIO(body))[0]
        if request is None or self.security.process_request(request) is not None:
            return None
        if BodyLimitMiddleware._refusal(request) is not None:
            return None
        try:
            ready = self.lean._ready(request, loaded)
        except Exception:  # the chain meets it again and answers as it always has
            return None
        if ready is None or ready[1]["deal"] != "random" or ready[1]["game"] not in GAMES:
            return None
        if session_life._due(request.session) is not None:
            return None  # a renewal writes the session: the chain's
        return request, ready[1]

    def _respond(self, scope: dict[str, Any], request: HttpRequest) -> HttpResponseBase:
        """The chain's answer, on the loop (what config/patches/django.py's ``_respond`` does in
        the thread): LeanStartMiddleware finds the start made and answers it."""
        signals.request_started.send(sender=self.handler.__class__, scope=scope)
        response: HttpResponseBase = self.handler.get_response(request)
        response._handler_class = self.handler.__class__  # type: ignore[attr-defined]
        try:
            response.close()  # request_finished, before the answer is sent, as in the thread
        except Exception:
            log.exception("closing the response failed")
        return response


async def _read(receive: Any) -> tuple[list[dict[str, Any]], bytes | None]:
    """The messages read and the body; None for a body over the API's limit or a client
    gone (the chain answers both as it does)."""
    messages, chunks, size = [], [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return messages, None
        if not message.get("more_body", False):
            return messages, b"".join(chunks)


def _replay(messages: list[dict[str, Any]], receive: Any) -> Any:
    """``receive`` as it was before ``messages`` were read from it."""
    pending = list(messages)

    async def replayed() -> Any:
        return pending.pop(0) if pending else await receive()

    return replayed


def _session_key(scope: dict[str, Any]) -> str | None:
    name = settings.SESSION_COOKIE_NAME.encode()
    for header, value in scope.get("headers", ()):
        if header == b"cookie" and name in value:
            key = parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
            # Django's own session keys; any other is the chain's to refuse.
            if key and 8 <= len(key) <= 64 and key.isascii() and key.isalnum():
                return key
            return None
    return None


async def _loaded(key: str | None) -> tuple[dict[str, Any], Any, Any] | None:
    """(the session's data, its stored expiry, its guest) from their cached copies, as the
    chain's stores read them; None where the chain must read them."""
    if key is None:
        return None
    client = redis_async.client(TIMEOUT)
    try:
        cached = _value(
            await client.call("GET", caches["sessions"].make_key(session_life.CACHE_PREFIX + key))
        )
        if not (isinstance(cached, tuple) and len(cached) == 2 and isinstance(cached[0], dict)):
            return None
        data, expiry = cached
        player_id = data.get(session_life.SESSION_KEY)
        if player_id is None or USER_SESSION_KEY in data:
            return None
        player = player_cache.from_cached(
            _value(
                await client.call(
                    "GET", caches["default"].make_key(f"{player_cache.PREFIX}{player_id}")
                )
            )
        )
    except (redis.RedisError, OSError) as exc:
        log.debug("start handed on, Redis unavailable: %s", exc)
        return None
    if player is None or player.pk != player_id:
        return None
    return dict(data), expiry, player


def _value(raw: bytes | None) -> Any:
    if raw is None:
        return None
    try:
        return _SERIALIZER.loads(raw)
    except (
        pickle.UnpicklingError,
        ValueError,
        TypeError,
        EOFError,
        AttributeError,
        ImportError,
    ):  # not a value the cache wrote: the chain's store reads it
        return None


async def _start(request: HttpRequest, player: Any, data: dict[str, Any]) -> Given | None:
    """The start (``operations.start_session``'s first path), counted and stored; None when
    the chain must start it, nothing stored."""
    try:
        wait = await ratelimit.ahit(_route()[2], f"p{player.pk}")
        if wait is not None:
            return Given(wait=wait)
        game = data["game"]
        session, g = operations._new(
            player,
            Deal(game=game, seed=GAMES[game].random_seed()),
            False,
            devices.client_keys(request),
        )
        try:
            found = await driver.fetchall(*fresh.with_deal_statement(session))
        except psycopg.Error as exc:
            raise _django_error(exc) from exc
        _, started = fresh.with_deal_stored(session, found[0] if found else None)
    except Exception as exc:
        return Given(error=exc)
    if not started:
        return None
    # In autocommit the row is committed: the table is kept now (locked.keep_after_commit).
    tables.keep(
        session.pk, session.seq, g.copy(), (session.player_id, session.deal, session.ranked)
    )
    return Given(outcome=Outcome(session, g))


def _django_error(exc: psycopg.Error) -> Exception:
    for theirs, django in _ERRORS:
        if isinstance(exc, theirs):
            return django(*exc.args)  # type: ignore[no-any-return]
    return db_utils.DatabaseError(*exc.args)
