"""Redis that fails over (docs/operations.md, "Redis Sentinel"): the site on a primary, a
replica and three Sentinels (``REDIS_SENTINELS``, ``REDIS_SENTINEL_MASTER``, and no
``REDIS_URL``), with a worker.  The primary is killed in the middle of a ranked game: every
acknowledged move is kept, the readiness probe, the broker, the channel layer, the rank
index and the cache follow the Sentinels to the promoted replica, the game is won, and the
win reaches the board (its page and a socket watching it).  Every key the site and Celery
wrote on the new primary is under the site's prefix."""

from __future__ import annotations

import asyncio
import json
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets

from tests.reliability.sentinel import MASTER, SentinelGroup
from tests.reliability.stack import (
    Browser,
    Daphne,
    PrivatePostgres,
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
PACE = 0.1  # seconds between a player's moves after the kill (a fast player)


@pytest.fixture(scope="module")
def stack():
    if shutil.which("redis-sentinel") is None:
        pytest.skip(
            "redis-sentinel is not installed (Debian: apt-get install redis-sentinel; "
            ".ci/run installs it)"
        )
    LOGS.mkdir(parents=True, exist_ok=True)
    web_log, worker_log = LOGS / "daphne-sentinel.log", LOGS / "worker-sentinel.log"
    for log in (web_log, worker_log):
        log.unlink(missing_ok=True)
    pg, group = PrivatePostgres(), SentinelGroup()
    procs = []
    try:
        pg.start()
        pg.create_database()
        group.start()
        # Readiness checked on every probe: one kept from before the kill would say ready.
        env = site_env(
            pg.url,
            "",
            REDIS_SENTINELS=group.sentinels,
            REDIS_SENTINEL_MASTER=MASTER,
            LOG_LEVEL="INFO",
            HEALTH_CACHE_SECONDS="0",
        )
        migrate(env)
        web = Daphne(env, web_log)
        web.start()
        procs.append(celery_worker(env, worker_log, "sentinel"))
        yield {"pg": pg, "group": group, "env": env, "web": web, "log": web_log}
    finally:
        for p in procs:
            stop(p)
        if "web" in locals():
            web.close()
        group.keep_logs(LOGS)
        group.close()
        pg.close()


def readyz(base: str, query: str = "") -> int:
    try:
        with urllib.request.urlopen(f"{base}/readyz{query}", timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


async def _watch(
    url: str,
    origin: str,
    session: int,
    times: dict[str, float],
    watching: asyncio.Event,
    seen: list[dict],
) -> None:
    """A watcher opens the board once the site is ready again, and waits for the win;
    a socket closed while the Sentinels still elect is opened again, as socket.js does."""
    while "ready" not in times:
        await asyncio.sleep(0.05)
    deadline = time.monotonic() + 60
    while True:
        try:
            async with websockets.connect(url, additional_headers={"Origin": origin}) as ws:
                seen.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                watching.set()
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    seen.append(msg)
                    if msg["type"] == "leaderboard" and any(
                        e.get("session") == session for e in msg["entries"]
                    ):
                        times["pushed"] = time.monotonic()
                        return
        except (websockets.ConnectionClosed, OSError):
            times["watcher_reopened"] = times.get("watcher_reopened", 0) + 1
            assert time.monotonic() < deadline, "the board's socket never stayed open"
            await asyncio.sleep(0.5)


def test_killing_the_primary_mid_game_keeps_every_move_and_the_win_reaches_the_board(stack):
    web, group, env = stack["web"], stack["group"], stack["env"]
    assert readyz(web.base, "?worker=1") == 200
    old_primary = group.primary_port()
    assert old_primary == group.ports["primary"]
    player = Browser(web.base)
    s = player.start("freecell", "daily")
    day, solution = s["date"], fc_solution(s["deal_number"])
    kill_at = len(solution) // 3
    acked: list[str] = []
    times: dict[str, float] = {}

    async def recovered() -> None:
        """Readiness through the site's own clients, polled from the kill on."""
        while "kill" not in times:
            await asyncio.sleep(0.05)
        while await asyncio.to_thread(readyz, web.base, "?worker=1") != 200:
            await asyncio.sleep(0.1)
        times["ready"] = time.monotonic()

    async def play(watching: asyncio.Event) -> dict:
        url = f"ws://127.0.0.1:{web.port}/ws/sessions/{s['id']}/"
        headers = {"Cookie": player.cookie_header(), "Origin": web.base}
        async with websockets.connect(url, additional_headers=headers) as ws:
            state = json.loads(await ws.recv())
            for seq, token in enumerate(solution):
                if seq == kill_at:
                    await asyncio.to_thread(group.kill, "primary")
                    times["kill"] = time.monotonic()
                if seq == len(solution) - 1:  # the win, once someone watches the board
                    await asyncio.wait_for(watching.wait(), 60)
                await ws.send(json.dumps({"type": "move", "seq": seq, "move": token}))
                state = json.loads(await asyncio.wait_for(ws.recv(), 30))
                assert state["type"] == "state", (seq, state)
                acked.append(token)
                if seq >= kill_at:
                    await asyncio.sleep(PACE)
            return state

    async def scenario() -> tuple[dict, list[dict]]:
        watching, seen = asyncio.Event(), []
        board = f"ws://127.0.0.1:{web.port}/ws/leaderboards/freecell/{day}/"
        tasks = [
            asyncio.create_task(recovered()),
            asyncio.create_task(_watch(board, web.base, s["id"], times, watching, seen)),
        ]
        final = await play(watching)
        await asyncio.wait_for(asyncio.gather(*tasks), 90)
        return final, seen

    final, seen = run_async(scenario())
    # Every acknowledged move is stored, in order, and the game is won.
    assert final["won"]
    assert acked == solution
    stored = stored_session(stack["pg"].url, s["id"])
    assert stored["tokens"] == acked
    assert stored["status"] == "won"
    # The Sentinels promoted the replica, and the site followed.
    assert group.primary_port() == group.ports["replica"]
    status, board, _ = player.call("GET", f"/api/leaderboards/freecell/{day}/")
    assert status == 200
    assert s["id"] in {e.get("session") for e in board["entries"]}
    # The win went through the broker on the new primary, not the inline fallback.
    log = stack["log"].read_text()
    assert "scoring inline" not in log, log[-3000:]
    new = group.client("replica")
    prefix = env["REDIS_KEY_PREFIX"]
    # The rank index on the new primary: the win's entry, or the index rebuilt by the task
    # a board without one asks for (leaderboards/index.py).
    deadline = time.monotonic() + 20
    while new.zscore(f"{prefix}:rank:freecell:{day}", s["id"]) is None:
        assert time.monotonic() < deadline, "the rank index never got the win"
        time.sleep(0.2)
    keys = [k.decode() for k in new.scan_iter(count=1000)]
    assert keys, sorted(keys)
    assert all(k.startswith(f"{prefix}:") for k in keys), sorted(keys)
    assert any(k.startswith(f"{prefix}:celery:") for k in keys), sorted(keys)
    figures = {
        "moves": len(solution),
        "killed_after_move": kill_at,
        "ready_after_s": round(times["ready"] - times["kill"], 2),
        "board_pushed_after_s": round(times["pushed"] - times["kill"], 2),
        "watcher_reopened": times.get("watcher_reopened", 0),
    }
    (LOGS / "redis-failover.json").write_text(json.dumps(figures, indent=1))
    print("redis failover:", figures)
