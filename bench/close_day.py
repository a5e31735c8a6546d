"""The midnight at volume: a day of N ranked sessions seeded (bench/seed_day.py: realistic
move lists, wins and unfinished attempts, practice games beside them), then closed by
``manage.py close_day`` in a process of its own, whose phases are printed as they go.

    .venv/bin/python bench/close_day.py --sessions 1000000
    .venv/bin/python bench/close_day.py --sessions 100000 --sessions 300000   # two days

By default on a private PostgreSQL cluster and Redis, started for the run and removed after
it (the cluster's settings are PostgreSQL's defaults, as a fresh server has them; add
``--pg-options "-c shared_buffers=1GB"`` to try others).  ``--shared`` uses DATABASE_URL
(default postgres://postgres@127.0.0.1:5432/solitaire_close_bench: that database is dropped
and made afresh) and REDIS_URL instead.  Each ``--sessions`` is one day, seeded then closed
in turn on the same database.  The seeding's time is printed apart from the close's; the
close's peak memory is the child process's own (its maximum resident set).  The last line
is ``closed N sessions in S s``.

Before and after: ``--code DIR`` migrates the database and closes with another checkout
(``git worktree add --detach /tmp/before REV``), seeded the same way by this one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ensure_fresh_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


# The close timed in its own process from its command's call to its return, Django's start
# (seconds on a loaded machine) left out; the peak is that process's maximum resident set.
CLOSE = """
import resource, sys, time, django
django.setup()
from django.core.management import call_command
t = time.perf_counter()
call_command("close_day", sys.argv[1])
print(f"BENCH {time.perf_counter() - t:.3f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
"""


def close(env: dict[str, str], day: dt.date, code: Path) -> tuple[float, int]:
    """Run the close in a process of its own, relaying its lines; (seconds, peak KiB)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CLOSE, day.isoformat()],
        cwd=code,
        env={**env, "PYTHONPATH": str(code)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    assert proc.stdout is not None
    found = None
    for line in proc.stdout:
        if line.startswith("BENCH "):
            found = line.split()[1:]
        print(f"  {time.perf_counter() - t0:7.2f} s  {line.rstrip()}", flush=True)
    if proc.wait() or found is None:
        raise SystemExit(f"close_day failed with status {proc.returncode}")
    return float(found[0]), int(found[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sessions",
        type=int,
        action="append",
        help="ranked sessions in the day (repeat for several days)",
    )
    ap.add_argument(
        "--shared",
        action="store_true",
        help="DATABASE_URL (dropped and made afresh) and REDIS_URL, not private ones",
    )
    ap.add_argument("--pg-options", default="", help="options for the private cluster")
    ap.add_argument(
        "--solver-seconds",
        type=float,
        default=5.0,
        help="solver budget per candidate for the day's deals",
    )
    ap.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="a checkout of another version (git worktree add --detach DIR REV) "
        "whose migrations make the database and whose close_day closes: "
        "the before of a comparison",
    )
    ap.add_argument(
        "--seed-only",
        action="store_true",
        help="seed and stop (with --shared: to look at the day's rows afterwards)",
    )
    args = ap.parse_args()
    days = args.sessions or [1_000_000]
    if any(not 1 <= n <= 20_000_000 for n in days):
        raise SystemExit("--sessions runs from 1 to 20,000,000")
    # A TERM (a timeout, a supervisor) stops the run as Ctrl-C does: the private servers go.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    private = []
    if args.shared:
        db = os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_close_bench"
        )
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        ensure_fresh_database(db)
    else:
        from tests.reliability.stack import PrivatePostgres, PrivateRedis

        pg, rd = PrivatePostgres(), PrivateRedis()
        private = [rd, pg]
        pg.start(args.pg_options)
        pg.create_database()
        rd.start()
        db, redis_url = pg.url, rd.url
    try:
        return run(args, days, db, redis_url)
    finally:
        for service in private:
            service.close()


def run(args: argparse.Namespace, days: list[int], db: str, redis_url: str) -> int:
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": "closebench",
        "CELERY_QUEUE": "closebench",
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "INFO",
        "DAILY_CERTIFY_ON_DEMAND": "0",
        "PYTHONUNBUFFERED": "1",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DAILY_SECRET": os.environ.get("DAILY_SECRET") or secrets.token_urlsafe(50),
    }
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=args.code, env=env, check=True
    )
    print(f"migrated by {args.code} in {time.perf_counter() - t:.1f} s", flush=True)
    os.environ.update(env)
    import django

    django.setup()
    import seed_day  # bench/seed_day.py, beside this file

    from games.daily.deals import ensure_daily, load_certifier, today
    from games.engine import DAILY_GAMES

    certifier = load_certifier()
    results = []
    for n, sessions in enumerate(days):
        day = today() - dt.timedelta(days=1 + n)
        t = time.perf_counter()
        for game in DAILY_GAMES:
            ensure_daily(game, day, certifier, budget=args.solver_seconds)
        print(f"{day}: deals made in {time.perf_counter() - t:.1f} s", flush=True)
        t = time.perf_counter()
        seed_day.seed(db, day, sessions, lambda s: print(s, flush=True))
        seeded = time.perf_counter() - t
        print(f"seeded {sessions} ranked sessions in {seeded:.1f} s (load {load()})", flush=True)
        if args.seed_only:
            continue
        before = load()
        seconds, peak = close(env, day, args.code)
        results.append((sessions, seeded, seconds, peak, before, load()))
    if not results:
        return 0
    print(
        f"\n{'sessions':>10} {'seeding s':>10} {'close s':>9} {'per 100k s':>11} "
        f"{'peak MB':>8}  load before / after"
    )
    for sessions, seeded, seconds, peak, before, after in results:
        print(
            f"{sessions:>10} {seeded:>10.1f} {seconds:>9.1f} "
            f"{seconds / sessions * 100_000:>11.2f} {peak / 1024:>8.0f}  {before} / {after}"
        )
    sessions, _, seconds, *_ = results[-1]
    print(f"closed {sessions} sessions in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
