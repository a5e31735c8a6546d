"""Rank and neighbourhood lookups for one day with 1,000,000 entries: the Redis sorted-set
index against the PostgreSQL query over the same rows, side by side.

    .venv/bin/python bench/leaderboard.py [--entries 1000000] [--lookups 5000]

The PostgreSQL side uses a table shaped like leaderboards.Entry's ranking columns, with the
same (game, date, sort_key) index, so that a million rows load in seconds without a million
sessions behind them.  Environment: DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/solitaire_bench, created if missing), REDIS_URL.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

import psycopg
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from leaderboards.keys import sort_key  # noqa: E402

GAME, DAY = "freecell", "2000-01-01"


def entries(n: int, rng: random.Random) -> list[tuple[str, int]]:
    out = []
    for _ in range(n):
        won = rng.random() < 0.7
        key = sort_key(
            GAME,
            won,
            None,
            rng.randint(60_000, 3_600_000),
            rng.randint(80, 400),
            rng.randint(0, 51),
        )
        out.append((str(uuid.UUID(int=rng.getrandbits(128))), key))
    return out


def report(name: str, samples: list[float]) -> None:
    s = sorted(samples)
    p = lambda q: s[min(len(s) - 1, int(q * len(s)))] * 1000  # noqa: E731
    print(
        f"{name:38} p50 {p(0.5):8.3f} ms   p99 {p(0.99):8.3f} ms   "
        f"mean {statistics.fmean(s) * 1000:8.3f} ms   ({len(s)} lookups)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--lookups", type=int, default=5000)
    ap.add_argument("--pg-lookups", type=int, default=300)
    args = ap.parse_args()
    rng = random.Random(2026)
    rows = entries(args.entries, rng)
    probes = [rows[rng.randrange(len(rows))][0] for _ in range(args.lookups)]

    r = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    key = f"bench:rank:{GAME}:{DAY}"
    r.delete(key)
    t0 = time.perf_counter()
    for i in range(0, len(rows), 20_000):
        r.zadd(key, dict(rows[i : i + 20_000]))
    print(f"Redis: {r.zcard(key)} entries loaded in {time.perf_counter() - t0:.1f} s")
    rank_t, near_t = [], []
    for sid in probes:
        t = time.perf_counter()
        pos = r.zrank(key, sid)
        rank_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        r.zrange(key, max(0, pos - 5), pos + 5, withscores=True)
        near_t.append(time.perf_counter() - t)

    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(url, autocommit=True) as pg:
        pg.execute("DROP TABLE IF EXISTS bench_rank")
        pg.execute(
            "CREATE TABLE bench_rank (session_id uuid PRIMARY KEY, game text, "
            "date date, sort_key bigint)"
        )
        t0 = time.perf_counter()
        with pg.cursor().copy(
            "COPY bench_rank (session_id, game, date, sort_key) FROM STDIN"
        ) as cp:
            for sid, k in rows:
                cp.write_row((sid, GAME, DAY, k))
        pg.execute("CREATE INDEX bench_rank_idx ON bench_rank (game, date, sort_key, session_id)")
        pg.execute("VACUUM ANALYZE bench_rank")
        print(
            f"PostgreSQL: {len(rows)} rows loaded and indexed in {time.perf_counter() - t0:.1f} s"
        )
        keys = dict(rows)
        pg_rank_t, pg_near_t = [], []
        for sid in probes[: args.pg_lookups]:
            k = keys[sid]
            t = time.perf_counter()
            ahead = pg.execute(
                "SELECT count(*) FROM bench_rank WHERE game=%s AND date=%s AND "
                "(sort_key < %s OR (sort_key = %s AND session_id < %s))",
                (GAME, DAY, k, k, sid),
            ).fetchone()[0]
            pg_rank_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            pg.execute(
                "SELECT session_id, sort_key FROM bench_rank WHERE game=%s AND date=%s "
                "ORDER BY sort_key, session_id OFFSET %s LIMIT 11",
                (GAME, DAY, max(0, ahead - 5)),
            ).fetchall()
            pg_near_t.append(time.perf_counter() - t)
        pg.execute("DROP TABLE bench_rank")
    r.delete(key)

    print(f"\n{args.entries} entries for one day")
    report("Redis ZRANK (rank)", rank_t)
    report("Redis ZRANGE (rank +/- 5)", near_t)
    report("PostgreSQL count (rank)", pg_rank_t)
    report("PostgreSQL offset/limit (rank +/- 5)", pg_near_t)


if __name__ == "__main__":
    main()
