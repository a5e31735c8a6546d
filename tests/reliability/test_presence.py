""" "Playing now" heals: two web processes share the count of open play sockets on a daily
deal; when one is killed (kill -9, no goodbye), its sockets stop counting within the
staleness cutoff and the board watchers on the other are told, while the sockets still open
keep counting however long they stay.  Before the heartbeat, a killed process's sockets
stayed in the count for two days (the set's expiry, renewed by every join).

The heartbeat and the cutoff are shortened here (1 s and 3 s; 10 s and 30 s by default), so
the test takes seconds; docs/operations.md says what they are in production."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import websockets

from tests.reliability.stack import (
    Browser,
    Daphne,
    PrivatePostgres,
    PrivateRedis,
    migrate,
    run_async,
    site_env,
)

pytestmark = pytest.mark.slow
LOGS = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"
HEARTBEAT, STALE = 1, 3


@pytest.fixture(scope="module")
def two_processes():
    LOGS.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    webs: list[Daphne] = []
    try:
        pg.start()
        pg.create_database()
        rd.start()
        env = site_env(
            pg.url,
            rd.url,
            PRESENCE_HEARTBEAT_SECONDS=str(HEARTBEAT),
            PRESENCE_STALE_SECONDS=str(STALE),
        )
        migrate(env)
        for i in range(2):
            web = Daphne(env, LOGS / f"presence-daphne-{i}.log")
            web.start()
            webs.append(web)
        yield webs
    finally:
        for web in webs:
            web.close()
        rd.close()
        pg.close()


def _daily_playing(web: Daphne, game: str) -> int:
    status, body, _ = Browser(web.base).call("GET", "/api/daily/")
    assert status == 200, body
    return next(d["playing"] for d in body["deals"] if d["game"] == game)


def test_a_killed_process_stops_counting_within_the_cutoff(two_processes):
    a, b = two_processes
    players = [(Browser(a.base), a), (Browser(a.base), a), (Browser(b.base), b)]
    sessions = [p.start("freecell", "daily") for p, _ in players]
    day = sessions[0]["date"]
    seen: list[tuple[float, int]] = []

    async def scenario() -> tuple[float, list[int]]:
        board = await websockets.connect(
            f"ws://127.0.0.1:{b.port}/ws/leaderboards/freecell/{day}/",
            additional_headers={"Origin": b.base},
        )

        async def watch() -> None:
            async for raw in board:
                msg = json.loads(raw)
                if msg["type"] == "presence":
                    seen.append((time.monotonic(), msg["playing"]))

        watching = asyncio.create_task(watch())
        sockets = []
        for (player, web), session in zip(players, sessions, strict=True):
            ws = await websockets.connect(
                f"ws://127.0.0.1:{web.port}/ws/sessions/{session['id']}/",
                additional_headers={"Cookie": player.cookie_header(), "Origin": web.base},
            )
            assert json.loads(await ws.recv())["type"] == "hello"
            sockets.append(ws)
        await asyncio.sleep(STALE + 2 * HEARTBEAT)  # live sockets outlast the cutoff
        counts = [await asyncio.to_thread(_daily_playing, b, "freecell")]
        killed = time.monotonic()
        a.kill()  # SIGKILL: its two sockets never leave
        await asyncio.sleep(STALE + 3 * HEARTBEAT)
        counts.append(await asyncio.to_thread(_daily_playing, b, "freecell"))
        await sockets[2].close()  # the last one leaves as usual
        await asyncio.sleep(1)
        counts.append(await asyncio.to_thread(_daily_playing, b, "freecell"))
        watching.cancel()
        await board.close()
        return killed, counts

    killed, counts = run_async(scenario())
    assert counts == [3, 1, 0], counts
    told = [(at - killed, n) for at, n in seen if at > killed]
    assert told, (told, seen)
    assert told[0][1] == 1, (told, seen)  # the board was told, not only a reader
    assert told[0][0] < STALE + 2 * HEARTBEAT + 1, told
