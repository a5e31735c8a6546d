"""The browser's session on a websocket, read only.

Sockets never write the session: a browser gets its player at ``/api/me/`` over HTTP
before it opens one.  Channels' ``SessionMiddleware`` wraps ``send`` to save a changed
session after every message it sends; a socket that answers every move pays for that check
each time, so this middleware only puts the session (loaded lazily, on first read, as
Django's own store does) in ``scope["session"]`` and passes ``send`` through untouched.

``PlaySockets`` does that for the play socket, the one a process holds thousands of, in a
single step: cookies, session and route, added to the scope it was given, where Channels'
stack of middleware and router made three copies, each kept (with its coroutine) as long
as the socket is open.  It hands back the consumer's coroutine rather than awaiting it,
so no frame of its own stays either.  The consumer empties the scope of what it no longer
needs once connected (``PlayConsumer.connect``): the handshake's headers, cookies and
session, which the layers above (their coroutines still hold the same scope) read before
it.  Other sockets take the stack.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from importlib import import_module
from typing import Any

from asgiref.sync import markcoroutinefunction
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.http.cookie import parse_cookie

PLAY_PATH = re.compile(r"^/ws/sessions/(?P<session_id>[^/]+)/$")


class _ReadOnlySession:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": self.store(key)}, receive, send)


def ReadOnlySessionStack(inner: Any) -> Any:  # noqa: N802 (named like Channels' stacks)
    """Cookies parsed, then the session read only (see the module's docstring)."""
    return CookieMiddleware(_ReadOnlySession(inner))


class PlaySockets:
    """``/ws/sessions/<id>/`` to a new ``play`` consumer with its cookies, session and
    route (what ``play.as_asgi()`` would do, without its coroutine); every other socket to
    ``others``."""

    _asgi_single_callable = True  # a plain __call__, yet not an ASGI 2 application

    def __init__(self, play: type, others: Any) -> None:
        self.play, self.others = play, others
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    @markcoroutinefunction
    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[Any]:
        match = PLAY_PATH.match(scope.get("path", ""))
        if match is None:
            return self.others(scope, receive, send)  # type: ignore[no-any-return]
        cookies: dict[str, str] = {}
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookies = parse_cookie(value.decode("latin1"))
                break
        key = cookies.get(settings.SESSION_COOKIE_NAME)
        scope.update(cookies=cookies, session=self.store(key), path_remaining="",
                     url_route={"args": (), "kwargs": match.groupdict()})
        return self.play()(scope, receive, send)  # type: ignore[no-any-return]
