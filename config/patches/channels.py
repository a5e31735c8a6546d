"""Channels: the play socket's way in and its consumer's loop (patch ``play_socket``).

The browser's session on a websocket, read only.

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

``PlainLoop`` is the play consumer's loop: the play socket hears only its own client (nothing
is ever sent to it through the channel layer), so it joins no channel layer and reads its
messages in a plain loop instead of Channels' wait on several sources, which made and
cancelled tasks for every message.  Its ``dispatch`` skips Channels' clean-up of the
database connections before every message (a hop to a thread of its own), and its
``websocket_disconnect`` the same hop and the groups it never joined: the consumer uses no
connection on its loop (its pool threads close theirs).  ``ChannelsLoop`` puts the same
hooks (``admission``, ``finished``) over Channels' own loop, for the patch off.

Patches: ``AsyncConsumer.__call__``, ``dispatch`` and ``as_asgi`` (what a consumer is set
up with), ``AsyncWebsocketConsumer.websocket_disconnect``, ``URLRouter.__call__`` (the
route's scope), ``CookieMiddleware`` and ``SessionMiddleware``.
Written for: channels 4.3.2 (config/tripwires.json).
Tripwires: ``channels`` (every entry).
Off (``FRAMEWORK_PATCHES_OFF=play_socket``): Channels' ``SessionMiddlewareStack`` and
``URLRouter`` for every socket, and its own consumer loop (a channel-layer name and a wait
on it for every play socket, a database hop before every message).
Tested: tests/games/test_socket_close.py, tests/games/test_ws_memory.py (the play socket's
memory), tests/frontend/test_patches_off.py.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable
from importlib import import_module
from typing import Any

from asgiref.sync import markcoroutinefunction
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.http.cookie import parse_cookie

from config import patches

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
        scope.update(
            cookies=cookies,
            session=self.store(key),
            path_remaining="",
            url_route={"args": (), "kwargs": match.groupdict()},
        )
        return self.play()(scope, receive, send)  # type: ignore[no-any-return]


Admission = Callable[[dict[str, Any]], Awaitable[bool]]


class PlainLoop:
    """Put ahead of Channels' consumer class: the consumer's loop, read straight from its
    client.  The consumer gives ``admission(receive)``, called once: whether a message is
    to be dispatched (False drops it); and ``finished()``, called as the loop ends."""

    channel_prefix = "plain"

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scope, self.base_send = scope, send
        self.channel_layer = None
        self.channel_name = f"{self.channel_prefix}.{uuid.uuid4().hex}"
        admits = self.admission(receive)
        try:
            while True:
                message = await receive()
                if await admits(message):
                    await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            self.finished()

    def admission(self, receive: Any) -> Admission:
        raise NotImplementedError

    def finished(self) -> None:
        pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        await self.disconnect(message["code"])  # type: ignore[attr-defined]
        raise StopConsumer()


class ChannelsLoop:
    """``PlainLoop``'s hooks over Channels' own loop, ``dispatch`` and disconnect (the
    patch off)."""

    _admits: Admission

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self._admits = self.admission(receive)
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        finally:
            self.finished()

    async def dispatch(self, message: dict[str, Any]) -> None:
        if await self._admits(message):
            await super().dispatch(message)  # type: ignore[misc]

    def admission(self, receive: Any) -> Admission:
        raise NotImplementedError

    def finished(self) -> None:
        pass


def consumer_loop() -> type:
    """The loop to put ahead of Channels' consumer class: ``PlainLoop``, or with the patch
    off ``ChannelsLoop``."""
    return PlainLoop if patches.on("play_socket") else ChannelsLoop
