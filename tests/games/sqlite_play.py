"""Every operation over HTTP (and the socket's) on SQLite, the database ``make run`` uses
with no DATABASE_URL: run by test_sqlite_path.py in a pytest of its own with DATABASE_URL
on an SQLite file (the name keeps it out of the PostgreSQL run).  On SQLite no statement of PostgreSQL's runs: a
move takes the locked path with the ORM's row lock, a session is read by the ORM, a
resign is stored under the lock, a start locks the player without FOR UPDATE, and every
socket message runs in a pool thread."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games.engine import new_game
from games.models import GameSession, Move

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_database_is_sqlite():
    assert connection.vendor == "sqlite"


def _post(c: Any, sid: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return c.post(f"/api/sessions/{sid}/{path}", body)


def test_start_move_refusal_retry_undo_and_resign(api):
    c = api()
    s = c.start("freecell", 617)
    sid, first = s["id"], s["legal_moves"][0]["move"]
    r = _post(c, sid, "moves/", {"seq": 0, "move": first, "op": "m1"})
    assert r.status_code == 200, r.content
    assert r.json()["seq"] == 1
    again = _post(c, sid, "moves/", {"seq": 0, "move": first, "op": "m1"})
    assert again.status_code == 200  # the same operation retried: answered, not stored
    assert again.json()["repeated"] is True
    stale = _post(c, sid, "moves/", {"seq": 0, "move": first})
    assert stale.status_code == 409
    assert stale.json()["error"] == "stale_seq"
    g = new_game("freecell", 617)
    g.play(first)
    bad = next(f"{col}h" for col in "12345678" if g.reason(g.parse(f"{col}h")) is not None)
    refused = _post(c, sid, "moves/", {"seq": 1, "move": bad})
    assert refused.status_code == 422
    assert refused.json()["error"] == "illegal_move"
    assert refused.json()["code"]
    undone = _post(c, sid, "undo/", {"seq": 1})
    assert undone.status_code == 200, undone.content
    assert (undone.json()["seq"], undone.json()["moves"], undone.json()["undo_count"]) == (2, 0, 1)
    assert _post(c, sid, "moves/", {"seq": 2, "move": first}).status_code == 200
    by_token = _post(c, sid, "moves/", {"seq": 3, "move": "UNDO"})
    assert by_token.json()["undo_count"] == 2
    no_seq = _post(c, sid, "undo/", {})  # undo with no seq: the current state's last move
    assert no_seq.status_code == 422  # nothing left to take back
    assert no_seq.json()["code"] == "no_undo"
    assert GameSession.objects.get(pk=sid).tokens == [first, "u", first, "u"]
    assert Move.objects.filter(session_id=sid).count() == 4
    resigned = _post(c, sid, "resign/", {"seq": 4})
    assert resigned.status_code == 200, resigned.content
    assert resigned.json()["status"] == "resigned"
    twice = _post(c, sid, "resign/", {})
    assert twice.status_code == 200
    assert twice.json()["repeated"] is True
    after = _post(c, sid, "moves/", {"seq": 4, "move": first})
    assert after.status_code == 422  # refused by the session's state, worded with a code
    assert after.json()["code"] == "game_resigned"
    assert c.get(f"/api/sessions/{sid}/").json()["status"] == "resigned"


def test_a_hint_is_counted_and_names_a_legal_move(api):
    c = api()
    s = c.start("freecell", 617)
    r = _post(c, s["id"], "hint/")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["hint_count"] == 1
    assert body["hint"]["move"] in {m["move"] for m in s["legal_moves"]}
    assert GameSession.objects.get(pk=s["id"]).hint_count == 1


def test_a_game_played_to_its_end_is_finished_and_won(api, solve_freecell):
    c = api()
    s = c.start("freecell", 1)
    state = s
    for token in solve_freecell(1):
        if state["can_finish"]:
            break
        r = _post(c, s["id"], "moves/", {"seq": state["seq"], "move": token})
        assert r.status_code == 200, r.content
        state = r.json()
    assert state["can_finish"], "the line ended before the table could be finished"
    done = _post(c, s["id"], "finish/", {"seq": state["seq"], "op": "fin"})
    assert done.status_code == 200, done.content
    won = done.json()
    assert won["won"] is True
    assert won["status"] == "won"
    assert won["seq"] > state["seq"]  # each card sent up is a move of its own
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.status == GameSession.WON
    assert stored.time_ms is not None
    again = _post(c, s["id"], "finish/", {"seq": state["seq"], "op": "fin"})
    assert again.json()["repeated"] is True


def test_the_daily_is_ranked_once_and_a_second_start_is_refused_while_it_is_open(api):
    c = api()
    first = c.start("freecell")
    assert first["ranked"] is True
    r = c.post("/api/sessions/", {"game": "freecell", "deal": "daily"})
    assert r.status_code == 409
    assert r.json()["error"] == "ranked_attempt_open"
    assert _post(c, first["id"], "resign/", {"seq": 0}).status_code == 200
    second = c.start("freecell")
    assert second["ranked"] is False


def test_the_socket_plays_through_the_locked_path(api):
    """No batched statement on SQLite: every socket message runs in a pool thread."""
    import asyncio

    from tests.games.sockets import opened

    c = api()
    s = c.start("freecell", 617)
    first = s["legal_moves"][0]["move"]

    async def scenario() -> list[dict[str, Any]]:
        ws = await opened(c, s["id"])
        answers = []
        for message in (
            {"type": "move", "seq": 0, "move": first, "op": "s1"},
            {"type": "move", "seq": 0, "move": first, "op": "s1"},
            {"type": "undo", "seq": 1},
            {"type": "resume"},
            {"type": "jump"},
        ):
            await ws.send_json_to(message)
            answers.append(await ws.receive_json_from(timeout=30))
        await ws.disconnect()
        return answers

    moved, repeated, undone, resumed, unknown = asyncio.run(scenario())
    assert (moved["type"], moved["seq"]) == ("state", 1), moved
    assert repeated["repeated"] is True
    assert (undone["seq"], undone["moves"], undone["undo_count"]) == (2, 0, 1), undone
    assert resumed["seq"] == 2
    assert unknown["error"] == "bad_request"
    assert GameSession.objects.get(pk=s["id"]).tokens == [first, "u"]
