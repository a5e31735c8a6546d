"""The live race over /ws/leaderboards/<game>/<date>/?race=1 on real Redis: progress only,
at most one message a second per board, hidden players left out."""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.daily.deals import today
from leaderboards.race import FIELDS

pytestmark = pytest.mark.django_db(transaction=True)
CARD = re.compile(r"\b(?:10|[A2-9TJQK])[SHDC]\b")


def race_socket(client, game="freecell", race=True):
    query = "?race=1" if race else ""
    return WebsocketCommunicator(
        application,
        f"/ws/leaderboards/{game}/{today().isoformat()}/{query}",
        headers=client.ws_headers(),
    )


async def _play(client, session, moves):
    """Open the play socket and make ``moves`` legal moves; the socket stays open."""
    ws = WebsocketCommunicator(
        application, f"/ws/sessions/{session['id']}/", headers=client.ws_headers()
    )
    assert (await ws.connect())[0]
    st = await ws.receive_json_from(timeout=5)
    for _ in range(moves):
        move = next(m["move"] for m in st["legal_moves"] if m["move"] != "u")
        await ws.send_json_to({"type": "move", "seq": st["seq"], "move": move})
        st = await ws.receive_json_from(timeout=5)
        assert st["type"] == "state", st
    return ws, st


async def _races(ws, seconds):
    """Every race message that arrives in ``seconds`` (0: those queued already), with when
    it was read."""
    out = []
    deadline = time.monotonic() + seconds
    while True:
        left = max(0.0, deadline - time.monotonic())
        # receive_nothing waits without a timeout that would cancel the socket's task
        if await ws.receive_nothing(timeout=left, interval=0.005):
            break
        msg = await ws.receive_json_from()
        if msg["type"] == "race":
            out.append((time.monotonic(), msg))
    return out


async def _until(ws, pred, timeout=8.0):
    """Race messages up to the first one ``pred`` holds of (progress reaches the race within
    about two seconds of a move: a second's write, then a second's read)."""
    out = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out += await _races(ws, 0.2)
        if out and pred(out[-1][1]["players"]):
            return out
    raise AssertionError(f"no such race message in {timeout} s: {out[-1:] if out else out}")


def test_the_race_carries_progress_only_once_a_second_without_hidden_players(api):
    alice, bob, watcher = api(), api(), api()
    assert bob.patch("/api/me/", {"hide_from_race": True}).json()["hide_from_race"] is True
    a, b = alice.start("freecell"), bob.start("freecell")

    async def scenario():
        board = race_socket(watcher)
        assert (await board.connect())[0]
        plain = race_socket(alice, race=False)  # a board socket without the race
        await plain.connect()
        play_a, st_a = await _play(alice, a, 2)
        play_b, _ = await _play(bob, b, 1)
        early = await _races(board, 0)  # queued while the moves were made: not timed
        seen = await _until(board, lambda ps: any(p["moves"] == 2 for p in ps))
        seen += await _races(board, 2.5)
        heard_plain = []
        while not await plain.receive_nothing(timeout=0.1):
            heard_plain.append((await plain.receive_json_from())["type"])
        await play_a.disconnect()
        gone = await _races(board, 2.5)
        for ws in (play_b, board, plain):
            await ws.disconnect()
        return early, seen, gone, heard_plain, st_a

    early, seen, gone, heard_plain, st_a = asyncio.run(scenario())
    assert len(seen) >= 3
    times = [t for t, _ in seen + gone]
    assert all(later - earlier >= 0.95 for earlier, later in zip(times, times[1:], strict=False)), (
        times
    )
    for _, msg in early + seen + gone:
        assert set(msg) == {"type", "players"}
        for p in msg["players"]:
            assert set(p) == set(FIELDS), p
        assert not CARD.search(json.dumps(msg)), msg
    last = seen[-1][1]["players"]
    assert [p["player"] for p in last] == [alice.me["display_name"]]
    assert last[0]["session"] == a["id"]
    assert last[0]["moves"] == st_a["moves"] == 2
    assert last[0]["cards_up"] == st_a["cards_up"]
    assert last[0]["finished"] is False
    assert 0 <= last[0]["elapsed_ms"] < 60_000
    assert all(p["player"] != bob.me["display_name"] for _, m in seen + gone for p in m["players"])
    assert gone[-1][1]["players"] == []  # alice's socket closed: she left the race
    assert "race" not in heard_plain


def test_hiding_takes_effect_within_a_second_and_the_setting_is_strict(api):
    alice, watcher = api(), api()
    assert alice.me["hide_from_race"] is False
    assert alice.patch("/api/me/", {"hide_from_race": "yes"}).status_code == 400
    a = alice.start("freecell")

    async def scenario():
        board = race_socket(watcher)
        await board.connect()
        play, _ = await _play(alice, a, 1)
        shown = await _until(board, lambda ps: len(ps) == 1)
        await database_sync_to_async(alice.patch)("/api/me/", {"hide_from_race": True})
        gone = await _until(board, lambda ps: ps == [], timeout=3)  # the next second's
        hidden = await _races(board, 2.2)
        await play.disconnect()
        await board.disconnect()
        return shown, gone, hidden

    shown, gone, hidden = asyncio.run(scenario())
    assert len(gone) <= 3  # out within the second or two the messages on their way take
    assert [p["player"] for p in shown[-1][1]["players"]] == [alice.me["display_name"]]
    assert hidden
    assert all(m["players"] == [] for _, m in hidden)
