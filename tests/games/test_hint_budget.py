"""Hints are searched in worker processes with a budget per player (games/hint_pool.py): one
player's hints cannot take the pool, or the server, from everyone else."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings

from games.models import GameSession
from games.play import hint_pool

HARD = 11982  # a lost FreeCell deal: its proof takes most of a search (about 1.4 s of CPU)
EASY = 3  # solved in a few milliseconds


def clear_hint_budgets(url: str) -> None:
    import redis

    r = redis.Redis.from_url(url)
    keys = list(r.scan_iter(f"{django_settings.REDIS_KEY_PREFIX}:hint-ms:*", count=1000))
    if keys:
        r.delete(*keys)
    r.close()


@pytest.fixture
def pool(settings: Any) -> Iterator[Callable[..., None]]:
    """Call it with the pool's settings: it starts that pool, its workers up and idle."""

    def start(workers: int = 2, budget: float = 5.0, per_minute: float = 0.0,
              queue: int = 2) -> None:
        settings.HINT_WORKERS, settings.HINT_QUEUE = workers, queue
        settings.HINT_BUDGET_SECONDS, settings.HINT_SECONDS_PER_MINUTE = budget, per_minute
        hint_pool.reset()
        assert len(hint_pool.warm()) == workers

    url = django_settings.REDIS_URL  # a test may point the settings at no Redis
    clear_hint_budgets(url)
    yield start
    hint_pool.reset()
    clear_hint_budgets(url)


def same_browser(api: Callable[[], Any], of: Any) -> Any:
    """Another tab of ``of``'s browser: same player, its own client and connection."""
    tab = api()
    tab.client.cookies = of.client.cookies
    tab.csrf = of.csrf
    return tab


def wait_until(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        from django.db import connections

        try:
            out.append(call())
        finally:
            connections.close_all()

    t = threading.Thread(target=run)
    t.start()
    return t, out


@pytest.mark.django_db(transaction=True)
def test_a_dozen_hints_at_once_from_one_player_search_one_at_a_time(api, pool):
    pool(workers=2, budget=3.0)
    mallory, alice = api(), api()
    hard = mallory.start("freecell", HARD)
    easy = alice.start("freecell", EASY)
    who = mallory.me["id"]
    tabs = [same_browser(api, mallory) for _ in range(12)]
    together = threading.Barrier(len(tabs))
    searching = [0]
    watching = threading.Event()

    def watch() -> None:  # what the workers themselves say is running, sampled
        while not watching.is_set():
            searching[0] = max(searching[0], hint_pool.stats(who)["searching"])
            time.sleep(0.002)

    def ask(tab: Any) -> Callable[[], Any]:
        def call() -> Any:
            together.wait()
            return tab.post(f"/api/sessions/{hard['id']}/hint/")
        return call

    watcher = threading.Thread(target=watch)
    watcher.start()
    asks = [in_thread(ask(tab)) for tab in tabs]
    wait_until(lambda: hint_pool.stats(who)["started"] >= 1, "mallory's first search")
    other = alice.post(f"/api/sessions/{easy['id']}/hint/")
    for t, _ in asks:
        t.join(120)
    watching.set()
    watcher.join()

    assert other.status_code == 200 and other.json()["source"] == "solver"
    assert hint_pool.stats(alice.me["id"])["searched"] == 1
    answers = [out[0] for _, out in asks]
    assert [r.status_code for r in answers] == [200] * 12
    legal = {m["move"] for m in hard["legal_moves"]}
    for r in answers:  # a move, or the verdict once a search has finished the proof
        body = r.json()
        assert (body["hint"] is not None and body["hint"]["move"] in legal) or (
            body["hint"] is None and body["source"] == "unsolvable"), body
    st = hint_pool.stats(who)
    assert st["peak"] == 1 and searching[0] <= 1 and st["in_flight"] == 0
    searched = st["searched"] + st["cancelled"] + st["failed"]
    unsearched = st["superseded"] + st["over_budget"] + st["queue_full"]
    assert st["started"] == searched and searched + unsearched == 12
    assert st["cancelled"] + st["superseded"] >= 11  # only the newest one ran its course
    assert GameSession.objects.get(pk=hard["id"]).hint_count == 12


@pytest.mark.django_db(transaction=True)
def test_past_the_per_minute_budget_a_hint_is_the_heuristic_without_a_search(
        api, pool, settings):
    # A search shorter than the proof of HARD (about 1.4 s of CPU), so it ends unsettled.
    pool(workers=1, budget=0.2, per_minute=0.1)
    c = api()
    s = c.start("freecell", HARD)
    who = c.me["id"]
    first = c.post(f"/api/sessions/{s['id']}/hint/").json()
    assert first["source"] == "heuristic"  # no verdict on this deal, but searched
    assert hint_pool.stats(who)["searched"] == 1
    again = c.post(f"/api/sessions/{s['id']}/hint/").json()
    assert again["source"] == "heuristic" and again["hint"] is not None
    st = hint_pool.stats(who)
    assert st["started"] == 1 and st["over_budget"] == 1

    # Counted in Redis too: a process that never saw this player refuses it as well.
    hint_pool.reset()
    c.post(f"/api/sessions/{s['id']}/hint/")
    st = hint_pool.stats(who)
    assert st["started"] == 0 and st["over_budget"] == 1

    # Without Redis the count is this process's, and a hint still answers.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    hint_pool.reset()
    down = c.post(f"/api/sessions/{s['id']}/hint/")
    assert down.status_code == 200 and hint_pool.stats(who)["started"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_cancels_the_sessions_running_search(api, pool):
    pool(workers=1, budget=120.0)
    c = api()
    s = c.start("freecell", HARD)
    who = c.me["id"]
    t, out = in_thread(lambda: c.post(f"/api/sessions/{s['id']}/hint/"))
    wait_until(lambda: hint_pool.stats(who)["searching"] == 1, "the search to start")
    moved = same_browser(api, c).move(s, 0, "8a")
    assert moved.status_code == 200
    t.join(60)
    assert not t.is_alive(), "the search went on after the move"
    assert out[0].status_code == 200 and out[0].json()["source"] == "heuristic"
    st = hint_pool.stats(who)
    assert st["cancelled"] == 1 and st["searched"] == 0 and st["in_flight"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_full_pool_answers_with_the_heuristic_at_once(api, pool):
    pool(workers=1, budget=120.0, queue=0)
    busy, late = api(), api()
    s = busy.start("freecell", HARD)
    t, out = in_thread(lambda: busy.post(f"/api/sessions/{s['id']}/hint/"))
    wait_until(lambda: hint_pool.stats(busy.me["id"])["searching"] == 1, "the search to start")
    easy = late.start("freecell", EASY)
    answer = late.post(f"/api/sessions/{easy['id']}/hint/").json()
    assert answer["source"] == "heuristic" and answer["hint"] is not None
    st = hint_pool.stats(late.me["id"])
    assert st["queue_full"] == 1 and st["started"] == 0
    hint_pool.cancel(s["id"])
    t.join(60)
    assert out[0].status_code == 200 and hint_pool.stats(busy.me["id"])["cancelled"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_killed_worker_is_replaced_and_hints_still_answer(api, pool):
    pool(workers=1, budget=120.0)
    c = api()
    s = c.start("freecell", HARD)
    who = c.me["id"]
    t, out = in_thread(lambda: c.post(f"/api/sessions/{s['id']}/hint/"))
    wait_until(lambda: hint_pool.stats(who)["searching"] == 1, "the search to start")
    [pid] = hint_pool.stats()["worker_pids"]
    os.kill(pid, signal.SIGKILL)
    t.join(60)
    assert not t.is_alive()
    assert out[0].status_code == 200 and out[0].json()["source"] == "heuristic"
    assert out[0].json()["hint"]["move"] in {m["move"] for m in s["legal_moves"]}
    assert hint_pool.stats(who)["failed"] == 1

    easy = c.start("freecell", EASY)
    after = c.post(f"/api/sessions/{easy['id']}/hint/").json()
    assert after["source"] == "solver"
    assert hint_pool.stats()["pools_started"] == 2
    assert pid not in hint_pool.stats()["worker_pids"]
