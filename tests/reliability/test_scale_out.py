"""Scale-out on one machine: two Daphne processes and two Celery workers sharing one
PostgreSQL and one Redis.  A player on one process and a board watcher on the other see the
same live updates, and each win is scored once, whichever worker takes it."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import psycopg
import pytest
import websockets

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
)

pytestmark = pytest.mark.slow
LOGS = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"


@pytest.fixture(scope="module")
def two_of_each():
    LOGS.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    webs, workers = [], []
    try:
        pg.start()
        pg.create_database()
        rd.start()
        env = site_env(pg.url, rd.url)
        migrate(env)
        for i in range(2):
            web = Daphne(env, LOGS / f"scale-daphne-{i}.log")
            web.start()
            webs.append(web)
            workers.append(celery_worker(env, LOGS / f"scale-worker-{i}.log", f"w{i}"))
        yield {"webs": webs, "db": pg.url}
    finally:
        for w in workers:
            stop(w)
        for web in webs:
            web.close()
        rd.close()
        pg.close()


def test_a_player_on_one_process_and_a_watcher_on_the_other_see_the_same_updates(two_of_each):
    a, b = two_of_each["webs"]
    players = [Browser(a.base), Browser(b.base)]  # one player on each process
    sessions = [p.start("freecell", "daily") for p in players]
    day = sessions[0]["date"]
    assert sessions[0]["deal"] == sessions[1]["deal"]

    async def watch(web: Daphne, seen: list[dict], stop_after: int) -> None:
        url = f"ws://127.0.0.1:{web.port}/ws/leaderboards/freecell/{day}/"
        async with websockets.connect(url, additional_headers={"Origin": web.base}) as ws:
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                seen.append(msg)
                boards = [m for m in seen if m["type"] == "leaderboard"]
                if boards and len(boards[-1]["entries"]) >= stop_after:
                    return

    async def play(player: Browser, web: Daphne, session: dict) -> None:
        url = f"ws://127.0.0.1:{web.port}/ws/sessions/{session['id']}/"
        headers = {"Cookie": player.cookie_header(), "Origin": web.base}
        async with websockets.connect(url, additional_headers=headers) as ws:
            state = json.loads(await ws.recv())
            for token in fc_solution(session["deal_number"]):
                await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": token}))
                state = json.loads(await ws.recv())
                assert state["type"] == "state", state
            assert state["won"]
            await asyncio.sleep(0.5)

    async def scenario() -> tuple[list[dict], list[dict]]:
        on_a: list[dict] = []
        on_b: list[dict] = []
        watchers = [asyncio.create_task(watch(a, on_a, 2)), asyncio.create_task(watch(b, on_b, 2))]
        await asyncio.sleep(1.0)  # both watchers subscribed
        await play(players[0], a, sessions[0])  # plays on A: the watcher on B must see it
        await play(players[1], b, sessions[1])  # plays on B: the watcher on A must see it
        await asyncio.wait_for(asyncio.gather(*watchers), 90)
        return on_a, on_b

    on_a, on_b = run_async(scenario())
    for seen in (on_a, on_b):
        presence = [m["playing"] for m in seen if m["type"] == "presence"]
        assert 1 in presence, presence  # a socket open on either process is counted
        boards = [m for m in seen if m["type"] == "leaderboard"]
        final = boards[-1]["entries"]
        assert {e["session"] for e in final} == {s["id"] for s in sessions}
        assert [e["rank"] for e in final] == [1, 2]
    assert [
        e["session"] for e in [m for m in on_a if m["type"] == "leaderboard"][-1]["entries"]
    ] == [e["session"] for e in [m for m in on_b if m["type"] == "leaderboard"][-1]["entries"]]
    time.sleep(1)
    with psycopg.connect(two_of_each["db"]) as conn:
        count = conn.execute("SELECT count(*) FROM leaderboards_entry").fetchone()[0]
    assert count == 2  # each win scored once, by one of the two workers
