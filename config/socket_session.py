"""The browser's session on a websocket, read only.

Sockets never write the session: a browser gets its player at ``/api/me/`` over HTTP
before it opens one.  Channels' ``SessionMiddleware`` wraps ``send`` to save a changed
session after every message it sends; a socket that answers every move pays for that check
each time, so this middleware only puts the session (loaded lazily, on first read, as
Django's own store does) in ``scope["session"]`` and passes ``send`` through untouched.

``PlaySockets`` does that for the play socket, the one a process holds thousands of, in a
single step: cookies, session and route, one copy of the scope where Channels' stack of
middleware and router made three, each kept (with its coroutine) as long as the socket
is open.  The consumer empties that one copy of what it no longer needs once connected
(``PlayConsumer.connect``).  Other sockets take the stack.
"""

from __future__ import annotations

import re
from importlib import import_module
from typing import Any

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
    """``/ws/sessions/<id>/`` to ``play`` with its cookies, session and route; every other
    socket to ``others``."""

    def __init__(self, play: Any, others: Any) -> None:
        self.play, self.others = play, others
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        match = PLAY_PATH.match(scope.get("path", ""))
        if match is None:
            return await self.others(scope, receive, send)
        cookies: dict[str, str] = {}
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookies = parse_cookie(value.decode("latin1"))
                break
        key = cookies.get(settings.SESSION_COOKIE_NAME)
        return await self.play({
            **scope, "cookies": cookies, "session": self.store(key), "path_remaining": "",
            "url_route": {"args": (), "kwargs": match.groupdict()},
        }, receive, send)
