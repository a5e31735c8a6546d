"""The site's ASGI application, with ``GET /__patches__`` answering which of the library
patches (config/patches/) this server runs with, for tests/frontend/test_patches_off.py."""

from __future__ import annotations

import json
from typing import Any

from config import asgi


def installed() -> dict[str, Any]:
    """What each patch puts in place, read from the running process."""
    from daphne import http_protocol
    from daphne.ws_protocol import WebSocketFactory
    from django.conf import settings
    from django.core.cache import caches
    from django.db import connections
    from django.urls import resolve

    from config.patches import django as django_patch
    from games.live.consumer import PlayConsumer

    return {
        "settings": list(settings.FRAMEWORK_PATCHES),
        "twisted_forms": bool(getattr(http_protocol.WebRequest, "formless", False)),
        "lean_websockets": WebSocketFactory.protocol.__name__ == "LeanWebSocketProtocol",
        "request_threads": type(asgi.django_asgi_app).__module__ == "config.patches.django",
        "cache_client": type(caches["default"]).__module__ == "config.patches.django",
        "model_rows": django_patch._LEAN_ROWS,
        "pool_check": type(connections["default"]).__module__ == "config.patches.psycopg_pool",
        "play_socket": PlayConsumer.__mro__[1].__name__ == "PlainLoop",
        "static_memory": bool(getattr(asgi.http_app, "from_memory", False)),
        "lean_views": resolve("/api/me/").func.__code__.co_filename.endswith(
            "config/patches/rest_framework.py"
        ),
    }


async def application(scope: dict[str, Any], receive: Any, send: Any) -> Any:
    if scope["type"] == "http" and scope["path"] == "/__patches__":
        from asgiref.sync import sync_to_async

        body = json.dumps(await sync_to_async(installed)()).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})
        return None
    return await asgi.application(scope, receive, send)
