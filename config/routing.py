"""Websocket routes (docs/api.md, "Websockets")."""

from __future__ import annotations

from django.urls import path

from games.live.consumer import PlayConsumer
from leaderboards.consumers import BoardConsumer

websocket_urlpatterns = [
    path("ws/sessions/<str:session_id>/", PlayConsumer.as_asgi()),
    path("ws/leaderboards/<str:game>/<str:date>/", BoardConsumer.as_asgi()),
]
