"""A move is stored once, whatever the connection does (the server's half; the browser's
half is in tests/frontend/test_slow_socket.py).

The argument: every operation carries the client's id for it (``op``) and the ``seq`` it
was made at.  The server stores ``op`` with the move, and the statement that stores a move
requires the row to be at that ``seq`` and its last move not to carry that ``op``.  So a
second try of one operation can only find (a) the row still at its ``seq`` -- the first try
was never stored, and this one is -- or (b) its own ``op`` at its ``seq`` (or as the last
move) -- answered with the state, ``repeated``, and nothing stored.  Two tries racing on
two connections are two statements on one row: the row lock makes one of them see the
other's result, which is (b).
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import GameSession


def stored(session_id: str) -> list[list]:
    return GameSession.objects.get(pk=session_id).moves


def test_a_retried_move_is_answered_with_the_state_and_stored_once(api):
    c = api()
    s = c.start("klondike", "random")
    first = c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": "s", "op": "tap-1"})
    again = c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": "s", "op": "tap-1"})
    assert first.status_code == again.status_code == 200
    assert "repeated" not in first.json()
    assert again.json()["repeated"] is True
    assert again.json()["seq"] == 1
    assert again.json()["op"] == "tap-1"
    assert [m[0] for m in stored(s["id"])] == ["s"]
    assert stored(s["id"])[0][2] == "tap-1"


def test_a_retry_sent_with_the_seq_its_first_try_produced_is_not_a_second_move(api):
    """Finding 5 as the old browser sent it: the late answer moved its seq on, and the
    retry went out with that seq.  It is still the same operation."""
    c = api()
    s = c.start("klondike", "random")
    c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": "s", "op": "tap-2"})
    retry = c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 1, "move": "s", "op": "tap-2"})
    assert retry.status_code == 200
    assert retry.json()["repeated"] is True
    assert len(stored(s["id"])) == 1


def test_another_operation_at_a_stale_seq_is_refused(api):
    c = api()
    s = c.start("klondike", "random")
    c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": "s", "op": "a"})
    other = c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": "s", "op": "b"})
    assert other.status_code == 409
    assert other.json()["seq"] == 1
    assert len(stored(s["id"])) == 1


def test_undo_and_finish_retries_are_answered_once(api, solve_freecell):
    c = api()
    s = c.start("freecell", 617)
    c.move(s, 0, "8a")
    for _ in range(2):
        r = c.post(f"/api/sessions/{s['id']}/undo/", {"seq": 1, "op": "undo-1"})
        assert r.status_code == 200
        assert r.json()["seq"] == 2
    assert [m[0] for m in stored(s["id"])] == ["8a", "u"]

    seq = 2
    for token in solve_freecell(617):
        body = c.move(s, seq, token).json()
        seq += 1
        if body["can_finish"]:
            break
    answers = [
        c.post(f"/api/sessions/{s['id']}/finish/", {"seq": seq, "op": "fin"}) for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1].json()["repeated"] is True
    assert answers[1].json()["won"] is True
    assert len(stored(s["id"])) == answers[0].json()["seq"]


@pytest.mark.parametrize("op", ["", "x" * 41, "tap 1", 7, ["a"], "é"])
def test_a_malformed_op_is_refused_and_nothing_is_stored(api, op):
    c = api()
    s = c.start("klondike", "random")
    r = c.post(f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": "s", "op": op})
    assert r.status_code == 400
    assert r.json()["reason"]
    assert stored(s["id"]) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_the_socket_and_an_http_retry_racing_store_one_move(api, round_):
    """The browser's retry path: the socket's try is in flight when the HTTP retry of the
    same operation goes out."""
    c = api()
    s = c.start("klondike", "random")
    answers: dict[str, dict] = {}
    barrier = threading.Barrier(2)

    async def over_socket():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        await ws.connect()
        await ws.receive_json_from(timeout=10)
        await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
        await ws.send_json_to({"type": "move", "seq": 0, "move": "s", "op": "race"})
        answers["socket"] = await ws.receive_json_from(timeout=10)
        await ws.disconnect()

    def over_http():
        from django.test import Client

        other = Client(enforce_csrf_checks=True)
        for key, morsel in c.client.cookies.items():
            other.cookies[key] = morsel.value
        barrier.wait()
        try:
            r = other.post(
                f"/api/sessions/{s['id']}/moves/",
                '{"seq": 0, "move": "s", "op": "race"}',
                content_type="application/json",
                HTTP_X_CSRFTOKEN=c.csrf,
            )
            answers["http"] = {**r.json(), "http_status": r.status_code}
        finally:
            from django.db import connections

            connections.close_all()  # back to the pool: the test client does not do it

    t = threading.Thread(target=over_http)
    t.start()
    asyncio.run(over_socket())
    t.join(30)
    assert answers["socket"]["type"] == "state"
    assert answers["socket"]["seq"] == 1
    assert answers["http"]["http_status"] == 200
    assert answers["http"]["seq"] == 1
    assert [bool(answers[k].get("repeated")) for k in ("socket", "http")].count(True) == 1
    assert [m[0] for m in stored(s["id"])] == ["s"]
