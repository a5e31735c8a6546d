"""Faults on real processes, against a private PostgreSQL cluster and a private Redis (so
stopping them disturbs nothing else): Daphne killed mid-game, Redis stopped for a while,
PostgreSQL restarted.  No acknowledged move is ever lost or stored twice.

(A Celery worker killed mid-task is tests/leaderboards/test_worker_crash.py.)
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import websockets

from games.engine import replay
from tests.reliability.stack import (
    Browser,
    Daphne,
    PrivatePostgres,
    PrivateRedis,
    celery_worker,
    fc_solution,
    migrate,
    run_async,
    site_env,
    stop,
    stored_session,
)

pytestmark = pytest.mark.slow
LOGS = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"


@pytest.fixture(scope="module")
def stack():
    LOGS.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    procs = []
    try:
        pg.start()
        pg.create_database()
        rd.start()
        env = site_env(pg.url, rd.url)
        migrate(env)
        web = Daphne(env, LOGS / "daphne.log")
        web.start()
        procs.append(celery_worker(env, LOGS / "worker.log", "faults"))
        yield {"pg": pg, "redis": rd, "env": env, "web": web}
    finally:
        for p in procs:
            stop(p)
        if "web" in locals():
            web.close()
        rd.close()
        pg.close()


def assert_stored_exactly(db_url: str, sid: str, acked: list[str]) -> dict:
    s = stored_session(db_url, sid)
    assert s["tokens"] == acked, (len(s["tokens"]), len(acked))
    assert s["seq"] == len(acked)
    g = replay(s["game"], s["seed"], s["tokens"])  # every stored move is legal, in order
    assert s["cards_up"] == g.cards_up
    return s


def test_killing_daphne_mid_game_keeps_every_acknowledged_move(stack):
    web, db = stack["web"], stack["pg"].url
    player = Browser(web.base)
    s = player.start("freecell", 617)
    solution = fc_solution(617)
    acked: list[str] = []

    async def play(n_kill: int) -> tuple[int, int]:
        """Plays until ``n_kill`` moves are acknowledged, sends one more and kills Daphne
        while it is in flight; returns the resumed seq and the final seq."""
        url = f"ws://127.0.0.1:{web.port}/ws/sessions/{s['id']}/"
        headers = {"Cookie": player.cookie_header(), "Origin": web.base}
        async with websockets.connect(url, additional_headers=headers) as ws:
            state = json.loads(await ws.recv())
            while len(acked) < n_kill:
                token = solution[state["seq"]]
                await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": token}))
                state = json.loads(await ws.recv())
                assert state["type"] == "state", state
                acked.append(token)
            await ws.send(
                json.dumps({"type": "move", "seq": state["seq"], "move": solution[state["seq"]]})
            )
            web.kill()
            try:
                answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if answer.get("type") == "state":
                    acked.append(solution[len(acked)])  # it made it before the kill
            except (TimeoutError, websockets.ConnectionClosed):
                pass
        web.start()
        async with websockets.connect(url, additional_headers=headers) as ws:
            resumed = json.loads(await ws.recv())
            state = resumed
            while not state["won"]:
                token = solution[state["seq"]]
                await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": token}))
                state = json.loads(await ws.recv())
                assert state["type"] == "state", state
            return resumed["seq"], state["seq"]

    resumed_seq, final_seq = run_async(play(25))
    # The move in flight at the kill is either stored (and resumed past) or not: never half.
    assert resumed_seq in (len(acked), len(acked) + 1)
    assert final_seq == len(solution)
    assert_stored_exactly(db, s["id"], solution)
    assert stored_session(db, s["id"])["status"] == "won"


def test_with_redis_stopped_http_play_goes_on_and_live_features_return_after(stack):
    web, db, rd, env = stack["web"], stack["pg"].url, stack["redis"], stack["env"]
    first = Browser(web.base)
    s = first.start("freecell", "daily")
    solution = fc_solution(s["deal_number"])
    half = len(solution) // 2
    for seq, token in enumerate(solution[:half]):
        assert first.move(s["id"], seq, token)[0] == 200
    rd.stop()
    try:
        outage_start = time.monotonic()
        for seq, token in enumerate(solution[half:], start=half):
            status, body, _ = first.move(s["id"], seq, token)
            assert status == 200, body
        assert body["won"]
        assert body["ranked"]
        late = Browser(web.base)  # a newcomer during the outage plays too
        ls = late.start("klondike", "random")
        assert late.move(ls["id"], 0, ls["legal_moves"][0]["move"])[0] == 200
        outage = time.monotonic() - outage_start
    finally:
        rd.start()
    assert_stored_exactly(db, s["id"], solution)
    day = s["date"]
    status, board, _ = first.call("GET", f"/api/leaderboards/freecell/{day}/")
    assert status == 200
    assert [e["session"] for e in board["entries"]] == [s["id"]]

    # Live features are back: a board socket gets the board and presence, a play socket plays.
    async def live() -> list[dict]:
        board_url = f"ws://127.0.0.1:{web.port}/ws/leaderboards/freecell/{day}/"
        headers = {"Origin": web.base}
        got = []
        deadline = time.monotonic() + 30
        while True:
            try:
                async with websockets.connect(board_url, additional_headers=headers) as ws:
                    got = [json.loads(await ws.recv()), json.loads(await ws.recv())]
                    second = Browser(web.base)
                    s2 = second.start("freecell", "daily")
                    for seq, token in enumerate(fc_solution(s2["deal_number"])):
                        assert second.move(s2["id"], seq, token)[0] == 200
                    while True:  # the worker scores the win and pushes the board
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        got.append(msg)
                        if msg["type"] == "leaderboard" and len(msg["entries"]) == 2:
                            return got
            except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    messages = run_async(live())
    assert messages[0]["type"] == "leaderboard"
    assert messages[1]["type"] == "presence"
    assert s["id"] in {e["session"] for e in messages[-1]["entries"]}
    # The rank index was rebuilt from PostgreSQL: both wins are in it, the outage one too.
    import redis

    r = redis.Redis.from_url(rd.url)
    key = f"{env['REDIS_KEY_PREFIX']}:rank:freecell:{day}"
    deadline = time.monotonic() + 20
    while r.zcard(key) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert r.zcard(key) == 2
    assert r.zscore(key, s["id"]) is not None
    assert outage < 60


def test_restarting_postgresql_gives_clear_503s_and_no_half_written_move(stack):
    web, pg = stack["web"], stack["pg"]
    player = Browser(web.base)
    s = player.start("freecell", 617)
    solution = fc_solution(617)
    acked: list[str] = []
    for token in solution[:10]:
        assert player.move(s["id"], len(acked), token)[0] == 200
        acked.append(token)

    async def outage() -> tuple[list, dict, dict]:
        url = f"ws://127.0.0.1:{web.port}/ws/sessions/{s['id']}/"
        headers = {"Cookie": player.cookie_header(), "Origin": web.base}
        async with websockets.connect(url, additional_headers=headers) as ws:
            assert json.loads(await ws.recv())["seq"] == len(acked)
            await asyncio.to_thread(pg.stop)
            answers = []
            try:
                for _ in range(3):
                    answers.append(
                        await asyncio.to_thread(
                            player.move, s["id"], len(acked), solution[len(acked)]
                        )
                    )
                me = await asyncio.to_thread(player.call, "GET", "/api/me/")
                await ws.send(
                    json.dumps({"type": "move", "seq": len(acked), "move": solution[len(acked)]})
                )
                on_socket = json.loads(await asyncio.wait_for(ws.recv(), 30))
            finally:
                await asyncio.to_thread(pg.start)
            # The same socket plays again once the database is back.
            deadline = time.monotonic() + 30
            while True:
                await ws.send(
                    json.dumps({"type": "move", "seq": len(acked), "move": solution[len(acked)]})
                )
                after = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if after["type"] == "state" or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.5)
            return answers, me, on_socket, after

    outage_answers, me, on_socket, after = run_async(outage())
    for status, body, headers in outage_answers:
        assert status == 503, (status, body)
        assert body["error"] == "unavailable"
        assert int(headers["Retry-After"]) >= 1
    # Who the player is needs no database: the session and the player are read from Redis.
    assert me[0] == 200, me
    assert me[1]["id"] == player.me["id"], me
    assert on_socket["type"] == "error", on_socket
    assert on_socket["error"] == "unavailable", on_socket
    assert after["type"] == "state", after
    assert after["seq"] == len(acked) + 1, after
    acked.append(solution[len(acked)])
    for token in solution[len(acked) : len(acked) + 10]:
        status, body, _ = player.move(s["id"], len(acked), token)
        assert status == 200, body
        acked.append(token)
    assert_stored_exactly(pg.url, s["id"], acked)
