"""The request id (passed through or made, in every error body and log line), the log
formats, and error reporting to Sentry only when a DSN is set."""

from __future__ import annotations

import gzip
import json
import logging
import os
import subprocess
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from config.logs import JsonFormatter, RequestIdFilter, TextFormatter, clean_request_id

ROOT = Path(__file__).resolve().parents[1]


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
    record = logging.makeLogRecord(
        {"name": "games.x", "levelname": "ERROR", "levelno": 40, "msg": "boom %s", "args": (1,)}
    )
    RequestIdFilter().filter(record)
    text = TextFormatter().format(record)
    stamp, level, logger, rid, message = text.split(" ", 4)
    assert time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")
    assert stamp.endswith("Z")
    assert (level, logger, rid, message) == ("ERROR", "games.x", "[-]", "boom 1")
    assert clean_request_id("abcdefgh") == "abcdefgh"


def _django_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST") and k not in ("SENTRY_DSN", "LOG_FORMAT")
    }
    full.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": "s" * 50,
            "DAILY_SECRET": "d" * 40,
            **env,
        }
    )
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_log_format_json_writes_one_object_a_line():
    out = _django_process(
        "import logging; logging.getLogger('games.t').warning('hi %s', 'x')", LOG_FORMAT="json"
    )
    assert out.returncode == 0, out.stderr
    line = json.loads(out.stderr.strip().splitlines()[-1])
    assert {k: line[k] for k in ("level", "logger", "message", "request_id")} == {
        "level": "WARNING",
        "logger": "games.t",
        "message": "hi x",
        "request_id": None,
    }
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
            "sentry_sdk.flush(5)\n",
            SENTRY_DSN=dsn,
        )
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
