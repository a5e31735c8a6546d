"""PostgreSQL's connections budgeted in the production shape: compose sets ``max_connections``
from the replicas and their pools (docs/operations.md, "Connections"), and it stays above
what those processes may hold however they are scaled."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from tests.test_compose import config

SECRETS = {"SECRET_KEY": "sk", "DAILY_SECRET": "ds", "POSTGRES_PASSWORD": "pw"}


def max_connections(**env: str) -> tuple[int, dict]:
    out = config(**SECRETS, **env)
    assert out.returncode == 0, out.stderr
    services = yaml.safe_load(out.stdout)["services"]
    command = services["postgres"]["command"]
    assert command[:2] == ["sh", "-c"]
    # What the container's shell runs, its arithmetic worked out by a shell here ("$$" is
    # compose's escape for a "$" left to the shell).
    script = (
        command[2]
        .replace("$$", "$")
        .replace("exec docker-entrypoint.sh postgres -c max_connections=", "echo ")
    )
    out = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True)
    return int(out.stdout), services


def held_at_most(web: int, pool: int, ws: int, workers: int, concurrency: int) -> int:
    """What the site's processes may hold: each web replica its Django pool, the socket's
    connections and a readiness probe's; each worker process (and the worker itself) its
    pool's minimum of 2, as one task at a time uses one; beat and migrate 2 each."""
    return web * (pool + ws + 1) + workers * (concurrency + 1) * 2 + 2 + 2


@pytest.mark.parametrize(
    ("web", "pool", "ws", "workers", "concurrency"),
    [
        (2, 20, 8, 1, 2),  # the defaults
        (12, 20, 8, 2, 2),  # the plan for 10,000 players (docs/operations.md, "Capacity")
        (3, 10, 4, 4, 8),
    ],
)
def test_max_connections_follows_the_replicas_and_pools(web, pool, ws, workers, concurrency):
    env = {
        "WEB_REPLICAS": str(web),
        "DB_POOL_SIZE": str(pool),
        "WS_DB_CONNECTIONS": str(ws),
        "WORKER_REPLICAS": str(workers),
        "WORKER_CONCURRENCY": str(concurrency),
    }
    budget, services = max_connections(**env)
    # Room for one more web replica starting during a deploy, and for operators beside it.
    assert budget >= held_at_most(web + 1, pool, ws, workers, concurrency) + 10
    assert budget <= held_at_most(web + 1, pool, ws, workers, concurrency) + 20
    # The same numbers reach the processes and the replica counts.
    assert services["web"]["deploy"]["replicas"] == web
    assert services["worker"]["deploy"]["replicas"] == workers
    app = services["web"]["environment"]
    assert app["DB_POOL_SIZE"] == str(pool)
    assert app["WS_DB_CONNECTIONS"] == str(ws)
    assert f"{concurrency}" in services["worker"]["command"]


def test_the_defaults_hold_two_replicas_at_their_fullest():
    """Two replicas may hold 28 connections each and a probe's; a burst of sockets and
    requests fills both pools at once."""
    budget, _ = max_connections()
    assert budget >= 2 * 29 + 10
