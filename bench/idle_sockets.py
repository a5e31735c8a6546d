"""Idle play sockets: how many one server process holds, what each costs it in memory, and
whether the memory comes back when they close.

    .venv/bin/python bench/idle_sockets.py --sockets 20000 --server daphne

Starts one server process on the site (PostgreSQL, Redis, DEBUG off), makes ``--sessions``
players each with a practice session (straight in the database: a guest's session row and
a game session, as ``GET /api/me/`` and ``POST /api/sessions/`` would leave them), then
opens ``--sockets`` play sockets (``/ws/sessions/<id>/``, each with its player's session
cookie) from ``--clients`` processes, each from a loopback address of its own (127.0.0.2,
127.0.0.3, ...), so the ephemeral ports of one address are never the limit.  Every socket
waits for its ``hello`` and then stays idle.  The server's resident memory (VmRSS) is read
before (after a few sockets opened and closed, so the code is loaded), with every socket
open, and after all of them closed; the cost per socket is the difference over the count.

Both this script and ``scripts/run.py`` raise their open-files limit to the hard limit
(``resource.setrlimit``); the server inherits it.  A process cannot go past the hard limit
(raising it needs CAP_SYS_RESOURCE, which a container may not have): the script says how
many sockets that leaves room for and stops short of it.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench,
created if missing), REDIS_URL (default redis://127.0.0.1:6379/0).

``--trace`` runs the server under tracemalloc (bench/idle_trace.py): what each open socket
added by library and by line, what stays after the closes, live objects by type (RSS
means nothing then); ``--trace --allocator``: Python's allocator's arenas instead.

Results: bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import datetime as dt
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_cost import command, loop_env  # noqa: E402
from idle_trace import print_trace, take_trace  # noqa: E402
from proc_stats import open_fds, raise_nofile, rss_kb, sockets_open  # noqa: E402
from processes import ensure_database, free_port, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FD_MARGIN = 200  # the server's own files: listening socket, database and Redis connections


# --- the client side: one process, many sockets ------------------------------------------


async def client(port: int, source: str, targets: list[list[str]], at_once: int) -> None:
    import websockets

    gate = asyncio.Semaphore(at_once)
    sockets: list = []
    failed = [0]

    async def one(session_id: str, cookie: str) -> None:
        async with gate:
            try:
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/sessions/{session_id}/",
                    additional_headers={
                        "Cookie": f"sessionid={cookie}",
                        "Origin": f"http://127.0.0.1:{port}",
                    },
                    local_addr=(source, 0),
                    open_timeout=120,
                    ping_interval=None,
                    max_queue=1,
                    compression=None,
                )
                first = json.loads(await asyncio.wait_for(ws.recv(), 120))
                assert first["type"] == "hello", first
                sockets.append(ws)
            except Exception as exc:
                failed[0] += 1
                why[f"{type(exc).__name__}: {exc}"[:120]] += 1

    why: collections.Counter[str] = collections.Counter()
    await asyncio.gather(*(one(s, c) for s, c in targets))
    print(
        json.dumps({"open": len(sockets), "failed": failed[0], "why": why.most_common(3)}),
        flush=True,
    )
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "close"
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    print(json.dumps({"closed": len(sockets)}), flush=True)


# --- the bench ---------------------------------------------------------------------------


def make_sessions(count: int) -> list[list[str]]:
    """``count`` guests, each with a browser session and a practice FreeCell session."""
    import django

    django.setup()
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from games.accounts.session_life import SESSION_KEY, SessionStore
    from games.models import Deal, GameSession, Player

    deal, _ = Deal.objects.get_or_create(game="freecell", seed=617, date=None)
    tag = secrets.token_hex(3)
    players = Player.objects.bulk_create(
        [Player(display_name=f"Idle {tag} {i}") for i in range(count)], batch_size=2000
    )
    games = GameSession.objects.bulk_create(
        [GameSession(player=p, deal=deal, game="freecell") for p in players], batch_size=2000
    )
    store, expiry = SessionStore(), timezone.now() + dt.timedelta(days=1)
    keys = [secrets.token_hex(16) for _ in players]
    Session.objects.bulk_create(
        [
            Session(
                session_key=k, session_data=store.encode({SESSION_KEY: p.pk}), expire_date=expiry
            )
            for k, p in zip(keys, players, strict=True)
        ],
        batch_size=2000,
    )
    return [[str(g.pk), k] for g, k in zip(games, keys, strict=True)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sockets", type=int, default=20000)
    ap.add_argument("--sessions", type=int, default=0, help="default: one per socket")
    ap.add_argument(
        "--server",
        default="daphne",
        help="daphne (production's launcher, on uvloop), daphne-asyncio, uvicorn or granian",
    )
    ap.add_argument("--clients", type=int, default=4, help="client processes")
    ap.add_argument("--at-once", type=int, default=200, help="handshakes at once per client")
    ap.add_argument("--settle", type=float, default=5, help="seconds before each reading")
    ap.add_argument(
        "--trace",
        action="store_true",
        help="run the server under tracemalloc (bench/idle_trace.py) and print "
        "what each socket holds, by library and by type",
    )
    ap.add_argument(
        "--allocator",
        action="store_true",
        help="with --trace: no tracemalloc, only Python's allocator's statistics "
        "(arenas held, bytes in use and free) at each reading",
    )
    ap.add_argument(
        "--cycles",
        type=int,
        default=1,
        help="open and close the sockets this many times: whether what the "
        "allocator kept after one round is taken again by the next",
    )
    ap.add_argument(
        "--pause",
        action="store_true",
        help="wait for Enter at each reading (to inspect the server)",
    )
    ap.add_argument("--client", nargs=3, metavar=("PORT", "SOURCE", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    hard = raise_nofile()
    if args.client:
        port, source, file = args.client
        targets = json.loads(Path(file).read_text())
        asyncio.run(client(int(port), source, targets, args.at_once))
        return

    room = hard - FD_MARGIN
    if args.sockets > room:
        print(
            f"==> the open-files hard limit is {hard}: {room} sockets, not {args.sockets}",
            flush=True,
        )
        args.sockets = room
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "DEBUG": "0",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": "bench",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMIT_GUESTS": "0",
        "SERVE_STATIC": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY", secrets.token_urlsafe(50)),
        "DAILY_SECRET": secrets.token_urlsafe(50),
        "HINT_WORKERS": "0",
        "DEAD_END_WORKERS": "0",
    }
    os.environ.update(env)  # make_sessions signs the cookies with the server's key
    ensure_database(db)
    print("==> migrating", flush=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    sys.path.insert(0, str(ROOT))
    sessions = args.sessions or args.sockets
    print(f"==> {sessions} players and sessions", flush=True)
    made = make_sessions(sessions)
    targets = [made[i % sessions] for i in range(args.sockets)]

    port = free_port()
    argv = command(args.server, port, websockets=True)
    trace_out = ""
    if args.trace:
        trace_out = tempfile.mktemp(prefix="idle-trace-", suffix=".json")
        argv = [argv[0], str(Path(__file__).with_name("idle_trace.py")), trace_out, *argv[1:]]
    if args.allocator:
        env["IDLE_TRACE_ALLOCATOR_ONLY"] = "1"
    server = subprocess.Popen(
        argv,
        cwd=ROOT,
        env={**env, **loop_env(args.server)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    traces: list[dict] = []
    files: list[str] = []
    clients: list[subprocess.Popen[str]] = []
    rows: list[tuple[str, int, int, float, int]] = []

    def reading(name: str, sockets: int, seconds: float) -> None:
        rows.append((name, sockets, rss_kb(server.pid), seconds, sockets_open(server.pid)))
        if trace_out:
            traces.append(take_trace(server.pid, trace_out))
        print(
            f"    {name}: {rows[-1][2] / 1024:.1f} MB, files: {open_fds(server.pid)}"
            f" (server pid {server.pid})",
            flush=True,
        )
        if args.pause:
            input("    Enter to go on ")

    try:
        wait_for(port, server)
        warm = [[made[i % sessions][0], made[i % sessions][1]] for i in range(50)]
        run_clients(port, [warm], files, clients, close=True)
        time.sleep(args.settle)
        reading("before", 0, 0)
        shares = [targets[i :: args.clients] for i in range(args.clients)]
        for cycle in range(1, args.cycles + 1):
            mark = f" ({cycle})" if args.cycles > 1 else ""
            t0 = time.monotonic()
            opened = run_clients(port, shares, files, clients, close=False)
            took = time.monotonic() - t0
            time.sleep(args.settle)
            reading("open" + mark, opened, took)
            t0 = time.monotonic()
            for c in clients:
                assert c.stdin is not None
                c.stdin.write("close\n")
                c.stdin.flush()
            for c in clients:
                assert c.stdout is not None
                c.stdout.readline()
                c.wait(60)
            clients.clear()
            # The server takes a while to see thousands of closes: wait for its sockets to go.
            while sockets_open(server.pid) > rows[0][4] + 10 and time.monotonic() - t0 < 300:
                time.sleep(0.5)
            took = time.monotonic() - t0
            time.sleep(args.settle)
            reading("closed" + mark, 0, took)
        time.sleep(3 * args.settle)
        reading(f"closed +{3 * args.settle:.0f} s", 0, 0)
    finally:
        for c in clients:
            if c.poll() is None:
                c.kill()
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
        for f in files:
            os.unlink(f)
        if trace_out and os.path.exists(trace_out):
            os.unlink(trace_out)

    base, top = rows[0][2], rows[1][2]
    print(
        f"\n{args.server}, one process, {rows[1][1]} idle play sockets over {sessions} "
        f"sessions, {args.clients} client processes\n"
    )
    print(
        f"{'reading':16} {'sockets':>8} {'RSS MB':>8} {'vs before':>10} {'seconds':>8}"
        "   (seconds: to open them all, to see them all closed)"
    )
    for name, count, rss, seconds, _ in rows:
        print(f"{name:16} {count:8d} {rss / 1024:8.1f} {(rss - base) / 1024:+10.1f} {seconds:8.1f}")
    if rows[1][1]:
        print(
            f"\nper open socket: {(top - base) / rows[1][1]:.1f} KB; kept after closing: "
            f"{(rows[-1][2] - base) / 1024:.1f} MB "
            f"({(rows[-1][2] - base) / max(1, top - base):.0%} of what they took)"
        )
    for i in range(3, len(rows) - 1, 2):  # each later round against the closed one before
        opened, after = rows[i], rows[i - 1]
        print(
            f"{opened[0]}: {(opened[2] - after[2]) / 1024:+.1f} MB over the closed "
            f"reading before it ({(opened[2] - after[2]) / max(1, opened[1]):.1f} KB a "
            f"socket), against {(top - base) / 1024:+.1f} MB for the first round"
        )
    if traces and rows[1][1]:
        print_trace(traces, rows[1][1])


def run_clients(
    port: int,
    shares: list[list[list[str]]],
    files: list[str],
    clients: list[subprocess.Popen[str]],
    close: bool,
) -> int:
    """Start one client process per share, wait until each has its sockets open; with
    ``close``, have them closed and the processes gone again.  The sockets opened."""
    started = []
    for i, share in enumerate(shares):
        fd, name = tempfile.mkstemp(prefix="idle-sockets-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(share, f)
        files.append(name)
        started.append(
            subprocess.Popen(
                [sys.executable, __file__, "--client", str(port), f"127.0.0.{2 + i}", name],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    opened = 0
    for c in started:
        assert c.stdout is not None
        report = json.loads(c.stdout.readline() or '{"open": 0, "failed": -1}')
        opened += report["open"]
        if report["failed"]:
            print(
                f"    a client could not open {report['failed']} sockets: "
                + "; ".join(f"{n} x {why}" for why, n in report.get("why", [])),
                flush=True,
            )
    if close:
        for c in started:
            assert c.stdin is not None
            assert c.stdout is not None
            c.stdin.write("close\n")
            c.stdin.flush()
            c.stdout.readline()
            c.wait(60)
    else:
        clients.extend(started)
    return opened


if __name__ == "__main__":
    main()
