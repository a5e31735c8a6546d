"""Closing a play socket (games/live/consumer.py, PlayConsumer.websocket_disconnect).

The consumer's own ``websocket_disconnect`` skips two steps of Channels' one: leaving
``self.groups`` and the thread that closes stale database connections.  That is sound only
while the socket joins no group through the channel layer and its loop holds no database
connection; these tests fail if either stops being so, or if closing stops doing what is
left: the socket leaves the day's presence (the home page's "playing now") and the race.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.generic import websocket as channels_websocket
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.daily import deals as daily
from games.live import consumer, presence

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_play_socket_joins_no_group_that_closing_would_have_to_leave():
    assert list(consumer.PlayConsumer.groups or []) == []


def test_closing_a_daily_socket_leaves_presence_without_channels_thread_hop(api, monkeypatch):
    hops: list[str] = []

    async def recorded() -> None:
        hops.append("close_old_connections")

    monkeypatch.setattr(channels_websocket, "aclose_old_connections", recorded)
    c = api()
    s = c.start("freecell")  # today's daily: the socket counts in presence and the race
    day = daily.today()
    before = presence.playing("freecell", day)

    async def scenario() -> tuple[int, int]:
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        ok, _ = await ws.connect()
        assert ok
        hello = await ws.receive_json_from()
        assert hello["type"] == "hello"
        during = presence.playing("freecell", day)
        await ws.disconnect()
        await asyncio.sleep(0.1)  # the leave runs in a pool thread
        return during, presence.playing("freecell", day)

    during, after = asyncio.run(scenario())
    assert during == before + 1
    assert after == before
    assert hops == []  # Channels' own disconnect would have sent it to a thread
