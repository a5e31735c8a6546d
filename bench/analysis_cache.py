"""A simulated day of one daily: how often the shared analysis cache answers instead of a search.

K players play the same daily deal one after another with random legal moves (the stock as
likely as any other move; with ``--follow P`` a player plays the table's ``best`` move, which
the Klondike family marks, with probability P instead, as players who follow the obvious
moves do), until a dead end, a win or ``--moves`` moves.  Each move's dead-end verdict is
given as the socket gives it: within ``DEAD_END_LOOP_MS`` on the table (what the table
remembers included), else settled as ``games.play.verdicts.settle`` does, the cache first.
At a dead end the player asks a hint (``games.play.hints.suggest``: the cache, else the hint
pool's search), and at the end the post-game analysis runs (``turning_point`` through the
cache, ``--analysis-seconds``, the deal's certifying line given as the server gives it).
Prints, per kind of entry, lookups, hits and the hit rate, and per call the time a call
took when the cache answered none of its lookups and when it answered some.

    .venv/bin/python bench/analysis_cache.py --game freecell --players 20
    .venv/bin/python bench/analysis_cache.py --game klondike --players 20 --follow 0.8

Last runs (2026-12-01, 20 players each, --analysis-seconds 12, deal 617 of each game,
certified by a 60 s search first):

    game, play            dead-end verdicts   hints (hidden cards)   solve entries
                          lookups  hits       lookups  hits          lookups  hits
    klondike, random         560     0%           4     0%              87     0%
    klondike, follow 80%     127    22%           0     -               62    11%
    whitehorse, follow 80%    75    28%           9    44%              84    19%
    freecell, random           -     -            -     -               99    29%
    bakers-dozen, random     337     4%           -     -              129    17%

(solve entries: the analyses' searches, and in FreeCell and Baker's Dozen the hints too.)
Random players part at once (a Klondike game's dead-end positions are never twice the
same); those who follow the obvious moves meet again, and a hit answers in 1.5-21 ms where
the search took 7-26 ms (a dead-end verdict) or about a second (a hint).  Every FreeCell
and Baker's Dozen analysis had a hit: the dead end its player's hint had just proven
unsolvable is the analysis' last position.  The analyses also take the deal's own proof
from its certifying line, counted nowhere above.

Environment: REDIS_URL (default redis://127.0.0.1:6379/0); keys under the prefix
``bench-ac``, emptied first.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import secrets
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ["REDIS_KEY_PREFIX"] = "bench-ac"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("DAILY_SECRET", secrets.token_urlsafe(50))
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ.setdefault("HINT_SECONDS_PER_MINUTE", "0")  # each player asks few; no cap

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.conf import settings  # noqa: E402

from games.engine import endgame, new_game, seen  # noqa: E402
from games.engine.solver import SOLVED, solve  # noqa: E402
from games.engine.solver.turning import turning_point  # noqa: E402
from games.play import analysis_cache, hint_pool, hints  # noqa: E402

spent: Counter[str] = Counter()  # seconds per call and outcome ("hint hit", "hint miss")
count: Counter[str] = Counter()
CALLS = {
    "dead": "dead-end verdicts settled",
    "hint": "hints at a dead end",
    "analysis": "post-game analyses",
}


def timed(call: str, fn, *args):  # type: ignore[no-untyped-def]
    """``fn(*args)``, timed, counted as a hit when the cache answered any of its lookups."""
    before = sum(analysis_cache.hits.values())
    t0 = time.perf_counter()
    out = fn(*args)
    what = f"{call} {'hit' if sum(analysis_cache.hits.values()) > before else 'miss'}"
    spent[what] += time.perf_counter() - t0
    count[what] += 1
    return out


def settle(daily: analysis_cache.Daily, g):  # type: ignore[no-untyped-def]
    """``verdicts.settle`` without its loop and worker: the cache, else the search."""
    found = analysis_cache.dead_end(daily, g)
    if found is None:
        found = endgame.settle(g)
        analysis_cache.keep_dead_end(daily, g, *found)
    return found


def one_player(
    args: argparse.Namespace,
    daily: analysis_cache.Daily,
    seed: int,
    n: int,
) -> tuple[list[str], int]:
    rng = random.Random(n)
    g = new_game(args.game, seed)
    tokens: list[str] = []
    within = settings.DEAD_END_LOOP_MS / 1000
    hints_asked = 0
    while not g.won and len(tokens) < args.moves:
        moves = list(g.legal_moves())
        dead = endgame.dead_end_within(g, moves, within)
        if dead is None:
            copy = g.copy()
            copy.history = []
            dead, kept = timed("dead", settle, daily, copy)
            endgame.remember(g, kept)
        if dead or not moves:
            timed("hint", hints.suggest, g.copy(), f"s{n}", f"p{n}", daily)
            hints_asked += 1
            break
        objects = seen.state(g, within)["legal_moves"] if args.follow else []
        best = [m["move"] for m in objects if m.get("best")]
        if best and rng.random() < args.follow:
            token = best[0]
        else:
            token = g.notation(rng.choice(moves))
        g.play(token)
        tokens.append(token)
    return tokens, hints_asked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="freecell")
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--seed", type=int, default=617)
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--follow", type=float, default=0.0)
    ap.add_argument("--analysis-seconds", type=float, default=4.0)
    args = ap.parse_args()
    r = redis.Redis.from_url(settings.REDIS_URL)
    for key in r.scan_iter("bench-ac:ac:*", count=1000):
        r.delete(key)
    daily = (args.game, dt.date.today())
    # A daily is certified before it is published: its line is the analysis' proof of the deal.
    cert = solve(new_game(args.game, args.seed), 60)
    deal = (new_game(args.game, args.seed), cert.moves) if cert.status == SOLVED else None
    print(f"deal {args.seed}: {cert.status}" + (f" in {len(cert.moves)} moves" if deal else ""))
    t0 = time.monotonic()
    played = 0
    for n in range(args.players):
        tokens, _ = one_player(args, daily, args.seed, n)
        played += len(tokens)
        timed(
            "analysis",
            turning_point,
            args.game,
            args.seed,
            tokens,
            args.analysis_seconds,
            12,
            analysis_cache.caching_solver(daily, deal),
        )
    hint_pool.reset()
    totals = analysis_cache.counts(daily)
    print(
        f"\n{args.players} players, {args.game} seed {args.seed}, random moves (follow "
        f"{args.follow:.0%}), {played} moves in all, {time.monotonic() - t0:.0f} s"
    )
    print(f"{'entries':8} {'lookups':>8} {'hits':>6} {'hit rate':>9} {'stored':>7}")
    for kind in analysis_cache.KINDS:
        looked, hit = totals.get(f"{kind}:lookups", 0), totals.get(f"{kind}:hits", 0)
        print(
            f"{kind:8} {looked:8d} {hit:6d} {hit / max(1, looked):9.0%} "
            f"{totals.get(f'{kind}:stored', 0):7d}"
        )
    print(f"\n{'calls':28} {'calls':>6} {'any hit':>8} {'ms a miss':>10} {'ms a hit':>9}")
    for call, name in CALLS.items():
        hit, miss = count[f"{call} hit"], count[f"{call} miss"]
        print(
            f"{name:28} {hit + miss:6d} {hit:8d} "
            f"{spent[f'{call} miss'] / max(1, miss) * 1000:10.1f} "
            f"{spent[f'{call} hit'] / max(1, hit) * 1000:9.1f}"
        )
    print(
        "(a hint on a table with nothing hidden, FreeCell's, looks up solve entries; an "
        "analysis makes one lookup per position it searches)"
    )


if __name__ == "__main__":
    main()
