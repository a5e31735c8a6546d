"""ASGI entry point served by Daphne: HTTP (with static files) and websockets."""

from __future__ import annotations

import gc
import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from config import patches  # noqa: E402
from config.patches.django import Handler, RequestThreads  # noqa: E402

# Django's ASGI handler, its middleware chain run in one thread kept between requests
# (config/patches/django.py); REQUEST_THREADS=0, or the patch off, leaves Django's own
# handler, as it comes.
_request_threads = settings.REQUEST_THREADS if patches.on("request_threads") else 0
django_asgi_app = Handler() if _request_threads > 0 else ASGIHandler()

# Imported after Django is set up: the routing modules import models.
from asgiref.sync import markcoroutinefunction  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from config.health import HealthRoutes  # noqa: E402
from config.logs import request_id_var, socket_request_id  # noqa: E402
from config.metrics import MetricsRoute  # noqa: E402
from config.origin import SameOriginSockets  # noqa: E402
from config.patches.autobahn import install as lean_daphne_sockets  # noqa: E402
from config.patches.channels import PlaySockets, ReadOnlySessionStack  # noqa: E402
from config.patches.twisted import install as lean_daphne_http  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.static import StaticFiles  # noqa: E402
from games.live.consumer import PlayConsumer  # noqa: E402

# Each under Daphne only, and only with its patch on (config/patches/).
lean_daphne_sockets()  # before daphne builds its websocket factory (autobahn.py)
lean_daphne_http()  # no form parsing in Twisted, which Daphne never reads (twisted.py)

# Django's requests run in threads kept between requests (config/patches/django.py);
# /static/ is answered by ServeStatic on the event loop, never entering Django.
http_app: Any = RequestThreads(django_asgi_app, _request_threads)
if _request_threads > 0 and patches.on("lean_views"):
    from games.api.loop_start import LoopStart  # noqa: E402

    # A guest's start of a random deal made on the event loop, the chain's answer to the
    # byte without the hand-over to a thread (games/api/loop_start.py).
    http_app = LoopStart(http_app, django_asgi_app)
if settings.SERVE_STATIC:
    http_app = StaticFiles(http_app)


class _SocketRequestId:
    """A websocket's log lines carry the id of its connection, as a request's do."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        request_id_var.set(socket_request_id(scope))
        return await self.inner(scope, receive, send)


# The play socket, thousands a process, in one step from cookies to its consumer
# (config/patches/channels.py); with that patch off, Channels' own stack for every socket.
websocket_app: Any = _SocketRequestId(
    SameOriginSockets(
        PlaySockets(PlayConsumer, ReadOnlySessionStack(URLRouter(websocket_urlpatterns)))
        if patches.on("play_socket")
        else SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
    )
)
if settings.SENTRY_DSN:
    # HTTP errors reach Sentry through its Django integration; the sockets' through this.
    from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

    websocket_app = SentryAsgiMiddleware(websocket_app)

# /healthz and /readyz are answered ahead of everything else (config/health.py), and
# /metrics to the addresses allowed (config/metrics.py).
_routed = HealthRoutes(
    MetricsRoute(ProtocolTypeRouter({"http": http_app, "websocket": websocket_app}))
)


class _Entry:
    """Websockets straight to their stack, the rest through ``_routed`` (which sends
    websockets to the same stack).  A plain method handing back the stack's coroutine
    rather than awaiting it: an open socket's task then holds two frames fewer, the two
    layers' coroutines, each kept with its scope while the socket is open."""

    # Marked as what it is to the servers, an ASGI 3 application: asgiref (Daphne) reads
    # the attribute, uvicorn asks whether __call__ is a coroutine function.
    _asgi_single_callable = True

    @markcoroutinefunction
    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            return websocket_app(scope, receive, send)
        return _routed(scope, receive, send)


application = _Entry()


def _load_what_the_first_requests_would() -> None:
    """The URL conf (every view module, DRF, the schema's), the translations and the
    solvers are loaded by the first requests and moves otherwise, after the freeze below:
    then every full collection walked them, tens of thousands of objects."""
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 (imports the URL conf and its views)
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("play")
    import games.engine.solver.hinting  # noqa: F401
    import games.engine.solver.klondike  # noqa: F401 (the hints' and the taps' search)


_load_what_the_first_requests_would()


def _say_when_pages_cannot_be_served() -> None:
    """Said at the start, not only at the first page's 500: /readyz fails too (health.py)."""
    import logging

    from config.static import NotCollected, check_collected

    try:
        check_collected()
    except NotCollected as exc:
        logging.getLogger("config.asgi").error(
            "%s; until then every page answers 500 and /readyz 503 (STATIC_ROOT is %s)",
            exc,
            settings.STATIC_ROOT,
        )


_say_when_pages_cannot_be_served()

# Everything loaded so far lives as long as the process: moved out of the collector's
# sight, it is no longer walked by every full collection, which would otherwise pause all
# the sockets of this process now and then.
gc.freeze()
