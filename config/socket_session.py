"""The browser's session on a websocket, read only.

Sockets never write the session: a browser gets its player at ``/api/me/`` over HTTP
before it opens one.  Channels' ``SessionMiddleware`` wraps ``send`` to save a changed
session after every message it sends; a socket that answers every move pays for that check
each time, so this middleware only puts the session (loaded lazily, on first read, as
Django's own store does) in ``scope["session"]`` and passes ``send`` through untouched.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.sessions import CookieMiddleware
from django.conf import settings


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
