"""The README's run command serves the site, tried the way a new user's script would."""

from __future__ import annotations

import contextlib
import datetime as dt
import http.cookiejar
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Browser:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json", "X-CSRFToken": csrf},
        )
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")


def test_make_run_serves_the_api_on_a_bare_machine(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(PORT=str(port), DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}")
    env["SOLVER_BUDGET_SECONDS"] = "1"  # the run time must not depend on the day's deals
    env["DAILY_DAYS_AHEAD"] = "1"
    proc = subprocess.Popen(
        [sys.executable, "scripts/run.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        b = Browser(base)
        # Migrations, the first dailies and the server's start: seconds on a quiet machine,
        # more on a busy one; the answer is what is checked, not the time.
        deadline = time.monotonic() + 120
        while True:
            try:
                status, me = b.call("GET", "/api/me/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "make run did not answer in 120 s"
                time.sleep(0.25)
        assert status == 200
        assert me["guest"] is True
        status, daily = b.call("GET", "/api/daily/")
        assert status == 200
        assert len(daily["deals"]) == 5
        for deal in daily["deals"]:
            status, s = b.call("POST", "/api/sessions/", {"game": deal["game"], "deal": "daily"})
            assert status == 201
            assert s["ranked"] is True
            move = s["legal_moves"][0]["move"]
            status, after = b.call(
                "POST", f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": move}
            )
            assert status == 200
            assert after["seq"] == 1
            status, again = b.call(
                "POST", f"/api/sessions/{s['id']}/moves/", {"seq": 0, "move": move}
            )
            assert status == 409
            assert again["seq"] == 1
            status, bad = b.call(
                "POST",
                f"/api/sessions/{s['id']}/moves/",
                {"seq": 1, "move": "1h" if deal["game"] != "bakers-dozen" else "kk"},
            )
            assert status == 422
            assert bad["reason"]
        with urllib.request.urlopen(base + "/static/admin/css/base.css", timeout=10) as r:
            assert r.status == 200
            assert b"body" in r.read()
        # Tomorrow's deals are made in the background while the site serves today's.
        days: list[tuple[str, int]] = []
        for _ in range(240):
            with contextlib.closing(sqlite3.connect(tmp_path / "site.sqlite3")) as conn:
                days = conn.execute(
                    "SELECT date, count(*) FROM games_deal WHERE date IS NOT "
                    "NULL GROUP BY date ORDER BY date"
                ).fetchall()
            if len(days) == 2 and days[1][1] == 5:
                break
            assert proc.poll() is None
            time.sleep(0.5)
        assert [n for _, n in days] == [5, 5], days
        assert dt.date.fromisoformat(days[1][0]) - dt.date.fromisoformat(days[0][0]) == (
            dt.timedelta(days=1)
        )
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in out


def test_make_run_on_a_busy_port_says_who_holds_it_before_starting_anything(tmp_path):
    """A port taken by another process: said first, naming that process, and nothing is
    migrated, served or started in the background."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(PORT=str(port), DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}")
    try:
        out = subprocess.run(
            [sys.executable, "scripts/run.py"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        holder.close()
    assert out.returncode == 1
    said = out.stdout + out.stderr
    assert f"port {port} is in use by pid {os.getpid()}" in said, said
    assert "pytest" in said or sys.executable in said  # the holder's command line
    assert f"PORT={port + 1} make run" in said
    assert "migrating" not in said
    assert "http://127.0.0.1" not in said
    assert not (tmp_path / "site.sqlite3").exists()  # nothing was started
    bad = subprocess.run(
        [sys.executable, "scripts/run.py"],
        cwd=ROOT,
        env={**env, "PORT": "eighty"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert "PORT must be a port number" in bad.stderr
