"""The analysis of where a game was lost runs in a real Celery worker: the request that
asks for it answers pending at once, never waiting on the solver, and the worker's answer
is then read from the session."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import pytest
from django.db import connection
from django.test import override_settings

from config.celery import app as celery_app
from games.engine.record import replay
from tests.games.test_analysis import losing_line

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_real_worker_finds_the_turning_point(api, wait_for_line):
    from django.conf import settings

    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = {**os.environ,
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
           "REDIS_KEY_PREFIX": "test-solitaire", "CELERY_TASK_ALWAYS_EAGER": "0",
           "DAILY_SECRET": settings.DAILY_SECRET}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "--pool", "solo",
         "--concurrency", "1", "--loglevel", "INFO", "--without-heartbeat", "--without-gossip",
         "--without-mingle"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    celery_app.conf.task_always_eager = False
    try:
        wait_for_line(worker, " ready.", 60)
        with override_settings(CELERY_TASK_DEFAULT_QUEUE=queue):
            c = api()
            s = c.start("freecell")
            moves = losing_line(s["deal_number"])
            for seq, token in enumerate(moves):
                assert c.move(s, seq, token).status_code == 200
            assert c.post(f"/api/sessions/{s['id']}/resign/", {}).status_code == 200
            # Pending at first: the request queued the search and did not wait for it.
            first = c.get(f"/api/sessions/{s['id']}/analysis/").json()
            assert first["status"] == "pending" and "turning_point" not in first
            deadline = time.monotonic() + 60
            r = first
            while r["status"] == "pending" and time.monotonic() < deadline:
                time.sleep(0.3)
                r = c.get(f"/api/sessions/{s['id']}/analysis/").json()
        assert r["status"] == "done", r
        tp = r["turning_point"]
        assert tp is not None and replay("freecell", s["deal_number"],
                                         moves[:tp] + r["winning_line"]).won
    finally:
        celery_app.conf.task_always_eager = True
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
