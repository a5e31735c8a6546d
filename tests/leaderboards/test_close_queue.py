"""The close on its own queue, with real Redis and real Celery workers: a close that runs
longer than the ordinary visibility timeout is not handed to a second worker while it runs.

Before: one set of unacknowledged messages for every worker, swept by each with its own
visibility timeout, so a close held past CELERY_VISIBILITY_TIMEOUT was put back on its queue
by whichever worker swept first and run again beside itself (three times in 45 s with a
15 s timeout).  Now the close workers keep what they take under keys of their own with
CELERY_CLOSE_VISIBILITY_TIMEOUT (config/celery.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app as celery_app

pytestmark = [pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
HOLD = 8  # seconds a close runs, four times the ordinary timeout below


def _worker(queue: str, close_queue: str, name: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "REDIS_URL": settings.REDIS_URL,
        "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "DAILY_SECRET": settings.DAILY_SECRET,
        "CELERY_VISIBILITY_TIMEOUT": "2",
        "CELERY_RESTORE_INTERVAL": "1",
        "CELERY_CLOSE_QUEUE": close_queue,
        "CELERY_CLOSE_VISIBILITY_TIMEOUT": "120",
        "HOLD_SECONDS": str(HOLD),
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": f"{ROOT}:{ROOT / 'tests' / 'leaderboards'}",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "slow_close",
            "worker",
            "-Q",
            queue,
            "--pool",
            "solo",
            "-n",
            f"{name}@%h",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _read(proc: subprocess.Popen[str], into: list[str]) -> None:
    assert proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    while line := proc.stdout.readline():
        into.append(line)


def test_a_long_close_runs_once_though_it_outlives_the_visibility_timeout(wait_for_line):
    tag = uuid.uuid4().hex[:8]
    queue, close_queue = f"test-{tag}", f"test-{tag}-close"
    workers = {
        "ordinary": _worker(queue, close_queue, f"ordinary-{tag}"),
        "close1": _worker(close_queue, close_queue, f"close1-{tag}"),
        "close2": _worker(close_queue, close_queue, f"close2-{tag}"),
    }
    out: dict[str, list[str]] = {name: [] for name in workers}
    try:
        for proc in workers.values():
            wait_for_line(proc, " ready.", 60)
        # A day not over: the close holds, then leaves it alone (it changes nothing here).
        celery_app.send_task("leaderboards.tasks.close_day", args=["9999-12-30"], queue=close_queue)
        deadline = time.monotonic() + HOLD + 12  # well past 2 s and several sweeps
        while time.monotonic() < deadline:
            for name, proc in workers.items():
                _read(proc, out[name])
            time.sleep(0.2)
    finally:
        for proc in workers.values():
            proc.terminate()
        for name, proc in workers.items():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
            _read(proc, out[name])
    started = [
        (name, line) for name, lines in out.items() for line in lines if "close started" in line
    ]
    done = [
        line
        for lines in out.values()
        for line in lines
        if "leaderboards.tasks.close_day" in line and "succeeded" in line
    ]
    assert len(started) == 1, started
    assert started[0][0] in ("close1", "close2"), "".join(out["close1"])
    assert len(done) == 1, "".join(out["close1"])
