"""Every hint is searched in worker processes, shared fairly, with a budget per player
(games/play/hint_pool.py): one player's hints cannot take the pool, or the server, from
everyone else, and a hint that cannot run is refused with its reason, changing nothing."""

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

    def start(
        workers: int = 2,
        budget: float = 5.0,
        per_minute: float = 0.0,
        queue: int = 2,
        refused_wait: float = 0.0,
    ) -> None:
        settings.HINT_WORKERS, settings.HINT_QUEUE = workers, queue
        settings.HINT_BUDGET_SECONDS, settings.HINT_SECONDS_PER_MINUTE = budget, per_minute
        settings.HINT_REFUSED_WAIT = refused_wait
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


def hint_count(session: dict[str, Any]) -> int:
    return GameSession.objects.get(pk=session["id"]).hint_count


@pytest.mark.django_db(transaction=True)
def test_a_dozen_hints_at_once_from_one_player_share_one_search(api, pool):
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

    assert other.status_code == 200
    assert other.json()["source"] == "solver"
    assert hint_pool.stats(alice.me["id"])["searched"] == 1
    answers = [out[0] for _, out in asks]
    assert [r.status_code for r in answers] == [200] * 12
    bodies = [r.json() for r in answers]
    assert all(
        b["hint"] == bodies[0]["hint"] and b["source"] == bodies[0]["source"] for b in bodies
    )  # one search's answer for all
    st = hint_pool.stats(who)
    assert st["peak"] == 1
    assert searching[0] <= 1
    assert st["in_flight"] == 0
    assert st["started"] == st["searched"] == 1
    assert st["joined"] == 11
    assert hint_count(hard) == 12


@pytest.mark.django_db(transaction=True)
def test_past_the_per_minute_budget_a_hint_is_refused_and_nothing_counted(api, pool, settings):
    # A search shorter than the proof of HARD (about 1.4 s of CPU), so it ends unsettled.
    pool(workers=1, budget=0.2, per_minute=0.1)
    c = api()
    s = c.start("freecell", HARD)
    who = c.me["id"]
    first = c.post(f"/api/sessions/{s['id']}/hint/")
    assert first.status_code == 200
    assert first.json()["source"] == "heuristic"
    assert hint_pool.stats(who)["searched"] == 1
    again = c.post(f"/api/sessions/{s['id']}/hint/")
    body = again.json()
    assert again.status_code == 429, body
    assert body["error"] == "hint_budget", body
    assert 1 <= int(again["Retry-After"]) <= 61
    assert body["retry_after"] == int(again["Retry-After"])
    assert "hint" not in body
    st = hint_pool.stats(who)
    assert st["started"] == 1
    assert st["over_budget"] == 1
    assert hint_count(s) == 1  # the refused hint changed nothing

    # Counted in Redis too: a process that never saw this player refuses it as well.
    hint_pool.reset()
    assert c.post(f"/api/sessions/{s['id']}/hint/").status_code == 429
    st = hint_pool.stats(who)
    assert st["started"] == 0
    assert st["over_budget"] == 1

    # Without Redis the count is this process's, and a hint still answers.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    hint_pool.reset()
    down = c.post(f"/api/sessions/{s['id']}/hint/")
    assert down.status_code == 200
    assert hint_pool.stats(who)["started"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_hint_is_answered_after_a_pause(api, pool):
    """A client that loops on a refused hint asks about once a second, whatever it does:
    the answer waits HINT_REFUSED_WAIT (no thread's CPU: a sleep)."""
    pool(workers=1, budget=0.2, per_minute=0.1, refused_wait=0.5)
    c = api()
    s = c.start("freecell", HARD)
    assert c.post(f"/api/sessions/{s['id']}/hint/").status_code == 200
    t0 = time.monotonic()
    refused = c.post(f"/api/sessions/{s['id']}/hint/")
    assert refused.status_code == 429
    assert time.monotonic() - t0 >= 0.5


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
    assert out[0].status_code == 409
    assert out[0].json()["error"] == "hint_cancelled"
    st = hint_pool.stats(who)
    assert st["cancelled"] == 1
    assert st["searched"] == 0
    assert st["in_flight"] == 0


@pytest.mark.django_db(transaction=True)
def test_one_hint_at_a_time_per_player(api, pool):
    pool(workers=2, budget=120.0)
    c = api()
    hard, easy = c.start("freecell", HARD), c.start("freecell", EASY)
    t, out = in_thread(lambda: c.post(f"/api/sessions/{hard['id']}/hint/"))
    wait_until(lambda: hint_pool.stats(c.me["id"])["searching"] == 1, "the search to start")
    other = same_browser(api, c).post(f"/api/sessions/{easy['id']}/hint/")
    assert other.status_code == 429
    assert other.json()["error"] == "hint_pending"
    assert hint_count(easy) == 0
    hint_pool.cancel(hard["id"])
    t.join(60)
    assert out[0].status_code == 409


@pytest.mark.django_db(transaction=True)
def test_a_full_pool_refuses_at_once_with_503(api, pool):
    pool(workers=1, budget=120.0, queue=0)
    busy, late = api(), api()
    s = busy.start("freecell", HARD)
    t, out = in_thread(lambda: busy.post(f"/api/sessions/{s['id']}/hint/"))
    wait_until(lambda: hint_pool.stats(busy.me["id"])["searching"] == 1, "the search to start")
    easy = late.start("freecell", EASY)
    answer = late.post(f"/api/sessions/{easy['id']}/hint/")
    assert answer.status_code == 503
    assert answer.json()["error"] == "hints_busy"
    assert answer["Retry-After"]
    st = hint_pool.stats(late.me["id"])
    assert st["queue_full"] == 1
    assert st["started"] == 0
    hint_pool.cancel(s["id"])
    t.join(60)
    assert out[0].status_code == 409
    assert hint_pool.stats(busy.me["id"])["cancelled"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_flood_of_guests_cannot_starve_another_players_solver_hint(api, pool):
    """Sixteen guests loop hints on a deal no search settles; another player's FreeCell
    hints still get their search (and its winning line) every time: a queue that is full
    drops the waiting search of whoever used the most, and a free worker takes the search
    of whoever used the least."""
    pool(workers=1, budget=1.0, queue=2, refused_wait=0.2)
    guests = [api() for _ in range(16)]
    sessions = [g.start("freecell", HARD) for g in guests]
    stop = threading.Event()
    statuses: list[int] = []

    def flood(g: Any, s: dict[str, Any]) -> Callable[[], None]:
        def run() -> None:
            while not stop.is_set():
                statuses.append(g.post(f"/api/sessions/{s['id']}/hint/").status_code)

        return run

    floods = [in_thread(flood(g, s)) for g, s in zip(guests, sessions, strict=True)]
    try:
        wait_until(lambda: len(statuses) >= 48, "the flood to be under way")
        time.sleep(5)  # every guest of the flood has asked and been refused a few times
        alice = api()
        sources = []
        for _ in range(3):
            easy = alice.start("freecell", EASY)
            r = alice.post(f"/api/sessions/{easy['id']}/hint/")
            assert r.status_code == 200, r.json()
            sources.append(r.json()["source"])
    finally:
        stop.set()
        for t, _ in floods:
            t.join(60)
    assert sources == ["solver"] * 3
    assert 503 in statuses  # the flood itself was refused, not served first


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
    assert out[0].status_code == 503
    assert out[0].json()["error"] == "hints_busy"
    assert hint_pool.stats(who)["failed"] == 1

    easy = c.start("freecell", EASY)
    after = c.post(f"/api/sessions/{easy['id']}/hint/").json()
    assert after["source"] == "solver"
    assert hint_pool.stats()["pools_started"] == 2
    assert pid not in hint_pool.stats()["worker_pids"]


@pytest.mark.django_db(transaction=True)
def test_hints_turned_off_are_refused_not_searched_in_the_server(api, pool, settings):
    settings.HINT_WORKERS, settings.HINT_REFUSED_WAIT = 0, 0.0
    c = api()
    s = c.start("freecell", EASY)
    r = c.post(f"/api/sessions/{s['id']}/hint/")
    assert r.status_code == 503
    assert r.json()["error"] == "hints_off"
    assert hint_count(s) == 0


@pytest.mark.django_db(transaction=True)
def test_over_the_socket_a_hint_is_awaited_on_the_loop_and_refused_alike(api, pool):
    """The socket awaits the search on its event loop (no pool thread waits for it), and a
    refused hint is the same error as over HTTP, with its retry_after."""
    import asyncio

    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    pool(workers=1, budget=0.3, per_minute=0.2)
    c = api()
    s = c.start("freecell", HARD)

    async def scenario() -> list[dict[str, Any]]:
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)
        out = []
        await ws.send_json_to({"type": "hint"})
        out.append(await ws.receive_json_from(timeout=30))
        await ws.send_json_to({"type": "hint"})
        out.append(await ws.receive_json_from(timeout=30))
        await ws.disconnect()
        return out

    searched, refused = asyncio.run(scenario())
    assert searched["type"] == "state"
    assert searched["source"] == "heuristic"
    assert searched["hint"]["move"] in {m["move"] for m in s["legal_moves"]}
    assert refused["type"] == "error"
    assert refused["error"] == "hint_budget"
    assert refused["retry_after"] >= 1
    assert hint_count(s) == 1
