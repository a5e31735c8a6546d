"""HTTP cost: ``GET /api/me/``, ``POST /api/sessions/`` and a small static file against
``/healthz`` (answered ahead of everything, the floor of a request), served by the same
process, in the same run, under each ASGI server asked for.

    .venv/bin/python bench/http_cost.py --seconds 8 --connections 8 --servers daphne,uvicorn
    .venv/bin/python bench/http_cost.py --servers daphne --code /tmp/before --code . --rounds 3

Each server runs the site (``config.asgi:application``) on PostgreSQL and Redis with DEBUG
off and the static files collected, one process.  ``--connections`` keep-alive clients (a
minimal HTTP/1.1 client on asyncio, so the client costs little beside the server) each
send one request after another for ``--seconds``; each guest is made before the timing.
Printed per server and request: requests a second, p50/p99 latency, the server's CPU per
request (from /proc), and that CPU as a multiple of ``/healthz``'s.  Every server (and
each checkout given by ``--code``, its own files collected) is started at once and
measured in turns, each round taking every row, so that before and after meet the
machine's drift alike; ``--only`` measures some of the rows.

``--baseline`` also runs each server as it was before the changes below (``server/0``
rows: Django's own ASGI handler, sessions and players read from PostgreSQL, the pool's
check on every checkout; BASELINE_ENV), alternating with the current one.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench,
created if missing), REDIS_URL (default redis://127.0.0.1:6379/0).

Last run (2026-12-01, 2 cores shared with other work: load average 10-13 throughout, so
the rates move a lot from row to row and the CPU per request is the steadier figure):

    server     request               req/s  CPU ms/req  vs static
    daphne/0   static file             185     1.60       100%
    daphne/0   GET /api/me/            105     7.17        57%
    daphne/0   POST /api/sessions/      76    10.65        41%
    daphne     static file             553     1.23       100%
    daphne     GET /api/me/            233     2.60        42%
    daphne     POST /api/sessions/     100     7.23        18%
    uvicorn/0  static file             713     0.92       100%
    uvicorn/0  GET /api/me/            128     5.38        18%
    uvicorn/0  POST /api/sessions/      60     7.35         8%
    uvicorn    static file             751     0.97       100%
    uvicorn    GET /api/me/            258     2.46        34%
    uvicorn    POST /api/sessions/     114     6.12        15%

(daphne/0's static row ran while the machine was busiest, hence its ratios.)  In earlier
runs of the same day: granian served the static file at 4,300-6,100/s (its own I/O in
Rust), ``/api/me/`` at 120-180/s (3% of that), and holds an idle websocket for 160 KB
(bench/idle_sockets.py).  Where ``GET /api/me/`` went from 4-7 ms to 2.5 ms of CPU: one
hand-over between the loop and a kept thread where there were three and a new thread
(config/threads.py), no query (session and player from Redis), one Redis client per
process where each request made a connection (config/cache.py).  What is left is Django's
middleware chain, DRF's view and the server's HTTP framing; ``POST /api/sessions/`` adds
the deal, the locked player row, the INSERT and the state's answer (6-7 ms of CPU).

Later the same day: a plain ``GET /api/me/`` answered without DRF's dispatch (games/api/
lean.py, the same answer; the DRF view keeps PATCH and the schema), the CSP header built
once per socket origin instead of on every answer (config/security.py), one ``redis.Redis``
per pool where Django's cache made one for each call (config/cache.py).  Eight runs of the
code before those (``a3d9e80``) and six of the code after, alternating, 6 s a row, load
average 3-10 (a test run beside them); the range over the runs, and the ratio per run:

    server          request          req/s      CPU ms/req    vs static (rate)
    daphne before   static file     277-569     1.30-1.90          100%
    daphne before   GET /api/me/    206-286     3.00-3.75        50-78% (median 70%)
    daphne after    static file     346-497     1.61-1.97          100%
    daphne after    GET /api/me/    283-403     2.25-3.59        63-101% (median 82%)
    uvicorn before  static file     444-642     1.05-1.45          100%
    uvicorn before  GET /api/me/    346-359     2.33-2.44        56-78%
    uvicorn after   static file     452-562     1.24-1.31          100%
    uvicorn after   GET /api/me/    393-450     1.83-2.03        80-87%

The static file's rate fell with the machine's load (553/s in the run above), so the rates'
ratio flatters; the CPU per request is the steadier figure: ``GET /api/me/`` cost 1.8-2.3x
the static file's CPU before, 1.3-2.0x after (daphne).  What is left on its path: the two
Redis reads (session, player), the CSRF token's masking, the locale, messages and session
middleware, and the server's HTTP framing.

2026-12-01 evening, a quieter machine (load average 1.6-1.8) whose cores are slower (the
static file costs 2.1-2.4 ms of CPU here against 1.2-1.9 above), 6 s a row, before (84c40c0,
a worktree) and after (the deal read and the player locked by statements written once,
games/daily.py and games/play/operations.py), alternated, 2 runs each:

    server       request               req/s     CPU ms/req   vs static
    daphne before  static file          406-496    2.08-2.37      100%
    daphne before  GET /api/me/         249-253    4.03-4.09     50-62%
    daphne before  POST /api/sessions/   89-95    10.16-10.82    19-22%
    daphne after   static file          435-500    2.11-2.34      100%
    daphne after   GET /api/me/         243-259    4.00-4.10     52-56%
    daphne after   POST /api/sessions/  118-122    7.91-8.07     24-28%

In process (Django's test client, no server), a FreeCell ``POST /api/sessions/`` with a
random deal costs 3.3-5.5 ms of CPU depending on the machine's load; DRF's dispatch is
about 0.45 ms of it (a bare DRF view against a bare Django view through the same
middleware), the ORM's INSERT of the session 0.36 ms (0.30 hand-written: not worth a second
path).  The rest of the 8 ms under Daphne is the server's: its HTTP framing (the static
file's 2.1-2.4 ms), the hand-over to the request thread and back, and the GIL shared with
the event loop.  300 starts a second would need about 3 ms of CPU each on one core, less
than this machine's Daphne spends on a static file and the thread hop together.

2026-12-01 night, quiet (other work paused), ``--seconds 18 --rounds 6`` (each row the sum
of six 3 s turns, so the rows share the machine's drift), before (a78271d, a worktree) and
after (one hand-over a request: ``request_started``, the request and the close of an
answer held in memory in the request's thread, no disconnect listener, config/threads.py;
Twisted's form parse off, config/daphne_http.py; hiredis; the pool's connection back in
the request's thread, config/dbpool.py), alternated, 2 runs each:

    server         request               req/s    CPU ms/req   vs static
    daphne before  static file           613-647   1.66-1.75      100%
    daphne before  GET /api/me/          309-321   3.30-3.44       50%
    daphne before  POST /api/sessions/   142-149   6.64-6.93       23%
    daphne after   static file           572-643   1.67-1.88      100%
    daphne after   GET /api/me/          383-412   2.56-2.76     64-67%
    daphne after   POST /api/sessions/   167-178   5.49-5.84     28-29%

Three more runs of the after code that hour: ``GET /api/me/`` 64%, 69%, 72% of the static
file (2.57-2.70 ms), ``POST /api/sessions/`` 169-182 a second (5.43-5.84 ms).  Where the
hand-overs went, by py-spy on ``GET /api/me/``: waiting for the second thread hop (the close)
was 7.5% of the busy samples, ``request_started`` through ``asend`` and the disconnect
listener's tasks a few more; on ``POST /api/sessions/`` Twisted's ``Content-Type`` parse
was 7%.  ``POST /api/sessions/`` stays far from 300 a second: the INSERT, the deal's read,
DRF's dispatch and the answer's state are each a few tenths of a millisecond, and the
server's own HTTP framing is the static file's 1.7-1.9 ms.

2026-12-02, ``--seconds 12 --rounds 4``, before (cd4b83f, a worktree) and after: a session on
a deal that is not a daily started by one statement (the INSERT takes its row from the
player's row locked FOR UPDATE, games/play/fresh.py), a random deal inserted first and
looked up only when that inserted nothing (games/daily.py), both INSERTs written once per
model (games/rows.py), and the API's JSON written by orjson (games/api/renderers.py).  The
machine's speed drifted within the hour (the static file cost 1.4-2.0 ms of CPU), so each
pair ran back to back:

    processes  code    static CPU ms  POST /api/sessions/ req/s  CPU ms/req  vs static CPU
    1          before      1.71-1.93           134-164              5.79-7.06    3.2-3.8x
    1          after       1.37-1.97           160-233              3.99-5.86    2.9-3.0x
    2          before      1.42-1.71           275-340              4.36-5.40    3.1-3.2x
    2          after       1.47-1.86           296-364              3.91-4.89    2.6-2.9x

Two processes (``--processes 2``, the connections dealt round them as the load balancer
deals them; production runs one process a core, docker-compose.yml) start 296-364 sessions
a second on this machine's two cores while it ran at its usual speed, 259-264 in the slow
half hour after (the static file at 1.9-2.0 ms).  One process stays at 140-233 a second:
below about 3.3 ms of CPU a start, which Daphne's framing (the static file's 1.4-2.0 ms)
and the request's own work (session and player from Redis, the INSERTs) do not leave.
With 8 connections on one process a start costs more CPU than with 1 or 2 (5.1-5.2 ms
against 6.1-6.4 in one series): the request threads contend for the interpreter lock.

2026-12-02 morning, a quiet and faster machine, 6 s a row: Daphne on uvloop's loop
(config/serve.py, production's launcher; ``daphne-asyncio`` is Daphne as it comes) and a
seed's deal inserted or read by one statement (games/daily.py: a random FreeCell number,
one of 32,000, mostly has its deal already, and took an INSERT that did nothing and a
lookup).  One process, the deal's statement before and after, alternated twice: 266-272
starts a second (3.51-3.55 ms) before, 282-303 (3.12-3.33 ms) after.  The final code,
``--rounds 2``:

    server          processes  static req/s (CPU)   GET /api/me/ (vs static)   POST /api/sessions/ (CPU)
    daphne              1          884 (1.19 ms)       568/s (64%)              305/s (3.10 ms)
    daphne-asyncio      1          736 (1.42 ms)       547/s (74%)              286/s (3.31 ms)
    daphne              2        1,463 (1.06 ms)     1,234/s (84%)              495/s (2.70 ms)

Over the morning's runs one process started 278-306 sessions a second, so 300 is its edge;
two processes, production's shape on two cores, 466-495.  Then a random deal's session
was inserted by the same statement as its deal (games/play/fresh.py, insert_with_deal):
one process, alternated twice, 308-314 a second (3.07-3.11 ms) before, 309-325
(2.90-3.00 ms) after; 306 (3.02 ms) in a later run on a slightly slower machine.  The share of the static file
falls with uvloop because the static file gains the most from it (its cost is nearly all
the loop and framing).

2026-12-02 afternoon, a machine about half as fast (the static file 1.6-2.4 ms of CPU
against 1.2), 6 s a row, ``--rounds 2``, four runs of one process and two of two: the
static file 416-659/s, ``GET /api/me/`` 58-69% of it (73% and 84% with two processes),
``POST /api/sessions/`` 150-223/s (4.3-6.1 ms) with one process, 248 and 344/s with two.
A start costs about 2.5x the static file's CPU on either day, so 300 a second from one
process needs a machine at least as fast as that morning's.  Statements bound and
prepared on the server (``DB_SERVER_BINDING``) save the start a fifth of our CPU and half
the database's in process (bench/statement_binding.py), less than the drift between
these runs.

2026-12-03, a small static file (``notice.js``, 1.2 KB) against ``/healthz``, Daphne, one
process, ``--rounds 3 --seconds 9``, before (74c8e7b, a worktree) and after (a small file
whose name is hashed answered from memory, config/static.py ``StaticFiles.small``: ServeStatic
read every file through a thread pool started for it), both started at once and measured
in turns, load average 3.7-4.0 (other work on the machine):

    code     request              req/s    p50 ms   p99 ms   CPU ms/req   CPU vs /healthz
    before   GET /healthz          3,766     1.55    13.39      0.19           1.00x
    before   static file, 1 KB       412    18.53    37.47      1.50           7.71x
    after    GET /healthz          3,331     1.80    10.77      0.22           1.00x
    after    static file, 1 KB     3,064     2.08    12.83      0.24           1.11x

The file costs what ``/healthz`` costs, give or take the headers it carries: what is left
is Daphne's framing.  (An earlier run of the before code alone, load 4.7: 1.87 ms, 7.79x.)

2026-12-03 afternoon, a guest's ``POST /api/sessions/`` answered by a middleware just below
the body limit (games/api/starts.py: the session and the player from Redis, DRF's CSRF
check, the ``sessions`` rate limit, the body read as ``StartSessionIn`` reads it, the
one-statement start, the state written once by orjson; no URL resolution, DRF dispatch,
messages, lazy user or lockout middleware), before (main at 1127355, an archive) and
after, Daphne, one process, ``--only healthz,static,start --rounds 3 --seconds 18``, two
runs, a busy machine (other work on both cores):

    code     request              req/s    p50 ms   p99 ms   CPU ms/req   CPU vs /healthz
    load average 9.5-11.4:
    before   GET /healthz            889     7.43   186.09      0.41          1.00x
    before   static file, 1 KB       922     6.87    49.46      0.48          1.17x
    before   POST /api/sessions/     115    49.48   338.72      5.20         12.58x
    after    GET /healthz          1,108     4.08    72.51      0.35          1.00x
    after    static file, 1 KB       971     7.91    38.95      0.48          1.35x
    after    POST /api/sessions/     160    38.21   199.96      4.38         12.39x
    load average 7.8-9.2:
    before   GET /healthz          1,239     3.59    78.50      0.37          1.00x
    before   static file, 1 KB       951     4.43    95.05      0.45          1.22x
    before   POST /api/sessions/     115    55.57   367.24      5.75         15.59x
    after    GET /healthz          1,229     3.91    82.16      0.38          1.00x
    after    static file, 1 KB     1,085     5.22    57.94      0.45          1.18x
    after    POST /api/sessions/     145    45.65   216.62      4.38         11.59x

(A first run of the middleware before the body was read by hand, 12 s, load 8.1-9.5: 99/s
at 5.91 ms before, 124/s at 4.85 ms after.)  A start costs 16-24% less CPU, 4.4 ms here
against 5.2-5.8; 300 a second from one process (3.3 ms) was not reached on this machine at
this load: 145-160 a second.  What is left, by py-spy (``--gil``, the samples holding the
interpreter lock) on the after code: the request's thread half of them (the start's one
statement 14%, the session's and the player's Redis reads 10%, the state 3%, the
middleware above and Django's handler the rest), the event loop's hand-over to that thread
and back 14% (``ThreadPoolExecutor.submit`` waking it, ``call_soon_threadsafe`` waking the
loop), Daphne's framing and the answer's send about 30%.  The next step is the hand-over:
the start on the event loop, its Redis reads through an asyncio client (the site has none
yet, config/redis_client.py) and its INSERT through the socket's asyncio driver
(games/live/driver.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import ensure_database, free_port, tree_cpu_seconds, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# The settings that undo this benchmark's findings, for --baseline ("server/0" rows).
BASELINE_ENV = {"REQUEST_THREADS": "0", "SESSION_CACHE_SECONDS": "0",
                "PLAYER_CACHE_SECONDS": "0", "DB_CHECK_AFTER_SECONDS": "0"}


class Client:
    """One keep-alive HTTP/1.1 connection with the cookies the site gave it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def call(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                "Accept-Encoding: identity"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method != "GET":
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}",
                     f"X-CSRFToken: {self.cookies.get('csrftoken', '')}",
                     f"Origin: http://127.0.0.1:{self.port}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                m = re.match(r"\s*([^=]+)=([^;]*)", value)
                if m:
                    self.cookies[m.group(1)] = m.group(2)
        return status, await self.reader.readexactly(length)


async def measure(ports: list[int], pids: list[int], seconds: float, connections: int,
                  request: tuple[str, str, object]) -> dict[str, float]:
    """``connections`` clients, dealt round the servers' ports (as a load balancer would)."""
    clients = [Client(ports[i % len(ports)]) for i in range(connections)]
    for c in clients:
        await c.open()
        status, _ = await c.call("GET", "/api/me/")  # a guest, its cookies, before the timing
        assert status == 200, status
    latencies: list[float] = []
    errors = [0]
    method, path, body = request

    async def loop(c: Client, stop: float) -> None:
        while time.monotonic() < stop:
            t0 = time.monotonic()
            status, _ = await c.call(method, path, body)
            latencies.append(time.monotonic() - t0)
            if status >= 400:
                errors[0] += 1

    cpu0, t0 = sum(map(tree_cpu_seconds, pids)), time.monotonic()
    await asyncio.gather(*(loop(c, t0 + seconds) for c in clients))
    elapsed, cpu = time.monotonic() - t0, sum(map(tree_cpu_seconds, pids)) - cpu0
    for c in clients:
        c.writer.close()
    lat = sorted(latencies)
    q = lambda x: lat[min(len(lat) - 1, int(x * len(lat)))] * 1000  # noqa: E731
    return {"rate": len(lat) / elapsed, "elapsed": elapsed, "p50": q(0.5), "p99": q(0.99),
            "cpu_ms": cpu / max(1, len(lat)) * 1000, "errors": errors[0]}


def combined(runs: list[dict[str, float]]) -> dict[str, float]:
    """One row from its rounds: rates and CPU weighted by requests, the worst p99."""
    n = [r["rate"] * r["elapsed"] for r in runs]
    return {"rate": sum(n) / sum(r["elapsed"] for r in runs),
            "p50": sorted(r["p50"] for r in runs)[len(runs) // 2],
            "p99": max(r["p99"] for r in runs),
            "cpu_ms": sum(r["cpu_ms"] * k for r, k in zip(runs, n, strict=True)) / sum(n),
            "errors": sum(int(r["errors"]) for r in runs)}


def loop_env(server: str) -> dict[str, str]:
    """The environment ``command(server)`` runs in: ``daphne-asyncio`` is production's
    launcher on asyncio's own loop, that is Daphne as it comes (config/serve.py)."""
    return {"SERVE_LOOP": "asyncio" if server == "daphne-asyncio" else "uvloop"}


def command(server: str, port: int, websockets: bool = False) -> list[str]:
    app = "config.asgi:application"
    if server in ("daphne", "daphne-asyncio"):  # production's (uvloop), or as Daphne comes
        return [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port), app]
    if server.startswith("uvicorn"):  # uvicorn-wsproto: that websocket implementation
        ws = server.partition("-")[2] or "websockets-sansio"
        return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port),
                "--loop", "uvloop", "--http", "httptools", "--ws", ws, "--no-access-log",
                "--log-level", "warning", app]
    if server == "granian":
        return [sys.executable, "-m", "granian", "--interface", "asgi", "--host", "127.0.0.1",
                "--port", str(port), "--ws" if websockets else "--no-ws",
                "--log-level", "warning", app]
    raise SystemExit(f"unknown server {server!r}: daphne, daphne-asyncio, uvicorn or granian")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--servers", default="daphne,uvicorn")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure each request this many times in turn, each row then the "
                         "sum of its rounds (the machine's speed drifts from second to "
                         "second; taking the rows in turns shares the drift); every server "
                         "(and checkout) takes its turn in each round")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes, the connections dealt round them as a load "
                         "balancer would (the production shape: one process a core)")
    ap.add_argument("--code", action="append", type=Path,
                    help="a checkout to serve (again for another: before and after in one "
                         "run); default this one")
    ap.add_argument("--only", help="the requests to measure, by name, comma-separated "
                                   "(healthz, static, me, start); default all")
    ap.add_argument("--log", help="append the servers' output to this file")
    ap.add_argument("--baseline", action="store_true",
                    help="each server also as it was (BASELINE_ENV: Django's own ASGI handler, "
                         "no cached sessions or players, the pool's check on every "
                         "checkout)")
    args = ap.parse_args()
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    static_root = Path(tempfile.mkdtemp(prefix="bench-static-"))
    env = {**os.environ, "DATABASE_URL": db, "DEBUG": "0",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
           "REDIS_KEY_PREFIX": "bench", "DJANGO_SETTINGS_MODULE": "config.settings",
           "LOG_LEVEL": "WARNING", "RATE_LIMIT_GUESTS": "0", "RATE_LIMIT_SESSIONS": "0",
           "SERVE_STATIC": "1", "STATIC_ROOT": str(static_root),
           "SECRET_KEY": secrets.token_urlsafe(50), "DAILY_SECRET": secrets.token_urlsafe(50)}
    codes = [c.resolve() for c in (args.code or [ROOT])]
    ensure_database(db)
    print("==> migrating and collecting static files", flush=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=codes[0], env=env,
                   check=True)
    roots = {}
    for i, code in enumerate(codes):  # each checkout's own files (its modules may differ)
        roots[code] = static_root / str(i)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       cwd=code, env={**env, "STATIC_ROOT": str(roots[code])}, check=True)
    manifest = json.loads((roots[codes[0]] / "staticfiles.json").read_text())["paths"]
    static = "/static/" + manifest["frontend/js/notice.js"]  # about 1 KB
    requests = [("GET /healthz", "healthz", ("GET", "/healthz", None)),
                ("static file, 1 KB", "static", ("GET", static, None)),
                ("GET /api/me/", "me", ("GET", "/api/me/", None)),
                ("POST /api/sessions/", "start", ("POST", "/api/sessions/",
                                                   {"game": "freecell", "deal": "random"}))]
    if args.only:
        requests = [r for r in requests if r[1] in args.only.split(",")]
    runs = [(server + (f"@{code.name}" if len(codes) > 1 else ""), server, code,
             {**env, "STATIC_ROOT": str(roots[code])})
            for code in codes for server in args.servers.split(",")]
    if args.baseline:
        runs = [run for label, server, code, run_env in runs for run in (
            (label + "/0", server, code, {**run_env, **BASELINE_ENV}),
            (label, server, code, run_env))]
    rows = []
    procs: dict[str, list[subprocess.Popen[bytes]]] = {}
    ports: dict[str, list[int]] = {}
    out = open(args.log, "ab") if args.log else subprocess.DEVNULL  # noqa: SIM115
    try:
        for label, server, code, run_env in runs:  # all up at once, measured in turns
            ports[label] = [free_port() for _ in range(args.processes)]
            procs[label] = [subprocess.Popen(command(server, port), cwd=code,
                                             env={**run_env, **loop_env(server)},
                                             stdout=out, stderr=out) for port in ports[label]]
        for label, *_ in runs:
            for port, proc in zip(ports[label], procs[label], strict=True):
                wait_for(port, proc)
        runs_of: dict[tuple[str, str], list[dict[str, float]]] = {}
        loads = []
        for i in range(args.rounds):
            for label, *_ in runs:
                for name, _, request in requests:
                    runs_of.setdefault((label, name), []).append(asyncio.run(measure(
                        ports[label], [p.pid for p in procs[label]],
                        args.seconds / args.rounds, args.connections, request)))
            loads.append(os.getloadavg()[0])
            print(f"==> round {i + 1}/{args.rounds}, load average {loads[-1]:.1f}",
                  flush=True)
        for label, *_ in runs:
            base: dict[str, float] = {}
            for name, _, _ in requests:
                r = combined(runs_of[(label, name)])
                base = base or r
                rows.append((label, name, r, r["cpu_ms"] / base["cpu_ms"]))
    finally:
        for label in procs:
            for proc in procs[label]:
                proc.terminate()
        for label in procs:
            for proc in procs[label]:
                proc.wait(10)
        shutil.rmtree(static_root, ignore_errors=True)
    print(f"\n{args.connections} keep-alive connections, {args.seconds:.0f} s a row "
          f"({args.rounds} round(s) in turn), {args.processes} server process(es), load "
          f"average {min(loads):.1f}-{max(loads):.1f}\n")
    first = requests[0][0]
    print(f"{'server':20} {'request':24} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'CPU ms/req':>10} {'errors':>6} {'CPU vs ' + first.split()[-1]:>14}")
    for server, name, r, ratio in rows:
        print(f"{server:20} {name:24} {r['rate']:8.0f} {r['p50']:8.2f} {r['p99']:8.2f} "
              f"{r['cpu_ms']:10.2f} {r['errors']:6d} {ratio:13.2f}x")


if __name__ == "__main__":
    main()
