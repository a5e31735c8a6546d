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

``--baseline`` also runs each server as it was before the request path was made cheap
(``server/0`` rows: Django's own ASGI handler, sessions and players read from PostgreSQL,
the pool's check on every checkout; BASELINE_ENV), alternating with the current one.
``--patches-off`` also runs each server with every library patch off (``server/off`` rows:
``FRAMEWORK_PATCHES_OFF=all``, config/patches/): what the patches buy, in the same run.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench,
created if missing), REDIS_URL (default redis://127.0.0.1:6379/0).

Results: bench/RESULTS.md.
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
BASELINE_ENV = {
    "REQUEST_THREADS": "0",
    "SESSION_CACHE_SECONDS": "0",
    "PLAYER_CACHE_SECONDS": "0",
    "DB_CHECK_AFTER_SECONDS": "0",
}


class Client:
    """One keep-alive HTTP/1.1 connection with the cookies the site gave it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def call(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "Accept-Encoding: identity",
        ]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method != "GET":
            head += [
                "Content-Type: application/json",
                f"Content-Length: {len(data)}",
                f"X-CSRFToken: {self.cookies.get('csrftoken', '')}",
                f"Origin: http://127.0.0.1:{self.port}",
            ]
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


async def measure(
    ports: list[int],
    pids: list[int],
    seconds: float,
    connections: int,
    request: tuple[str, str, object],
) -> dict[str, float]:
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
    return {
        "rate": len(lat) / elapsed,
        "elapsed": elapsed,
        "p50": q(0.5),
        "p99": q(0.99),
        "cpu_ms": cpu / max(1, len(lat)) * 1000,
        "errors": errors[0],
    }


def combined(runs: list[dict[str, float]]) -> dict[str, float]:
    """One row from its rounds: rates and CPU weighted by requests, the worst p99."""
    n = [r["rate"] * r["elapsed"] for r in runs]
    return {
        "rate": sum(n) / sum(r["elapsed"] for r in runs),
        "p50": sorted(r["p50"] for r in runs)[len(runs) // 2],
        "p99": max(r["p99"] for r in runs),
        "cpu_ms": sum(r["cpu_ms"] * k for r, k in zip(runs, n, strict=True)) / sum(n),
        "errors": sum(int(r["errors"]) for r in runs),
    }


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
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--ws",
            ws,
            "--no-access-log",
            "--log-level",
            "warning",
            app,
        ]
    if server == "granian":
        return [
            sys.executable,
            "-m",
            "granian",
            "--interface",
            "asgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--ws" if websockets else "--no-ws",
            "--log-level",
            "warning",
            app,
        ]
    raise SystemExit(f"unknown server {server!r}: daphne, daphne-asyncio, uvicorn or granian")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--servers", default="daphne,uvicorn")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure each request this many times in turn, each row then the "
        "sum of its rounds (the machine's speed drifts from second to "
        "second; taking the rows in turns shares the drift); every server "
        "(and checkout) takes its turn in each round",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes, the connections dealt round them as a load "
        "balancer would (the production shape: one process a core)",
    )
    ap.add_argument(
        "--code",
        action="append",
        type=Path,
        help="a checkout to serve (again for another: before and after in one "
        "run); default this one",
    )
    ap.add_argument(
        "--only",
        help="the requests to measure, by name, comma-separated "
        "(healthz, static, me, start); default all",
    )
    ap.add_argument("--log", help="append the servers' output to this file")
    ap.add_argument(
        "--baseline",
        action="store_true",
        help="each server also as it was (BASELINE_ENV: Django's own ASGI handler, "
        "no cached sessions or players, the pool's check on every "
        "checkout)",
    )
    ap.add_argument(
        "--patches-off",
        action="store_true",
        help="each server also with every library patch off "
        "(FRAMEWORK_PATCHES_OFF=all, config/patches/)",
    )
    args = ap.parse_args()
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    static_root = Path(tempfile.mkdtemp(prefix="bench-static-"))
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "DEBUG": "0",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": "bench",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMIT_GUESTS": "0",
        "RATE_LIMIT_SESSIONS": "0",
        "SERVE_STATIC": "1",
        "STATIC_ROOT": str(static_root),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
    }
    codes = [c.resolve() for c in (args.code or [ROOT])]
    ensure_database(db)
    print("==> migrating and collecting static files", flush=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=codes[0], env=env, check=True
    )
    roots = {}
    for i, code in enumerate(codes):  # each checkout's own files (its modules may differ)
        roots[code] = static_root / str(i)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=code,
            env={**env, "STATIC_ROOT": str(roots[code])},
            check=True,
        )
    manifest = json.loads((roots[codes[0]] / "staticfiles.json").read_text())["paths"]
    static = "/static/" + manifest["frontend/js/notice.js"]  # about 1 KB
    requests = [
        ("GET /healthz", "healthz", ("GET", "/healthz", None)),
        ("static file, 1 KB", "static", ("GET", static, None)),
        ("GET /api/me/", "me", ("GET", "/api/me/", None)),
        (
            "POST /api/sessions/",
            "start",
            ("POST", "/api/sessions/", {"game": "freecell", "deal": "random"}),
        ),
    ]
    if args.only:
        requests = [r for r in requests if r[1] in args.only.split(",")]
    runs = [
        (
            server + (f"@{code.name}" if len(codes) > 1 else ""),
            server,
            code,
            {**env, "STATIC_ROOT": str(roots[code])},
        )
        for code in codes
        for server in args.servers.split(",")
    ]
    if args.baseline:
        runs = [
            run
            for label, server, code, run_env in runs
            for run in (
                (label + "/0", server, code, {**run_env, **BASELINE_ENV}),
                (label, server, code, run_env),
            )
        ]
    if args.patches_off:
        runs = [
            run
            for label, server, code, run_env in runs
            for run in (
                (label + "/off", server, code, {**run_env, "FRAMEWORK_PATCHES_OFF": "all"}),
                (label, server, code, run_env),
            )
        ]
    rows = []
    procs: dict[str, list[subprocess.Popen[bytes]]] = {}
    ports: dict[str, list[int]] = {}
    out = open(args.log, "ab") if args.log else subprocess.DEVNULL  # noqa: SIM115
    try:
        for label, server, code, run_env in runs:  # all up at once, measured in turns
            ports[label] = [free_port() for _ in range(args.processes)]
            procs[label] = [
                subprocess.Popen(
                    command(server, port),
                    cwd=code,
                    env={**run_env, **loop_env(server)},
                    stdout=out,
                    stderr=out,
                )
                for port in ports[label]
            ]
        for label, *_ in runs:
            for port, proc in zip(ports[label], procs[label], strict=True):
                wait_for(port, proc)
        runs_of: dict[tuple[str, str], list[dict[str, float]]] = {}
        loads = []
        for i in range(args.rounds):
            for label, *_ in runs:
                for name, _, request in requests:
                    runs_of.setdefault((label, name), []).append(
                        asyncio.run(
                            measure(
                                ports[label],
                                [p.pid for p in procs[label]],
                                args.seconds / args.rounds,
                                args.connections,
                                request,
                            )
                        )
                    )
            loads.append(os.getloadavg()[0])
            print(f"==> round {i + 1}/{args.rounds}, load average {loads[-1]:.1f}", flush=True)
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
    print(
        f"\n{args.connections} keep-alive connections, {args.seconds:.0f} s a row "
        f"({args.rounds} round(s) in turn), {args.processes} server process(es), load "
        f"average {min(loads):.1f}-{max(loads):.1f}\n"
    )
    first = requests[0][0]
    print(
        f"{'server':20} {'request':24} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'CPU ms/req':>10} {'errors':>6} {'CPU vs ' + first.split()[-1]:>14}"
    )
    for server, name, r, ratio in rows:
        print(
            f"{server:20} {name:24} {r['rate']:8.0f} {r['p50']:8.2f} {r['p99']:8.2f} "
            f"{r['cpu_ms']:10.2f} {r['errors']:6d} {ratio:13.2f}x"
        )


if __name__ == "__main__":
    main()
