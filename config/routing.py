"""Websocket routes (docs/api.md, "Websockets")."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from games.live.consumer import PlayConsumer
from leaderboards.consumers import BoardConsumer

CLOSE_NOT_FOUND = 4404  # no socket at that address (docs/api.md, "Websockets")


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other address: accepted only to be closed with a code that says why, where the
    router would raise and the server log a traceback."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    path("ws/sessions/<str:session_id>/", PlayConsumer.as_asgi()),
    path("ws/leaderboards/<str:game>/<str:date>/", BoardConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
