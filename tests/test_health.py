"""The health answers' shape in process (the outages on real processes are
tests/reliability/test_health.py), beat's heartbeat check, the request id, the log formats
and error reporting."""

from __future__ import annotations

import gzip
import json
import logging
import os
import subprocess
import sys
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from config import health
from config.logs import JsonFormatter, RequestIdFilter, TextFormatter, clean_request_id
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
    assert body["checks"]["redis"] == {"ok": False, "ms": body["checks"]["redis"]["ms"],
                                       "error": "ConnectionError"}
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
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0",
                "SECRET_KEY": "s" * 50, "DAILY_SECRET": "d" * 40, "SERVE_STATIC": "1",
                "STATIC_ROOT": str(tmp_path / "empty"), "HEALTH_CACHE_SECONDS": "0",
                "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres"})
    log = tmp_path / "daphne.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "config.serve", "-b", "127.0.0.1",
                                 "-p", str(port), "config.asgi:application"],
                                cwd=ROOT, env=env, stdout=out, stderr=out)
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
    scheduler = HeartbeatScheduler(app=app, schedule_filename=str(tmp_path / "state" / "s"),
                                   lazy=False)
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


def test_request_id_is_passed_through_or_made(api):
    c = api()
    given = "3f0c9a1e-1b2c-4d5e-8f90-0123456789ab"
    r = c.client.get("/api/no-such-thing/", HTTP_X_REQUEST_ID=given)
    assert r.status_code == 404
    assert r["X-Request-ID"] == given
    assert r.json()["request_id"] == given
    for bad in ("short", "has space in it", "x" * 200, "line\nbreak-injected"):
        r = c.client.get("/api/no-such-thing/", HTTP_X_REQUEST_ID=bad)
        made = r["X-Request-ID"]
        assert made != bad
        assert len(made) == 32
        assert r.json()["request_id"] == made


def test_request_id_is_in_the_domain_and_drf_error_bodies(api):
    c = api()
    s = c.start("freecell", 617)
    r = c.move(s, 5, "8a")  # stale seq: games/errors.py answer_for
    assert r.status_code == 409
    assert r.json()["request_id"] == r["X-Request-ID"]
    assert r.json()["seq"] == 0
    r = c.post("/api/sessions/", raw="{not json")  # DRF's parse error: games/api/errors.py
    assert r.status_code == 400
    assert r.json()["request_id"] == r["X-Request-ID"]
    ok = c.client.get("/api/me/")
    assert ok.status_code == 200
    assert "request_id" not in ok.json()
    assert ok["X-Request-ID"]


def test_every_log_line_of_a_request_carries_its_id(api):
    c = api()
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        r = c.client.get("/api/no-such-thing/", HTTP_X_REQUEST_ID="req-0123456789")
    finally:
        logger.removeHandler(handler)
    assert r.status_code == 404
    line = json.loads(lines[-1])
    assert line["request_id"] == "req-0123456789"
    assert line["level"] == "WARNING"
    assert line["logger"] == "django.request"
    assert line["time"].endswith("Z")


def test_text_lines_have_time_level_logger_and_request_id():
    record = logging.makeLogRecord({"name": "games.x", "levelname": "ERROR", "levelno": 40,
                                    "msg": "boom %s", "args": (1,)})
    RequestIdFilter().filter(record)
    text = TextFormatter().format(record)
    stamp, level, logger, rid, message = text.split(" ", 4)
    assert time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")
    assert stamp.endswith("Z")
    assert (level, logger, rid, message) == ("ERROR", "games.x", "[-]", "boom 1")
    assert clean_request_id("abcdefgh") == "abcdefgh"


def _django_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items()
            if not k.startswith("PYTEST") and k not in ("SENTRY_DSN", "LOG_FORMAT")}
    full.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0",
                 "SECRET_KEY": "s" * 50, "DAILY_SECRET": "d" * 40, **env})
    return subprocess.run([sys.executable, "-c", "import django; django.setup()\n" + code],
                          cwd=ROOT, env=full, capture_output=True, text=True, timeout=60)


def test_log_format_json_writes_one_object_a_line():
    out = _django_process("import logging; logging.getLogger('games.t').warning('hi %s', 'x')",
                          LOG_FORMAT="json")
    assert out.returncode == 0, out.stderr
    line = json.loads(out.stderr.strip().splitlines()[-1])
    assert {k: line[k] for k in ("level", "logger", "message", "request_id")} == {
        "level": "WARNING", "logger": "games.t", "message": "hi x", "request_id": None}
    bad = _django_process("", LOG_FORMAT="xml")
    assert bad.returncode != 0
    assert "LOG_FORMAT" in bad.stderr


def test_without_a_dsn_sentry_is_never_initialised():
    out = _django_process("import sentry_sdk; print(sentry_sdk.is_initialized())")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


class _FakeSentry(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding == "br":  # the SDK's choice once brotli is installed (servestatic[brotli])
            import brotli

            body = brotli.decompress(body)
        self.received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


def test_with_a_dsn_errors_are_reported_with_the_request_id():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeSentry)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _FakeSentry.received = []
    try:
        dsn = f"http://publickey@127.0.0.1:{server.server_port}/1"
        out = _django_process(
            "import logging, sentry_sdk\n"
            "from config.logs import request_id_var\n"
            "client = sentry_sdk.get_client()\n"
            "print(sentry_sdk.is_initialized(), sorted(client.integrations))\n"
            "request_id_var.set('req-abcdef123')\n"
            "logging.getLogger('games.t').error('it broke')\n"
            "sentry_sdk.flush(5)\n", SENTRY_DSN=dsn)
    finally:
        server.shutdown()
    assert out.returncode == 0, out.stderr
    first, integrations = out.stdout.split(" ", 1)
    assert first == "True"
    assert "'django'" in integrations
    assert "'celery'" in integrations
    events = [b for b in _FakeSentry.received if b"it broke" in b]
    assert events, _FakeSentry.received
    assert b"req-abcdef123" in events[0]
