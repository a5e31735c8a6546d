"""Another player's latency while one guest asks for hints in a loop, twelve loops at once.

Starts Daphne on PostgreSQL and Redis (as ``bench/server.py`` does), then measures one
player's ``GET /api/sessions/<id>/`` latency p50/p95 alone, and again while one guest runs
``--loops`` loops of ``POST /api/sessions/<id>/hint/`` on a FreeCell deal no search settles
within the budget (11982), and prints the ratio.  Hint searches run in the server's worker
pool (games/hint_pool.py), so they should cost the other player little.

    .venv/bin/python bench/hints.py --seconds 10 --loops 12

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench,
created if missing), REDIS_URL (default redis://127.0.0.1:6379/0), and any HINT_* setting.
The moves rate limit is off for the server: it would answer most of the loops' requests
with 429 and hide what a hint costs.

Last runs (2026-12-01, 2 cores shared by client, server, PostgreSQL and Redis; 10 s a
phase; HINT_WORKERS default, 1 here), the other player's GET p50 / p95 in ms:

    phase            searches in the request's thread    searches in the worker pool
    alone                     17.7 / 38.1                    12.2 / 25.2
    12 GET loops             134.8 / 238.2                  144.3 / 210.4
    12 hint loops           1905.1 / 2560.4                 137.3 / 199.0

Twelve hint loops now cost the other player what twelve loops of a plain read do: the
request handling of the flood itself (which the moves rate limit bounds), not the searches.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.processes import cpu_seconds, ensure_database, free_port, wait_for  # noqa: E402
from bench.server import HttpPlayer  # noqa: E402

HARD = 11982


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def reads(player: HttpPlayer, session: str, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        player.call("GET", f"/api/sessions/{session}/")
        out.append(time.perf_counter() - t0)
        time.sleep(0.01)  # a player's page polling, not a flood of its own


def loop(
    guest: HttpPlayer,
    method: str,
    path: str,
    stop: threading.Event,
    answers: Counter[str],
    lat: list[float],
) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        try:
            answer = guest.call(method, path, {} if method == "POST" else None)
            answers[answer.get("source", "read")] += 1
        except urllib.error.HTTPError as exc:
            answers[f"HTTP {exc.code}"] += 1
        lat.append(time.perf_counter() - t0)


def phase(
    name: str,
    other: HttpPlayer,
    session: str,
    seconds: float,
    pid: int,
    guest: HttpPlayer | None = None,
    call: tuple[str, str] = ("", ""),
    loops: int = 0,
) -> dict[str, float]:
    """The other player's reads for ``seconds`` while ``loops`` loops of ``call`` run."""
    stop = threading.Event()
    lat: list[float] = []
    answers: Counter[str] = Counter()
    loop_lat: list[float] = []
    threads = [
        threading.Thread(target=loop, args=(guest, *call, stop, answers, loop_lat))
        for _ in range(loops)
    ]
    for t in threads:
        t.start()
    if threads:
        time.sleep(1.0)  # the loops under way before the clock starts
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    reader = threading.Thread(target=reads, args=(other, session, stop, lat))
    reader.start()
    time.sleep(seconds)
    stop.set()
    reader.join()
    cpu = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
    for t in threads:
        t.join()
    row = {"p50": percentile(lat, 0.50), "p95": percentile(lat, 0.95)}
    mix = ", ".join(f"{k} {v}" for k, v in answers.most_common()) or "-"
    loop_p50 = f"{percentile(loop_lat, 0.5):8.1f}" if loop_lat else "       -"
    print(
        f"{name:24} {len(lat):6} {row['p50']:8.1f} {row['p95']:8.1f} {cpu:7.0%}"
        f" {sum(answers.values()):7} {loop_p50}   {mix}"
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--loops", type=int, default=12)
    ap.add_argument("--log", help="write the server's output to this file")
    args = ap.parse_args()
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": "bench-hints",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMIT_MOVES": "0",
        # A throwaway server: its own keys unless the environment gives some.
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DAILY_SECRET": os.environ.get("DAILY_SECRET") or secrets.token_urlsafe(50),
    }
    ensure_database(db)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    log = open(args.log, "w") if args.log else subprocess.DEVNULL  # noqa: SIM115
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "config.serve",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    try:
        wait_for(port, server)
        base = f"http://127.0.0.1:{port}"
        other, guest = HttpPlayer(base), HttpPlayer(base)
        session = other.new_session("freecell")["id"]
        hard = guest.call("POST", "/api/sessions/", {"game": "freecell", "deal": HARD})["id"]
        guest.call("POST", f"/api/sessions/{hard}/hint/", {})  # the pool starts on a hint
        workers = os.environ.get("HINT_WORKERS", "default")
        print(
            f"\nanother player's GET /api/sessions/<id>/, {args.seconds:.0f} s a phase; "
            f"{args.loops} hint loops from one guest; HINT_WORKERS {workers}"
        )
        print(
            f"{'phase':24} {'GETs':>6} {'p50 ms':>8} {'p95 ms':>8} {'server':>7}"
            f" {'loops':>7} {'p50 ms':>8}   loops' answers"
        )
        alone = phase("alone", other, session, args.seconds, server.pid)
        # The same number of loops of a plain read: what any flood of requests from one
        # guest costs the others, searches or not.
        reads_ = phase(
            f"{args.loops} GET loops",
            other,
            session,
            args.seconds,
            server.pid,
            guest,
            ("GET", f"/api/sessions/{hard}/"),
            args.loops,
        )
        busy = phase(
            f"{args.loops} hint loops",
            other,
            session,
            args.seconds,
            server.pid,
            guest,
            ("POST", f"/api/sessions/{hard}/hint/"),
            args.loops,
        )
        for name, row in (("GET loops", reads_), ("hint loops", busy)):
            print(
                f"{'ratio ' + name + ' / alone':24} {'':6} {row['p50'] / alone['p50']:7.1f}x"
                f" {row['p95'] / alone['p95']:7.1f}x"
            )
        print(
            "(GETs, p50, p95: the other player's reads; server: the Daphne process's CPU, "
            "not its hint workers'; loops: the guest's requests answered, their p50, and "
            "the hints' sources)"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
