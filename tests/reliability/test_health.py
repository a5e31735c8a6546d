"""Health on real processes, against a private PostgreSQL cluster and a private Redis that
the tests stop: /healthz stays fast and 200 with PostgreSQL down, /readyz says which part
is down and recovers with it, and beat's health check follows a real beat process."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.stack import (
    ROOT,
    Daphne,
    PrivatePostgres,
    PrivateRedis,
    collected_static,
    migrate,
    site_env,
    stop,
)

pytestmark = pytest.mark.slow
LOGS = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"


@pytest.fixture(scope="module")
def stack():
    LOGS.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    try:
        pg.start()
        pg.create_database()
        rd.start()
        # Collected, as the image's build does: /readyz also says whether pages can be served.
        env = site_env(
            pg.url,
            rd.url,
            BEAT_HEARTBEAT_SECONDS="1",
            BEAT_HEARTBEAT_MAX_AGE="3",
            STATIC_ROOT=str(collected_static()),
        )
        migrate(env)
        web = Daphne(env, LOGS / "daphne-health.log")
        web.start()
        yield {"pg": pg, "redis": rd, "env": env, "web": web}
    finally:
        if "web" in locals():
            web.close()
        rd.close()
        pg.close()


def get(base: str, path: str, timeout: float = 10) -> tuple[int, Any, float]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(base + path, timeout=timeout) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    return status, json.loads(raw), (time.perf_counter() - start) * 1000


def until(base: str, path: str, status: int, seconds: float = 30) -> tuple[int, Any, float]:
    deadline = time.monotonic() + seconds
    while True:
        got = get(base, path)
        if got[0] == status or time.monotonic() > deadline:
            return got
        time.sleep(0.25)


def test_healthz_answers_fast_with_postgresql_stopped_and_readyz_names_it(stack):
    web, pg = stack["web"], stack["pg"]
    assert until(web.base, "/readyz", 200)[0] == 200
    pg.stop()
    try:
        times = []
        for _ in range(20):
            status, body, ms = get(web.base, "/healthz", timeout=2)
            assert status == 200
            assert body == {"status": "ok"}
            times.append(ms)
        # A few ms each on this shared machine; the bound leaves room for its load.
        assert statistics.median(times) < 50, times
        assert max(times) < 500, times
        status, body, ms = until(web.base, "/readyz", 503)
        assert status == 503, body
        assert body["failing"] == ["database"], body
        assert body["checks"]["redis"]["ok"] is True
        assert ms < 5000  # bounded by HEALTH_TIMEOUT_SECONDS, not by the pool's wait
        # The rest of the site answers its own 503 meanwhile, once the pool has waited for
        # a connection; health does not wait.
        assert get(web.base, "/api/me/", timeout=30)[0] == 503
    finally:
        pg.start()
    status, body, _ = until(web.base, "/readyz", 200)
    assert status == 200, body
    assert body["status"] == "ready", body


def test_readyz_is_503_naming_redis_while_it_is_stopped_and_200_when_it_is_back(stack):
    web, rd = stack["web"], stack["redis"]
    assert until(web.base, "/readyz?worker=1", 200)[0] == 200
    rd.stop()
    try:
        status, body, _ = until(web.base, "/readyz", 503)
        assert status == 503, body
        assert body["failing"] == ["redis"], body
        assert body["checks"]["database"]["ok"] is True
        assert body["checks"]["redis"]["ok"] is False
        assert body["checks"]["redis"]["ms"] >= 0
        status, body, _ = until(web.base, "/readyz?worker=1", 503)
        assert set(body["failing"]) == {"redis", "broker"}, body
        assert get(web.base, "/healthz")[0] == 200
    finally:
        rd.start()
    status, body, _ = until(web.base, "/readyz", 200)
    assert status == 200, body
    assert body["checks"]["redis"]["ok"] is True, body
    assert until(web.base, "/readyz?worker=1", 200)[0] == 200


def beat_alive(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "beat_alive"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_beats_health_check_follows_a_real_beat(stack, tmp_path):
    env = {**stack["env"], "STATE_DIR": str(tmp_path / "beat-state")}
    assert beat_alive(env).returncode == 1  # no beat yet
    out = open(LOGS / "beat-health.log", "ab")  # noqa: SIM115 - the child holds it
    beat = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=out,
    )
    try:
        deadline = time.monotonic() + 60
        while (alive := beat_alive(env)).returncode != 0 and time.monotonic() < deadline:
            assert beat.poll() is None, "beat exited"
            time.sleep(0.5)
        assert alive.returncode == 0, alive.stderr
        assert "beat alive" in alive.stdout, alive.stderr
        assert (tmp_path / "beat-state" / "celerybeat-schedule.dat").exists() or any(
            (tmp_path / "beat-state").glob("celerybeat-schedule*")
        )
        time.sleep(4)  # past the heartbeat's life: a live beat has written it again
        assert beat_alive(env).returncode == 0
    finally:
        stop(beat)
        out.close()
    time.sleep(4)  # BEAT_HEARTBEAT_MAX_AGE
    dead = beat_alive(env)
    assert dead.returncode == 1, dead.stderr
    assert "no heartbeat" in dead.stderr, dead.stderr
