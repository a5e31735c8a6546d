"""What the play socket refuses: another player, a foreign origin, an unknown address,
garbage, and a client that floods it or sends too fast."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import GameSession
from tests.games.sockets import connect, opened

pytestmark = pytest.mark.django_db(transaction=True)


def test_another_players_socket_is_closed_with_4403(api):
    owner, other = api(), api()
    s = owner.start("klondike")

    async def scenario():
        ws = connect(other, s["id"])
        await ws.connect()
        error = await ws.receive_json_from()
        closed = await ws.receive_output()
        await ws.send_json_to({"type": "move", "seq": 0, "move": "s"})
        return error, closed

    error, closed = asyncio.run(scenario())
    assert error["type"] == "error"
    assert error["error"] == "forbidden"
    assert closed == {"type": "websocket.close", "code": 4403}
    assert GameSession.objects.get(pk=s["id"]).moves == []


def test_a_socket_from_a_foreign_origin_is_refused(api):
    c = api()
    s = c.start("klondike")

    async def scenario():
        headers = [h for h in c.ws_headers() if h[0] != b"origin"]
        ws = WebsocketCommunicator(
            application,
            f"/ws/sessions/{s['id']}/",
            headers=[*headers, (b"origin", b"http://evil.example")],
        )
        ok, _ = await ws.connect()
        return ok

    assert asyncio.run(scenario()) is False


@pytest.mark.parametrize(
    ("origin", "host", "ok"),
    [
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", True),
        (b"http://127.0.0.1:9000", b"127.0.0.1:8000", False),  # another port, same host name
        (b"https://127.0.0.1:8000", b"127.0.0.1:8000", False),  # another scheme
        (b"http://localhost:8000", b"127.0.0.1:8000", False),  # another allowed host name
        (b"http://localhost", b"localhost", True),  # default ports on both sides
        (b"http://localhost", b"localhost:443", False),
        (b"null", b"127.0.0.1:8000", False),
    ],
)
def test_the_origin_must_be_the_sockets_own_scheme_host_and_port(api, origin, host, ok):
    """A page served from another port of the same host name (another program on the
    machine) was accepted: only the host name was compared."""
    c = api()
    s = c.start("klondike")

    async def scenario():
        headers = [h for h in c.ws_headers() if h[0] != b"origin"]
        ws = WebsocketCommunicator(
            application,
            f"/ws/sessions/{s['id']}/",
            headers=[*headers, (b"origin", origin), (b"host", host)],
        )
        accepted, _ = await ws.connect()
        await ws.disconnect()
        return accepted

    assert asyncio.run(scenario()) is ok


def test_an_unknown_socket_address_is_closed_with_4404_not_a_server_error(api):
    c = api()

    async def scenario():
        ws = WebsocketCommunicator(application, "/ws/nothing/", headers=c.ws_headers())
        accepted, _ = await ws.connect()
        closed = await ws.receive_output(timeout=5)
        return accepted, closed

    accepted, closed = asyncio.run(scenario())
    assert accepted is True
    assert closed == {"type": "websocket.close", "code": 4404}


def test_garbage_on_the_socket_gets_an_error_and_changes_nothing(api):
    c = api()
    s = c.start("freecell", 617)

    async def scenario():
        ws = await opened(c, s["id"])
        out = []
        for text in ["not json", "[1]", '{"type": "fly"}', '{"type": "move", "seq": 0}']:
            await ws.send_to(text_data=text)
            out.append(await ws.receive_json_from())
        await ws.disconnect()
        return out

    answers = asyncio.run(scenario())
    assert [a["type"] for a in answers] == ["error"] * 4
    assert all(a["reason"] for a in answers)
    assert GameSession.objects.get(pk=s["id"]).moves == []


@pytest.mark.django_db(transaction=True)
def test_a_flood_of_resume_frames_is_closed_and_what_it_sent_dropped_unread(api, settings):
    """200,000 ``resume`` frames in 2.5 s kept the server reading the session from the
    database for two minutes after the socket closed: no frame type was limited and every
    queued frame was worked through.  A client that does not wait for its answers leaves
    frames waiting: past SOCKET_BACKLOG the socket is closed and the rest dropped unread."""
    settings.SOCKET_BACKLOG = 20
    c = api()
    s = c.start("klondike")
    reads = []

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)
        for _ in range(2000):
            await ws.send_to(text_data='{"type": "resume"}')
        out = []
        while True:
            got = await ws.receive_output(timeout=10)
            out.append(got)
            if got["type"] == "websocket.close":
                return out

    from games.play import operations

    real = operations.get_session
    operations.get_session = lambda *a: reads.append(1) or real(*a)
    try:
        out = asyncio.run(scenario())
    finally:
        operations.get_session = real
    assert out[-1] == {"type": "websocket.close", "code": 4429}
    assert len(out) < 25
    assert len(reads) < 25  # not 2,000 reads of the session


@pytest.mark.django_db(transaction=True)
def test_a_client_that_waits_but_sends_too_fast_is_refused_unread_then_closed(api, settings):
    settings.SOCKET_FRAMES_PER_SECOND, settings.SOCKET_FRAME_BURST = 5, 10
    c = api()
    s = c.start("klondike")

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)
        answers = []
        for _ in range(60):
            await ws.send_to(text_data='{"type": "resume"}')
            got = await ws.receive_output(timeout=10)
            answers.append(got)
            if got["type"] == "websocket.close":
                break
        return answers

    out = asyncio.run(scenario())
    import json as _json

    sent = [_json.loads(o["text"]) for o in out if o["type"] == "websocket.send"]
    states = [m for m in sent if m["type"] == "state"]
    refused = [m for m in sent if m.get("error") == "rate_limited"]
    assert 10 <= len(states) <= 13  # the burst (and what trickled back meanwhile)
    assert refused
    assert all(m["retry_after"] >= 1 for m in refused)
    assert out[-1] == {"type": "websocket.close", "code": 4429}
