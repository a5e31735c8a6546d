"""What a start costs with the statements bound on the client or on the server
(``DB_SERVER_BINDING``), in process: no HTTP server, so its framing and the machine's drift
under load do not hide a few tenths of a millisecond.

    .venv/bin/python bench/statement_binding.py [--starts 1500] [--turns 3]

Each turn runs one child process per setting, one after the other: ``--starts`` random
FreeCell starts (``operations.start_session``, the statement that stores the deal and the
session) by one player, timed after a warm-up.  Printed per setting: the CPU of this
process (Python and psycopg), the CPU of its PostgreSQL backend (from /proc: the database
shares the machine's cores with the site), and wall time, each per start, with the ratio
to client-side binding (the ``0`` row, Django's default) of the same turn.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench,
created and migrated if missing), REDIS_URL (default redis://127.0.0.1:6379/0).

Run 2026-12-02 13:52, quiet machine (but slower than the day before: a static file cost
1.6-2.4 ms of CPU under Daphne, against 1.2 ms), ``--turns 2``:

    turn  binding    py CPU ms pg CPU ms  wall ms  py vs 0 pg vs 0
       1  0 (client)     1.254     1.327    3.137    100%   100%
       1  1 (server)     0.866     0.607    1.924     69%    46%
       2  0 (client)     0.933     1.020    2.254    100%   100%
       2  1 (server)     0.733     0.473    1.496     79%    46%

Under Daphne the gain is there but below the machine's drift from run to run
(bench/http_cost.py); the socket's moves were bound on the server already
(games/play/optimistic.py) and cost the same either way (bench/api_client.py, FreeCell,
alternated: 0.55 and 0.50 ms of CPU a move with 0, 0.56 and 0.51 with 1).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import ROOT, cpu_seconds, ensure_database  # noqa: E402


def child(starts: int) -> None:
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.db import connection

    from games.accounts import players
    from games.play import operations

    player = players._new_player(None)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    for _ in range(50):  # warm: the statement prepared, the engine's tables built
        operations.start_session(player, "freecell", "random")
    cpu0, pg0, t0 = time.process_time(), cpu_seconds(backend), time.perf_counter()
    for _ in range(starts):
        operations.start_session(player, "freecell", "random")
    out = {
        "py": time.process_time() - cpu0,
        "pg": cpu_seconds(backend) - pg0,
        "wall": time.perf_counter() - t0,
    }
    print(json.dumps({k: v / starts * 1000 for k, v in out.items()}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=1500)
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.starts)
        return
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": "bench",
        "LOG_LEVEL": "WARNING",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
    }
    ensure_database(db)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    print(f"{args.starts} random FreeCell starts a row, in process\n")
    print(
        f"{'turn':>4}  {'binding':<10} {'py CPU ms':>9} {'pg CPU ms':>9} {'wall ms':>8}"
        f"  {'py vs 0':>7} {'pg vs 0':>7}"
    )
    for turn in range(1, args.turns + 1):
        base: dict[str, float] = {}
        for binding in ("0", "1"):
            progress = f"  turn {turn}, DB_SERVER_BINDING={binding} ..."
            print(progress, end="\r", flush=True)
            done = subprocess.run(
                [sys.executable, __file__, "--child", "--starts", str(args.starts)],
                env={**env, "DB_SERVER_BINDING": binding},
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            row = json.loads(done.stdout.strip().splitlines()[-1])
            base = base or row
            label = "0 (client)" if binding == "0" else "1 (server)"
            print(" " * len(progress), end="\r")
            print(
                f"{turn:>4}  {label:<10} {row['py']:>9.3f} {row['pg']:>9.3f} "
                f"{row['wall']:>8.3f}  {row['py'] / base['py']:>6.0%} "
                f"{row['pg'] / base['pg']:>6.0%}"
            )


if __name__ == "__main__":
    main()
