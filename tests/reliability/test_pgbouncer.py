"""The site through a real PgBouncer in transaction mode (docs/operations.md, "PgBouncer"):
``DB_TRANSACTION_POOLING=1`` and nothing else.  Readiness answers, a FreeCell game is won
over the play socket while other clients take the pooler's server connections in turn,
``.iterator()`` survives the same, and a database error on the socket is logged with the
socket's request id.

What PgBouncer breaks, and what each test shows:
- a startup parameter it does not know (``options``) refuses the connection: the readiness
  probe and the socket's own connections sent one;
- a prepared statement lives on one server connection, and the next transaction of the same
  client may get another: the socket's and the HTTP move's statement were prepared;
- a server-side cursor (``.iterator()``) lives on one server connection likewise.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import websockets

from tests.reliability.pgbouncer import PrivatePgBouncer, hold_a_server_connection
from tests.reliability.stack import (
    ROOT,
    Browser,
    Daphne,
    PrivatePostgres,
    PrivateRedis,
    fc_solution,
    migrate,
    run_async,
    site_env,
    stored_session,
)

pytestmark = pytest.mark.slow
LOGS = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"


@pytest.fixture(scope="module")
def stack():
    if shutil.which("pgbouncer") is None:
        pytest.skip(
            "pgbouncer is not installed (Debian: apt-get install pgbouncer; .ci/run installs it)"
        )
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / "daphne-pgbouncer.log"
    log.unlink(missing_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    bouncer = None
    try:
        pg.start()
        pg.create_database()
        rd.start()
        bouncer = PrivatePgBouncer(pg.port, pool_size=4)
        bouncer.start()
        env = site_env(bouncer.url, rd.url, DB_TRANSACTION_POOLING="1")
        migrate(env)  # through the pooler too
        web = Daphne(env, log)
        web.start()
        yield {"pg": pg, "bouncer": bouncer, "env": env, "web": web, "log": log}
    finally:
        if "web" in locals():
            web.close()
        if bouncer is not None:
            if bouncer.log.exists():
                shutil.copy(bouncer.log, LOGS / "pgbouncer.log")
            bouncer.close()
        rd.close()
        pg.close()


def readyz(base: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_readiness_is_ready_through_the_pooler(stack):
    status, body = readyz(stack["web"].base)
    assert status == 200, body
    assert body["checks"]["database"]["ok"]
    assert not [line for line in stack["bouncer"].errors() if "startup parameter" in line]


def test_a_freecell_game_is_won_over_the_socket_while_server_connections_change_hands(stack):
    web, bouncer = stack["web"], stack["bouncer"]
    player = Browser(web.base)
    s = player.start("freecell", 617)
    solution = fc_solution(617)
    # Two moves over HTTP (the same statement on Django's connection), the second after
    # another client took the server connection the first ran on.
    assert player.move(s["id"], 0, solution[0])[0] == 200
    held = hold_a_server_connection(bouncer.url)
    try:
        status, body, _ = player.move(s["id"], 1, solution[1])
        assert status == 200, body
    finally:
        held.close()

    async def play() -> dict:
        url = f"ws://127.0.0.1:{web.port}/ws/sessions/{s['id']}/"
        headers = {"Cookie": player.cookie_header(), "Origin": web.base}
        async with websockets.connect(url, additional_headers=headers) as ws:
            state = json.loads(await ws.recv())
            holding = None
            while not state["won"]:
                seq = state["seq"]
                # Every tenth move, another client keeps the server connection the last
                # statement ran on for five moves: the socket's next statements run on
                # another one.
                if seq % 10 == 0 and holding is None:
                    holding = await asyncio.to_thread(hold_a_server_connection, bouncer.url)
                elif seq % 10 == 5 and holding is not None:
                    holding.close()
                    holding = None
                await ws.send(json.dumps({"type": "move", "seq": seq, "move": solution[seq]}))
                state = json.loads(await ws.recv())
                assert state["type"] == "state", (seq, state)
            if holding is not None:
                holding.close()
            return state

    final = run_async(play())
    assert final["won"]
    assert final["seq"] == len(solution)
    stored = stored_session(stack["pg"].url, s["id"])
    assert stored["tokens"] == solution
    assert stored["status"] == "won"


def test_iterator_through_the_pooler_while_its_server_connection_is_taken(stack):
    """``.iterator()`` reads in chunks; between two chunks another client takes the server
    connection it read from.  A server-side cursor would be gone from the next one."""
    code = (
        "from django.contrib.contenttypes.models import ContentType\n"
        "from tests.reliability.pgbouncer import hold_a_server_connection\n"
        "import os\n"
        "rows = ContentType.objects.order_by('pk').values_list('pk', flat=True)\n"
        "it = rows.iterator(chunk_size=1)\n"
        "first = next(it)\n"
        "held = hold_a_server_connection(os.environ['DATABASE_URL'])\n"
        "print(len([first, *it]), rows.count())\n"
        "held.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=stack["env"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    read, count = map(int, out.stdout.splitlines()[-1].split())
    assert read == count > 1


def test_a_database_error_on_the_socket_is_logged_with_its_request_id(stack):
    web, bouncer = stack["web"], stack["bouncer"]
    player = Browser(web.base)
    s = player.start("freecell", 617)
    solution = fc_solution(617)
    rid = uuid.uuid4().hex

    async def outage() -> tuple[dict, dict]:
        url = f"ws://127.0.0.1:{web.port}/ws/sessions/{s['id']}/"
        headers = {"Cookie": player.cookie_header(), "Origin": web.base, "X-Request-ID": rid}
        async with websockets.connect(url, additional_headers=headers) as ws:
            state = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "move", "seq": 0, "move": solution[0]}))
            assert json.loads(await ws.recv())["type"] == "state"
            await asyncio.to_thread(bouncer.stop)
            try:
                await ws.send(json.dumps({"type": "move", "seq": 1, "move": solution[1]}))
                refused = json.loads(await ws.recv())
            finally:
                await asyncio.to_thread(bouncer.start)
            deadline = time.monotonic() + 20
            while True:  # the pooler is back: the same move goes through
                await ws.send(json.dumps({"type": "move", "seq": 1, "move": solution[1]}))
                state = json.loads(await ws.recv())
                if state["type"] == "state" or time.monotonic() > deadline:
                    return refused, state
                await asyncio.sleep(0.5)

    refused, state = run_async(outage())
    assert refused["type"] == "error", refused
    assert refused["error"] == "unavailable", refused
    assert state["type"] == "state", state
    assert state["seq"] == 2, state
    lines = [line for line in stack["log"].read_text().splitlines() if rid in line]
    assert any("database" in line for line in lines), lines
