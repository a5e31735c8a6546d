"""/metrics on a real web process and a real Celery worker: what an operator's Prometheus
reads after players play (requests by view and status, socket moves by game and outcome,
open play sockets, the move store's batches, the hint queue, task outcomes), and who may
read it (loopback by default; the address a balancer forwards counts, so a player through
the balancer is refused)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from tests.reliability.stack import (
    Browser,
    Daphne,
    PrivatePostgres,
    PrivateRedis,
    celery_worker,
    fc_solution,
    migrate,
    run_async,
    site_env,
    stop,
)

pytestmark = pytest.mark.slow
LOGS = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"


@pytest.fixture(scope="module")
def site():
    LOGS.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    web, worker = None, None
    try:
        pg.start()
        pg.create_database()
        rd.start()
        env = site_env(pg.url, rd.url)
        migrate(env)
        web = Daphne(env, LOGS / "metrics-daphne.log", "--proxy-headers")
        web.start()
        worker = celery_worker(env, LOGS / "metrics-worker.log", "metrics")
        yield web
    finally:
        if worker is not None:
            stop(worker)
        if web is not None:
            web.close()
        rd.close()
        pg.close()


def scrape(web: Daphne, forwarded_for: str | None = None) -> dict[tuple[str, tuple], float]:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    req = urllib.request.Request(web.base + "/metrics", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.headers["Content-Type"].startswith("text/plain")
        text = r.read().decode()
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_what_players_did(site):
    player = Browser(site.base)
    session = player.start("freecell", "daily")
    solution = fc_solution(session["deal_number"])
    url = f"ws://127.0.0.1:{site.port}/ws/sessions/{session['id']}/"
    headers = {"Cookie": player.cookie_header(), "Origin": site.base}

    async def play() -> tuple[dict, dict]:
        async with websockets.connect(url, additional_headers=headers) as ws:
            state = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": "h1"}))
            assert json.loads(await ws.recv())["error"] == "illegal_move"
            while_open = await asyncio.to_thread(scrape, site)
            for token in solution:
                await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": token}))
                state = json.loads(await ws.recv())
                assert state["type"] == "state", state
            assert state["won"]
        await asyncio.sleep(0.5)
        return while_open, await asyncio.to_thread(scrape, site)

    while_open, after = run_async(play())
    assert value(while_open, "solitaire_play_sockets_open") == 1
    assert value(after, "solitaire_play_sockets_open") == 0
    assert value(after, "solitaire_socket_moves_total", game="freecell", outcome="stored") == len(
        solution
    )
    assert (
        value(after, "solitaire_socket_moves_total", game="freecell", outcome="illegal_move") == 1
    )
    # Most moves go through the batched move store (the unusual ones through the locked path).
    stored_batched = value(after, "solitaire_move_store_batch_size_sum")
    assert len(solution) / 2 < stored_batched <= len(solution)
    assert 1 <= value(after, "solitaire_move_store_seconds_count") <= stored_batched
    assert value(after, "solitaire_http_requests_total", view="me", status="200") >= 1
    assert ("solitaire_hint_searches", (("state", "waiting"),)) in after
    # The win is scored by the worker; its outcome is counted where the task ran.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        tasks = {k: v for k, v in scrape(site).items() if k[0] == "solitaire_celery_tasks_total"}
        if any(dict(k[1])["outcome"] == "success" for k in tasks):
            break
        time.sleep(0.5)
    assert any(
        dict(k[1]) == {"task": "leaderboards.tasks.score_session", "outcome": "success"}
        for k in tasks
    ), tasks


def test_metrics_are_refused_to_any_other_address(site):
    # Through the balancer Daphne takes the client's address from X-Forwarded-For: a player
    # somewhere on the internet is not loopback.
    with pytest.raises(urllib.error.HTTPError) as refused:
        scrape(site, forwarded_for="203.0.113.7")
    assert refused.value.code == 404
    assert scrape(site)  # the same process, asked from this machine
