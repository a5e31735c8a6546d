"""The health answers' shape in process (the outages on real processes are
tests/reliability/test_health.py) and beat's heartbeat check (the request id, the log formats
and error reporting: tests/test_logs.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from config import health
from tests.reliability.stack import free_port

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_answers():
    health.reset()
    with override_settings(HEALTH_CACHE_SECONDS=0):
        yield
    health.reset()


def _asgi(path: str, method: str = "GET", headers: list | None = None) -> dict:
    from config.asgi import application

    async def call() -> dict:
        comm = HttpCommunicator(application, method, path, headers=headers or [])
        return await comm.get_response(timeout=10)

    from tests.reliability.stack import run_async

    return run_async(call())


def test_healthz_answers_without_touching_the_database(client, django_assert_num_queries, db):
    with django_assert_num_queries(0):
        r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}
    assert r["Cache-Control"] == "no-store"
    assert client.post("/healthz").status_code == 405


def test_readyz_names_each_part_with_its_latency(client, db):
    r = client.get("/readyz")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["status"] == "ready"
    assert set(body["checks"]) == {"database", "redis", "static"}
    for check in body["checks"].values():
        assert check["ok"] is True
        assert isinstance(check["ms"], float)
        assert check["ms"] >= 0
    worker = client.get("/readyz?worker=1").json()
    assert set(worker["checks"]) == {"database", "redis", "broker", "static"}
    broker = worker["checks"]["broker"]
    assert broker["ok"]
    assert broker["queue"] == settings.CELERY_TASK_DEFAULT_QUEUE
    assert isinstance(broker["waiting"], int)


@pytest.mark.parametrize("query", ["worker=2", "worker=yes", "worker=1&worker=1"])
def test_readyz_refuses_a_bad_query_with_a_reason(client, db, query):
    r = client.get(f"/readyz?{query}")
    assert r.status_code == 400
    assert r.json()["error"] == "bad_request"
    assert "worker" in r.json()["reason"]


def test_readyz_is_503_naming_the_part_that_is_down(client, db):
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"):
        r = client.get("/readyz")
    assert r.status_code == 503
    assert int(r["Retry-After"]) >= 1
    body = r.json()
    assert body["failing"] == ["redis"]
    assert body["error"] == "unavailable"
    assert "redis" in body["reason"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"] == {
        "ok": False,
        "ms": body["checks"]["redis"]["ms"],
        "error": "ConnectionError",
    }
    # The driver's words (host, port) stay in the log.
    assert "127.0.0.1" not in r.content.decode()


def test_readyz_reuses_an_answer_for_the_cache_time(db):
    with override_settings(HEALTH_CACHE_SECONDS=60):
        first = health.readiness()
        with override_settings(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"):
            assert health.readiness() == first  # within the window: the same answer
            health.reset()
            assert health.readiness()[0] == 503


def test_asgi_health_answers_ahead_of_django(db):
    """In front of Django: no host check (a probe's Host is an address), no middleware."""
    r = _asgi("/healthz", headers=[(b"host", b"10.1.2.3:8000")])
    assert r["status"] == 200
    assert json.loads(r["body"]) == {"status": "ok"}
    r = _asgi("/readyz?worker=1", headers=[(b"host", b"10.1.2.3:8000")])
    assert r["status"] == 200, r["body"]
    assert set(json.loads(r["body"])["checks"]) == {"database", "redis", "broker", "static"}
    assert _asgi("/readyz?worker=x")["status"] == 400
    assert _asgi("/healthz", method="DELETE")["status"] == 405
    head = _asgi("/healthz", method="HEAD")
    assert head["status"] == 200
    assert head["body"] == b""


def test_without_collected_static_files_readyz_fails_naming_collectstatic(tmp_path):
    """DEBUG off and nothing collected: every page would be a 500 ("Missing staticfiles
    manifest entry"); the server says so when it starts and /readyz is 503 saying what to
    run, so a balancer or an orchestrator never routes to it."""
    import urllib.error
    import urllib.request

    from tests.reliability.stack import stop, wait_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": "s" * 50,
            "DAILY_SECRET": "d" * 40,
            "SERVE_STATIC": "1",
            "STATIC_ROOT": str(tmp_path / "empty"),
            "HEALTH_CACHE_SECONDS": "0",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
        }
    )
    log = tmp_path / "daphne.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
        )
    try:
        wait_port(port, proc)

        def get(path: str) -> tuple[int, bytes]:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                    return r.status, r.read()
            except urllib.error.HTTPError as e:
                return e.code, e.read()

        status, raw = get("/readyz")
        body = json.loads(raw)
        assert status == 503, body
        assert body["failing"] == ["static"], body
        assert "collectstatic" in body["reason"]
        assert str(tmp_path) not in body["reason"]
        assert body["checks"]["database"]["ok"]
        assert body["checks"]["static"]["ok"] is False
        assert get("/")[0] == 500  # what the probe stands for
        assert get("/healthz")[0] == 200  # the process is alive: only not ready
    finally:
        stop(proc)
    said = log.read_text()
    assert "collectstatic" in said
    assert str(tmp_path / "empty") in said


def test_beat_alive_reads_the_heartbeat(settings):
    import redis

    settings.REDIS_KEY_PREFIX = f"test-beat-{uuid.uuid4().hex[:8]}"
    r = redis.Redis.from_url(settings.REDIS_URL)
    with pytest.raises(CommandError, match="no heartbeat"):
        call_command("beat_alive")
    health.write_heartbeat(r)
    assert 0 < r.ttl(health.heartbeat_key()) <= settings.BEAT_HEARTBEAT_MAX_AGE
    call_command("beat_alive")
    stale = {"at": time.time() - settings.BEAT_HEARTBEAT_MAX_AGE - 5, "host": "h", "pid": 1}
    r.set(health.heartbeat_key(), json.dumps(stale), ex=60)
    with pytest.raises(CommandError, match="old"):
        call_command("beat_alive")
    r.delete(health.heartbeat_key())


def test_beats_scheduler_writes_the_heartbeat_as_it_ticks(settings, tmp_path):
    import redis

    from config.celery import HeartbeatScheduler, app

    settings.REDIS_KEY_PREFIX = f"test-beat-{uuid.uuid4().hex[:8]}"
    scheduler = HeartbeatScheduler(
        app=app, schedule_filename=str(tmp_path / "state" / "s"), lazy=False
    )
    try:
        assert (tmp_path / "state" / ".gitignore").read_text() == "*\n"
        scheduler.tick()
        beat = health.read_heartbeat(redis.Redis.from_url(settings.REDIS_URL))
        assert beat is not None
        assert abs(beat["at"] - time.time()) < 5
        assert beat["pid"] == os.getpid()
    finally:
        scheduler.close()
        redis.Redis.from_url(settings.REDIS_URL).delete(health.heartbeat_key())


def test_the_schedule_follows_the_daily_clock():
    from celery.schedules import crontab

    from config.celery import app

    schedule = settings.CELERY_BEAT_SCHEDULE
    by_task: dict[str, list] = {}
    for entry in schedule.values():
        by_task.setdefault(entry["task"], []).append(entry["schedule"])
    for task in ("games.tasks.create_daily_deals", "leaderboards.tasks.close_day"):
        midnight = [s for s in by_task[task] if s.hour == {0}]
        assert midnight
        assert all(isinstance(s, crontab) for s in by_task[task])
        assert any(len(s.hour) == 24 for s in by_task[task])  # the hourly catch-up
    (sessions,) = by_task["games.tasks.clear_expired_sessions"]
    assert len(sessions.hour) == 1
    assert len(sessions.minute) == 1  # nightly
    assert str(app.timezone) == settings.DAILY_TIME_ZONE
    # Under this instance's state directory, not a name shared by every checkout.
    assert settings.CELERY_BEAT_SCHEDULE_FILENAME.startswith(str(settings.STATE_DIR) + "/")
    assert settings.CELERY_BEAT_SCHEDULE_FILENAME != "/tmp/celerybeat-schedule"
