"""The play socket as a test opens it: ``connect`` (not yet connected) and ``opened``."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator

from config.asgi import application


def connect(client: Any, session_id: object) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/", headers=client.ws_headers()
    )


async def opened(client: Any, session_id: object) -> WebsocketCommunicator:
    """A connected socket whose greeting (the state on connect) has been read."""
    ws = connect(client, session_id)
    await ws.connect()
    await ws.receive_json_from()
    return ws
