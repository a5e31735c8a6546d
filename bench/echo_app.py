"""A bare Channels echo consumer on Daphne: the yardstick bench/server.py measures against."""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class Echo(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data)


async def healthz(scope: dict, receive: object, send: object) -> None:
    """200 to any HTTP request: the balancer's health checks (``--balancer``) pass as they do
    on the site's /healthz."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,  # type: ignore[operator]
            "headers": [(b"content-type", b"text/plain")],
        }
    )
    await send({"type": "http.response.body", "body": b"ok"})  # type: ignore[operator]


application = ProtocolTypeRouter(
    {"http": healthz, "websocket": URLRouter([path("ws/echo/", Echo.as_asgi())])}
)
