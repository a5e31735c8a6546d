"""Live daily boards over /ws/leaderboards/<game>/<date>/ on the Redis channel layer."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from games.daily.deals import today
from games.models import GameSession
from leaderboards.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def board_socket(client, game="freecell"):
    return WebsocketCommunicator(
        application, f"/ws/leaderboards/{game}/{today().isoformat()}/", headers=client.ws_headers()
    )


async def _next(ws, kind, timeout=5.0):
    while True:
        msg = await ws.receive_json_from(timeout=timeout)
        if msg["type"] == kind:
            return msg


def _close(loop):
    """Close a test's loop, its pending tasks (a board's refresh, leaderboards/live.py) ended."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()


def _win_over_http(client, solve_freecell):
    s = client.start("freecell")
    for seq, token in enumerate(solve_freecell(s["deal_number"])):
        r = client.move(s, seq, token)
        assert r.status_code == 200
    assert r.json()["won"]
    return r.json()


def test_a_watcher_gets_the_board_presence_and_the_new_ranking_when_a_player_wins(
    api, solve_freecell
):
    watcher, player = api(), api()
    s = player.start("freecell")

    async def watch():
        board = board_socket(watcher)
        assert (await board.connect())[0]
        first = await _next(board, "leaderboard")
        idle = await _next(board, "presence")
        play = WebsocketCommunicator(
            application, f"/ws/sessions/{s['id']}/", headers=player.ws_headers()
        )
        await play.connect()
        await play.receive_json_from()
        busy = await _next(board, "presence")
        await play.disconnect()
        gone = await _next(board, "presence")
        await board.disconnect()
        return first, idle, busy, gone

    first, idle, busy, gone = asyncio.run(watch())
    assert first["entries"] == []
    assert idle["playing"] == 0
    assert busy["playing"] == 1
    assert gone["playing"] == 0

    async def after_win():
        board = board_socket(watcher)
        await board.connect()
        await _next(board, "leaderboard")
        return board

    # Eager tasks here: the win is scored inline and pushed to the open board.
    loop = asyncio.new_event_loop()
    board = loop.run_until_complete(after_win())
    won = _win_over_http(api(), solve_freecell)
    pushed = loop.run_until_complete(_next(board, "leaderboard"))
    loop.run_until_complete(board.disconnect())
    _close(loop)
    assert [e["won"] for e in pushed["entries"]] == [True]
    assert pushed["entries"][0]["session"] == won["id"]


def test_a_bad_board_address_is_closed_with_4400(api):
    headers = api().ws_headers()

    async def scenario():
        ws = WebsocketCommunicator(
            application, "/ws/leaderboards/chess/2026-01-01/", headers=headers
        )
        await ws.connect()
        await ws.receive_json_from()
        return await ws.receive_output()

    assert asyncio.run(scenario()) == {"type": "websocket.close", "code": 4400}


@pytest.mark.slow
def test_a_real_celery_worker_scores_a_win_and_pushes_the_ranking(api, solve_freecell, real_worker):
    with override_settings(CELERY_TASK_DEFAULT_QUEUE=real_worker):
        watcher, player = api(), api()
        loop = asyncio.new_event_loop()
        board = board_socket(watcher)
        loop.run_until_complete(board.connect())
        loop.run_until_complete(_next(board, "leaderboard"))
        won = _win_over_http(player, solve_freecell)
        t0 = time.monotonic()
        pushed = loop.run_until_complete(_next(board, "leaderboard", timeout=60))
        latency = time.monotonic() - t0
        loop.run_until_complete(board.disconnect())
        loop.close()
    assert pushed["entries"][0]["session"] == won["id"]
    assert pushed["entries"][0]["won"]
    assert latency < 1.0, f"the ranking arrived {latency:.2f} s after the win"
    entry = Entry.objects.get(session_id=won["id"])
    assert entry.time_ms == won["time_ms"]
    assert entry.moves == won["moves"]
    # The worker's scoring also reviewed it: a solver's line sent at machine speed.
    assert pushed["entries"][0]["review"] == "pending"
    assert entry.review == "pending"
    assert "fast_gaps" in GameSession.objects.get(pk=won["id"]).review_reasons


def test_the_unfinished_attempts_are_pushed_as_they_change(api, monkeypatch):
    """A start, moves and a resignation change no win, and nothing tells the boards: each
    process reads the boards its sockets watch again every few seconds (leaderboards/live.py)
    and sends one that changed."""
    from leaderboards import live

    monkeypatch.setattr(live, "REFRESH_SECONDS", 0.2)
    watcher, player = api(), api()
    loop = asyncio.new_event_loop()

    async def opened():
        board = board_socket(watcher)
        assert (await board.connect())[0]
        assert (await _next(board, "leaderboard"))["entries"] == []
        return board

    async def unfinished(board, want):
        while True:  # the refresh sends a board once it has changed
            rows = [e for e in (await _next(board, "leaderboard"))["entries"] if not e["won"]]
            if rows and want(rows[0]):
                return rows

    board = loop.run_until_complete(opened())
    s = player.start("freecell")
    moves = [m["move"] for m in s["legal_moves"]][:2]
    assert player.move(s, 0, moves[0]).status_code == 200
    rows = loop.run_until_complete(unfinished(board, lambda e: e["moves"] == 1))
    assert rows[0]["session"] == s["id"]
    assert rows[0]["status"] == "playing"
    state = player.get(f"/api/sessions/{s['id']}/").json()
    assert player.move(s, 1, state["legal_moves"][0]["move"]).status_code == 200
    loop.run_until_complete(unfinished(board, lambda e: e["moves"] == 2))
    assert player.post(f"/api/sessions/{s['id']}/resign/").status_code == 200
    rows = loop.run_until_complete(unfinished(board, lambda e: e["status"] == "resigned"))
    # Nothing changed since: nothing more is sent.
    assert loop.run_until_complete(board.receive_nothing(timeout=1.0))
    loop.run_until_complete(board.disconnect())
    loop.run_until_complete(asyncio.sleep(3 * live.REFRESH_SECONDS))  # the refresh ends
    assert not live._tickers
    loop.close()
