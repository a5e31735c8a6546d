"""A worker killed in the middle of score_session loses nothing: the task is handed out
again (late acks) and, being idempotent, leaves exactly one entry."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from config.celery import app as celery_app
from leaderboards.models import Entry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def _worker(app: str, queue: str, cwd: Path) -> subprocess.Popen[str]:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_VISIBILITY_TIMEOUT": "2",
        "CELERY_RESTORE_INTERVAL": "1",
        "DAILY_SECRET": settings.DAILY_SECRET,
        "PYTHONPATH": f"{ROOT}:{ROOT / 'tests' / 'leaderboards'}",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            app,
            "worker",
            "-Q",
            queue,
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_killing_the_worker_during_scoring_still_gives_exactly_one_entry(
    api, solve_freecell, wait_for_line
):
    queue = f"crash-{uuid.uuid4().hex[:8]}"
    celery_app.conf.task_always_eager = False
    workers = []
    try:
        with override_settings(CELERY_TASK_DEFAULT_QUEUE=queue):
            c = api()
            s = c.start("freecell")
            for seq, token in enumerate(solve_freecell(s["deal_number"])):
                r = c.move(s, seq, token)
            won = r.json()
            assert won["won"]
            assert not Entry.objects.exists()

            slow = _worker("slow_worker", queue, ROOT)
            workers.append(slow)
            wait_for_line(slow, "task started, holding", 60)
            slow.send_signal(signal.SIGKILL)
            slow.wait(timeout=10)
            assert not Entry.objects.exists()

            workers.append(_worker("config", queue, ROOT))
            deadline = time.monotonic() + 60
            while not Entry.objects.exists() and time.monotonic() < deadline:
                time.sleep(0.25)
            time.sleep(1)  # a second delivery, if any, would land now
        entries = list(Entry.objects.all())
        assert len(entries) == 1
        assert entries[0].session_id == uuid.UUID(won["id"])
        assert (entries[0].time_ms, entries[0].moves, entries[0].won) == (
            won["time_ms"],
            won["moves"],
            True,
        )
    finally:
        celery_app.conf.task_always_eager = True
        for w in workers:
            if w.poll() is None:
                w.terminate()
                try:
                    w.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    w.kill()
