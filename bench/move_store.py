"""What storing one move costs PostgreSQL, against the length of the game.

A private PostgreSQL cluster (nothing else writes to it, so its WAL position counts only
what this run wrote) gets the site's schema; games of FreeCell are played by random legal
moves through the site's own move store (``games.play.optimistic.play``: the statement a
socket move runs, on Django's connection) up to 1,600 moves each, several games in turn.
For each window of game length the run prints the PostgreSQL backend's CPU per move (read
from /proc, the server process serving this connection) and the WAL bytes per move, beside
the same figures for a bare one-row INSERT into a table of four columns, measured in the
same run on the same cluster: the floor of any store that appends.

    .venv/bin/python bench/move_store.py                    # this checkout
    .venv/bin/python bench/move_store.py --baseline HEAD~5  # and another revision beside it

``--baseline REV`` checks the revision out into a temporary worktree and runs the same
measurement with its code (each tree migrates its own database), then prints both.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WINDOWS = [(0, 150), (500, 600), (1500, 1600)]


def _cpu(pid: int) -> float:
    """The CPU seconds (user + system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child(games: int) -> None:
    """Runs inside the tree under test (its code on sys.path), against DATABASE_URL."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from games.engine import new_game
    from games.models import Player
    from games.play import operations, optimistic

    call_command("migrate", verbosity=0)
    rng = random.Random(5)
    player = Player.objects.create(display_name="bench")
    sessions = []
    for _ in range(games):
        seed = rng.randint(1, 32000)
        out = operations.start_session(player, "freecell", seed)
        sessions.append([str(out.session.pk), new_game("freecell", seed), 0])
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS bench_bare (session uuid, seq int, token text, at bigint)"
        )

    def wal() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn")
            return int(cursor.fetchone()[0])

    results = {}
    length = 0
    for lo, hi in WINDOWS:
        while length < lo:  # play up to the window, unmeasured
            for s in sessions:
                _move(optimistic, player, s, rng)
            length += 1
        cpu0, wal0, t0 = _cpu(backend), wal(), time.perf_counter()
        last_start = wal0
        moves = 0
        while length < hi:
            for s in sessions:
                moves += _move(optimistic, player, s, rng)
            length += 1
        results[f"{lo}-{hi}"] = {
            "cpu_ms": (_cpu(backend) - cpu0) * 1000 / moves,
            "wal": (wal() - wal0) / moves,
            "wall_ms": (time.perf_counter() - t0) * 1000 / moves,
        }
    # Where the last window's WAL went, by record kind (pg_walinspect, PostgreSQL 15+).
    with connection.cursor() as cursor:
        try:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
            cursor.execute(
                'SELECT "resource_manager/record_type", count, combined_size FROM '
                "pg_get_wal_stats(%s::pg_lsn, pg_current_wal_flush_lsn(), true) "
                "WHERE count > 0 ORDER BY combined_size DESC LIMIT 8",
                [_lsn(last_start)],
            )
            detail = {kind: [n, size / moves] for kind, n, size in cursor.fetchall()}
            cursor.execute(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
                "WHERE relname = 'games_gamesession'"
            )
            upd, hot = cursor.fetchone()
            detail["session updates HOT"] = [hot, upd]
        except Exception as exc:  # noqa: BLE001 - an older PostgreSQL: the totals stand
            detail = {"unavailable": [0, str(exc)]}
    results["wal by record (last window)"] = detail  # type: ignore[assignment]
    # The floor: one-row INSERTs, autocommitted, as many as the last window's moves.
    cpu0, wal0 = _cpu(backend), wal()
    with connection.cursor() as cursor:
        for i in range(moves):
            cursor.execute(
                "INSERT INTO bench_bare VALUES (%s, %s, %s, %s)",
                [sessions[i % len(sessions)][0], i, "8a", 1_700_000_000_000 + i],
            )
    results["bare INSERT"] = {
        "cpu_ms": (_cpu(backend) - cpu0) * 1000 / moves,
        "wal": (wal() - wal0) / moves,
        "wall_ms": 0.0,
    }
    print(json.dumps(results))


def _lsn(position: int) -> str:
    return f"{position >> 32:X}/{position & 0xFFFFFFFF:X}"


def _move(optimistic: object, player: object, s: list, rng: random.Random) -> int:
    sid, g, seq = s
    moves = list(g.legal_moves())
    undo = bool(g.history) and (not moves or rng.random() < 0.05)
    move = None if undo else rng.choice(moves)
    token = g.notation(move) if move is not None else "u"  # stuck now and then: an undo
    out = optimistic.play(sid, player, seq, token)  # type: ignore[attr-defined]
    if not hasattr(out, "session"):  # an Outcome; a Declined goes to the locked path
        raise SystemExit(f"the move store declined move {seq} of {sid} ({token})")
    g.push(move) if move is not None else g.undo()
    s[2] = seq + 1
    return 1


def measure(tree: Path, games: int) -> dict[str, dict[str, float]]:
    sys.path.insert(0, str(ROOT / "tests" / "reliability"))
    from stack import PrivatePostgres

    pg = PrivatePostgres()
    try:
        pg.start()
        pg.create_database()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": pg.url,
            "DEBUG": "1",
            "SECRET_KEY": "bench-" + "x" * 40,
            "DAILY_SECRET": "bench",
            "REDIS_KEY_PREFIX": f"bench-{uuid.uuid4().hex[:8]}",
            "PYTHONPATH": str(tree),
            "DB_POOL_SIZE": "0",
        }
        out = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", "--games", str(games)],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if out.returncode != 0:
            raise SystemExit(f"the measurement in {tree} failed:\n{out.stderr[-3000:]}")
        return dict(json.loads(out.stdout.strip().splitlines()[-1]))
    finally:
        pg.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games played side by side")
    ap.add_argument("--baseline", help="a git revision measured beside this checkout")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.games)
        return
    runs = {}
    if args.baseline:
        with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
            tree = Path(tmp) / "tree"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.baseline],
                check=True,
                capture_output=True,
            )
            try:
                print(f"measuring {args.baseline} ...", file=sys.stderr, flush=True)
                runs[f"baseline {args.baseline}"] = measure(tree, args.games)
            finally:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                    check=False,
                    capture_output=True,
                )
    print("measuring this checkout ...", file=sys.stderr, flush=True)
    runs["this checkout"] = measure(ROOT, args.games)
    print(
        f"{args.games} FreeCell games of random legal moves; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'code':28} {'moves':12} {'PG CPU ms/move':>15} {'WAL B/move':>11} "
        f"{'x first window':>15} {'vs bare INSERT':>15}"
    )
    for name, res in runs.items():
        first, bare = res["0-150"], res["bare INSERT"]
        detail = res.pop("wal by record (last window)", {})
        for window, v in res.items():
            print(
                f"{name:28} {window:12} {v['cpu_ms']:15.3f} {v['wal']:11.0f} "
                f"{v['cpu_ms'] / first['cpu_ms']:14.2f}x "
                f"{v['cpu_ms'] / bare['cpu_ms']:14.2f}x"
            )
        for kind, (count, per_move) in detail.items():
            print(f"{'':28} {'':12} WAL of the last window: {kind} {count} {per_move}")


if __name__ == "__main__":
    main()
