"""`make stack` as an operator uses it: two web processes behind HAProxy (deploy/haproxy.cfg),
a worker and beat on a private PostgreSQL and Redis.  While players play over sockets and
requests arrive at 5 a second through the balancer, a web process is killed (kill -9), then
every web process is restarted in turn (SIGTERM): no request fails, every socket that was
cut greets again within 3 s of its process stopping, and every game's stored moves are
exactly the moves its socket was answered for, in order (nothing lost, nothing doubled: the
state's seq goes up by one per answer).

Without the balancer's retries and the drain (the configuration and server before them,
with the page's old reconnection steps), the same run failed 1-2 requests (502, 503) per
scenario and sockets took 4.8-5.2 s to come back (bench/failover.py)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from scripts.balancer import servers_up
from tests.reliability.stack import (
    ROOT,
    Browser,
    PrivatePostgres,
    PrivateRedis,
    collected_static,
    fc_solution,
    run_async,
    site_env,
    stored_session,
)
from tests.reliability.traffic import CLOSE_RESTART, PlaySocket, Requests

pytestmark = pytest.mark.slow
LOGS = ROOT / "artifacts" / "reliability"
SECONDS = 20  # of requests at 5 a second, as an operator's check would run
PLAYERS = 4


def _free_block(size: int) -> int:
    """A port p with p .. p+size-1 and p+404 free (the balancer, the web processes, the
    balancer's figures)."""
    for _ in range(200):
        p = random.randint(20000, 55000)
        try:
            for q in [*range(p, p + size), p + 404]:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", q))
        except OSError:
            continue
        return p
    raise RuntimeError("no free block of ports")


class Stack:
    def __init__(self, env: dict[str, str], port: int, folder: Path) -> None:
        self.env, self.port, self.folder = env, port, folder
        self.base = f"http://127.0.0.1:{port}"
        self.log = open(LOGS / "stack.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "scripts/stack.py"],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )

    def pids(self) -> dict[str, Any]:
        try:
            return dict(json.loads((self.folder / "pids.json").read_text()))
        except (OSError, ValueError):
            return {}

    def wait(self, test: Any, timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"make stack exited with {self.proc.returncode} "
                    f"while waiting for {what}; see {LOGS / 'stack.log'}"
                )
            got = test()
            if got:
                return got
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}")

    def web_answers(self, i: int) -> bool:
        """Web process i answers /healthz on its own port (the stack puts web i on PORT+1+i)."""
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.port + 1 + i}/healthz", timeout=2
            ) as r:
                return r.status == 200
        except OSError:
            return False

    def servers_up(self) -> int:
        """Web servers the balancer counts as up (its Prometheus exporter)."""
        return servers_up(self.port + 404)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory):
    LOGS.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    running: Stack | None = None
    try:
        pg.start()
        rd.start()  # the database itself is made by the stack, as for an operator
        port = _free_block(3)
        folder = tmp_path_factory.mktemp("stack")
        env = site_env(
            pg.url,
            rd.url,
            PORT=str(port),
            WEB="2",
            STACK_DIR=str(folder),
            STATIC_ROOT=str(collected_static()),
            LOG_LEVEL="INFO",
            RATE_LIMIT_MOVES="100000",
            RATE_LIMIT_GUESTS="100000",
        )
        running = Stack(env, port, folder)
        running.wait(lambda: running.pids(), 300, ".stack/pids.json")
        running.wait(lambda: running.servers_up() == 2, 30, "both web processes up")
        yield running, pg.url
    finally:
        if running is not None and running.proc.poll() is None:
            os.killpg(running.proc.pid, signal.SIGKILL)
            for pid in _all(running.pids()):
                _kill(pid)
        rd.close()
        pg.close()


def _all(pids: dict[str, Any]) -> list[int]:
    return [*pids.get("web", []), *[pids[k] for k in ("worker", "beat", "lb") if k in pids]]


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not serving: the stack has not reaped it yet.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ")[-1][:1] != "Z"


def _players(base: str, first_deal: int) -> list[PlaySocket]:
    players = []
    for i in range(PLAYERS):
        b = Browser(base)
        session = b.start("freecell", first_deal + i)
        players.append(
            PlaySocket(
                base.replace("http", "ws"),
                base,
                b.cookie_header(),
                session,
                fc_solution(first_deal + i),
            )
        )
    return players


def _play_through(
    stack: Stack, operate: Any, first_deal: int
) -> tuple[Requests, list[PlaySocket], list[float]]:
    import asyncio

    players = _players(stack.base, first_deal)
    load = Requests(stack.base, rate=5)
    stops: list[float] = []

    async def scenario() -> None:
        load.start()
        tasks = [asyncio.create_task(p.run()) for p in players]
        started = time.monotonic()
        await asyncio.sleep(3)
        await asyncio.to_thread(operate, stops)
        await asyncio.sleep(max(1.0, SECONDS - (time.monotonic() - started)))
        load.stop()
        for p in players:
            p.stopping = True
        await asyncio.wait_for(asyncio.gather(*tasks), 30)

    run_async(scenario())
    return load, players, stops


def _check(
    load: Requests, players: list[PlaySocket], stops: list[float], db_url: str
) -> list[float]:
    assert len(load.outcomes) >= SECONDS * 5 - 2
    assert load.failed() == [], load.failed()
    back = [b for p in players for b in p.returns(stops)]
    assert back, "no socket was on a stopped process"
    assert max(back) < 3.0, back
    for p in players:
        assert not [e for e in p.errors if e[0] != "connect"], p.errors
        assert len(p.acknowledged) > 10
        session_id = p.url.rstrip("/").rsplit("/", 1)[-1]
        stored = stored_session(db_url, session_id)
        assert stored["tokens"] == p.acknowledged  # nothing lost, nothing doubled
        assert stored["seq"] == p.seq
    return back


def test_the_stack_runs_the_production_shape(stack):
    running, _ = stack
    pids = running.pids()
    assert set(pids) == {"web", "worker", "beat", "lb"}
    assert len(pids["web"]) == 2
    assert all(_alive(p) for p in _all(pids))
    with urllib.request.urlopen(running.base + "/", timeout=30) as r:
        assert r.status == 200
    # /metrics is never served through the balancer: each process is scraped directly.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(running.base + "/metrics", timeout=10)
    assert refused.value.code == 404


def test_kill_9_of_a_web_process_fails_no_request_and_loses_no_move(stack):
    running, db_url = stack
    victim = running.pids()["web"][0]

    def operate(stops: list[float]) -> None:
        stops.append(time.monotonic())
        os.kill(victim, signal.SIGKILL)

    load, players, stops = _play_through(running, operate, 2000)
    _check(load, players, stops, db_url)
    # The stack started another in its place.
    new = running.wait(
        lambda: [p for p in running.pids()["web"] if p != victim and p not in (victim,)],
        30,
        "the web process restarted",
    )
    assert victim not in running.pids()["web"]
    assert len(new) == 2
    running.wait(lambda: running.servers_up() == 2, 30, "both web processes up again")


def test_a_rolling_restart_fails_no_request_and_loses_no_move(stack):
    running, db_url = stack
    before = list(running.pids()["web"])

    def operate(stops: list[float]) -> None:
        for i, pid in enumerate(before):
            stops.append(time.monotonic())
            os.kill(pid, signal.SIGTERM)
            running.wait(
                lambda i=i, pid=pid: running.pids()["web"][i] != pid, 30, f"web {i + 1} replaced"
            )
            # The balancer still counts the old process up until its checks see it gone, so
            # its count alone can send the next SIGTERM while no process listens on this
            # port: the new process must answer first.
            running.wait(lambda i=i: running.web_answers(i), 60, f"web {i + 1} answering")
            running.wait(lambda: running.servers_up() == 2, 30, "the new web process up")

    load, players, stops = _play_through(running, operate, 3000)
    _check(load, players, stops, db_url)
    # Each was told to go (the drain's close frame), not cut.
    codes = {code for p in players for at, code in p.closes if at > stops[0]}
    assert codes == {CLOSE_RESTART}, codes
    assert not set(before) & set(running.pids()["web"])


def test_ctrl_c_stops_every_process(stack):
    running, _ = stack
    pids = _all(running.pids())
    os.killpg(running.proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C
    assert running.proc.wait(40) == 0
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in pids if _alive(p)]
    assert not (running.folder / "pids.json").exists()
