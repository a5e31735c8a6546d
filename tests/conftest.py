"""Shared fixtures for the server's tests (PostgreSQL and Redis as configured in settings)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest


class ApiClient:
    """A browser's worth of API calls: cookies from GET /api/me/, CSRF header on writes."""

    def __init__(self) -> None:
        from django.test import Client

        self.client = Client(enforce_csrf_checks=True)
        me = self.client.get("/api/me/")
        assert me.status_code == 200, me.content
        self.me = me.json()
        self.csrf = self.client.cookies["csrftoken"].value

    def ws_headers(self) -> list[tuple[bytes, bytes]]:
        """The headers this browser sends when it opens a websocket on the site."""
        cookies = "; ".join(f"{k}={m.value}" for k, m in self.client.cookies.items())
        return [(b"cookie", cookies.encode()), (b"origin", b"http://testserver")]

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def post(self, path: str, data: Any = None, raw: str | None = None) -> Any:
        body = raw if raw is not None else json.dumps(data if data is not None else {})
        return self.client.post(
            path, body, content_type="application/json", HTTP_X_CSRFTOKEN=self.csrf
        )

    def patch(self, path: str, data: Any) -> Any:
        return self.client.patch(
            path, json.dumps(data), content_type="application/json", HTTP_X_CSRFTOKEN=self.csrf
        )

    def put(self, path: str, data: Any) -> Any:
        return self.client.put(
            path, json.dumps(data), content_type="application/json", HTTP_X_CSRFTOKEN=self.csrf
        )

    def start(self, game: str, deal: Any = "daily") -> dict[str, Any]:
        r = self.post("/api/sessions/", {"game": game, "deal": deal})
        assert r.status_code == 201, r.content
        return r.json()

    def move(self, session: dict[str, Any] | str, seq: int, move: str) -> Any:
        sid = session if isinstance(session, str) else session["id"]
        return self.post(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": move})


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each test gets its own channel layer: the Redis layer's receive lock belongs to the
    event loop that first waited on it, and every test runs its own loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _close_socket_db_connections() -> Iterator[None]:
    yield
    from games.live import driver

    driver.close_all()


@pytest.fixture(autouse=True)
def _clean_redis_index() -> None:
    """Rank indexes, presence sets, race progress, the unfinished attempts' order and the
    kept week and all-time boards
    (with their "asked" marks) outlive a test's rolled-back rows; start each clean."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return
    import redis

    r = redis.Redis.from_url(settings.REDIS_URL)
    for pattern in (
        "rank:*",
        "presence:*",
        "playing:*",
        "race:*",
        "pending:*",
        "cache:*:periods:*",
    ):
        keys = list(r.scan_iter(f"{settings.REDIS_KEY_PREFIX}:{pattern}", count=1000))
        if keys:
            r.delete(*keys)
    r.close()


@pytest.fixture
def api(db: None) -> Callable[[], ApiClient]:
    """Call it once per simulated browser."""
    return ApiClient


def fc_solve(deal: int) -> list[str]:
    """A solution from the public FreeCell solver, in standard notation."""
    if not (shutil.which("make-microsoft-freecell-board") and shutil.which("fc-solve")):
        pytest.skip("freecell-solver-bin is not installed (.ci/run installs it)")
    board = subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(deal)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    out = subprocess.run(
        ["fc-solve", "-m", "-snx"],
        input=board,
        check=True,
        capture_output=True,
        text=True,
        env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin:/usr/local/bin"},
    ).stdout
    assert "This game is solveable." in out, out[-500:]
    body = out.split("This game is solveable.")[0]
    return [t for t in body.split() if re.fullmatch(r"[1-8a-d][1-8a-dh](v\d+)?", t)]


@pytest.fixture
def solve_freecell() -> Callable[[int], list[str]]:
    return fc_solve


def _wait_for_line(proc: subprocess.Popen[str], text: str, timeout: float) -> str:
    """Read a child process's output until a line holding ``text`` appears."""
    import os
    import time

    deadline, seen = time.monotonic() + timeout, []
    assert proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line:
            seen.append(line)
            if text in line:
                return line
        else:
            time.sleep(0.05)
    raise AssertionError(f"{text!r} not seen:\n{''.join(seen)}")


@pytest.fixture
def wait_for_line() -> Callable[[subprocess.Popen[str], str, float], str]:
    return _wait_for_line


@pytest.fixture
def real_worker(wait_for_line: Callable[..., str]) -> Iterator[str]:
    """A real Celery worker on a queue of its own, reading this test's database (the test
    must commit: ``django_db(transaction=True)``); yields the queue to send tasks to, with
    tasks no longer run inline meanwhile."""
    import os
    import uuid

    from django.conf import settings
    from django.db import connection

    from config.celery import app as celery_app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "DAILY_SECRET": settings.DAILY_SECRET,
    }
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queue,
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    celery_app.conf.task_always_eager = False
    try:
        wait_for_line(worker, " ready.", 60)
        yield queue
    finally:
        celery_app.conf.task_always_eager = True
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last test, before the test database is dropped: close the connections to
    it that other threads still hold.  A thread of an executor the tests do not own
    (asgiref's, the event loop's default one) keeps the pool connection it checked out
    until the thread ends, which is after the session; PostgreSQL would then refuse to drop
    the database ("being accessed by other users") and the run would leave it behind.  This
    thread's connection and the pool's idle ones are left to Django, which closes them."""
    if nextitem is not None:
        return
    import gc

    from django.conf import settings
    from django.db import connection
    from psycopg import Connection

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    pool = getattr(connection, "_connection_pools", {}).get(connection.alias)
    keep = {id(connection.connection)} | {id(c) for c in getattr(pool, "_pool", ())}
    for obj in gc.get_objects():
        # type(), not isinstance(): the latter wakes lazy objects (settings, translations).
        if (
            issubclass(type(obj), Connection)
            and id(obj) not in keep
            and not obj.closed
            and obj.info.dbname == name
        ):
            obj.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run last: their session-wide Playwright keeps an event loop running in
    the main thread until the session ends, and ``asyncio.run`` in any later test (or a
    second Playwright) cannot start beside it."""
    items.sort(key=lambda item: item.nodeid.startswith("tests/frontend/"))


def time_on(day: Any) -> Any:
    """An instant during ``day`` by the daily clock: now for today, noon for another day
    (a win made up for an earlier day is stored at a time its day could take it)."""
    import datetime as dt

    from django.utils import timezone

    from games.daily import days

    if day == days.today():
        return timezone.now()
    return days.day_start(day) + dt.timedelta(hours=12)


@pytest.fixture
def past_midnight(settings: Any) -> Callable[[], Any]:
    """Call it to move the daily clock just past the coming midnight (the real clock and
    every stored time stay as they are): today's attempts are then yesterday's, their day
    over and closable.  Returns the new day."""
    import math

    from django.utils import timezone

    from games.daily import days

    def turn() -> Any:
        wait = (days.day_end(days.today()) - timezone.now()).total_seconds()
        settings.DAILY_CLOCK_SHIFT_SECONDS += math.ceil(wait) + 1
        return days.today()

    return turn


def store_moves(session_id: Any, moves: list[list[Any]]) -> None:
    """Replace a stored session's moves ([token, ms, op?] each) as if it had played them:
    their rows, and the count (a test that re-times a game or tampers with one)."""
    from games.models import GameSession
    from games.play.moves import replace_all

    session = GameSession.objects.get(pk=session_id)
    replace_all(session, moves)
    GameSession.objects.filter(pk=session_id).update(seq=len(moves))
