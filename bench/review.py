"""How often the fair-play review flags a win, by who plays it: paced models of people
against scripts, on real winning lines (games/review.py, docs/rules.md "Fair play").

Each game is a solver's winning line for a real deal, re-timed by a pace model; the review's
timing signals and thresholds (settings.REVIEW) give the verdict.  People are modelled, not
recorded: think times drawn from a log-normal around a median, with runs of quick obvious
moves, and a first look at the table before the first move.  The figures say how far the
thresholds sit from each model; a real player's pace is its own.

    DEBUG=1 .venv/bin/python bench/review.py --games 60
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from games.engine.solver import SOLVED, Budget, solve_deal  # noqa: E402
from games.models import Deal, GameSession  # noqa: E402
from games.review import timing, verdict  # noqa: E402

# name: (first look seconds (low, high), median think s, spread, share of quick runs,
# quick run ms (low, high))
PEOPLE = {
    "careful person": ((4, 15), 2.0, 0.6, 0.15, (300, 500)),
    "fast person": ((1.5, 5), 0.8, 0.5, 0.35, (220, 420)),
    "very fast person": ((1.2, 3), 0.55, 0.45, 0.45, (180, 350)),
}
SCRIPTS = {"script at machine speed": (0.05, 0.005), "script, 0.2 s a move": (0.3, 0.2)}


def lines(game: str, count: int, seconds: float) -> list[tuple[int, list[str]]]:
    found: list[tuple[int, list[str]]] = []
    seed = 1
    while len(found) < count and seed < count * 5:
        r = solve_deal(game, seed, Budget(seconds, 2_000_000, clock=time.process_time))
        if r.status == SOLVED:
            found.append((seed, r.moves))
        seed += 1
    return found


def session_for(game: str, seed: int, tokens: list[str], stamps: list[int]) -> GameSession:
    deal = Deal(game=game, seed=seed)
    created = dt.datetime.fromtimestamp(0, tz=dt.UTC)
    end = dt.datetime.fromtimestamp(stamps[-1] / 1000, tz=dt.UTC)
    s = GameSession(game=game, deal=deal, created_at=created, status=GameSession.WON,
                    time_ms=stamps[-1], finished_at=end)
    s.moves = [[t, at] for t, at in zip(tokens, stamps, strict=True)]
    return s


def person(rng: random.Random, n: int, model: tuple) -> list[int]:
    (lo, hi), median, spread, quick, (qlo, qhi) = model
    at = int(rng.uniform(lo, hi) * 1000)
    out = []
    for _ in range(n):
        out.append(at)
        at += rng.randint(qlo, qhi) if rng.random() < quick else \
            int(rng.lognormvariate(0, spread) * median * 1000)
    return out


def script(rng: random.Random, n: int, model: tuple[float, float]) -> list[int]:
    first, gap = model
    at = int(first * 1000)
    out = []
    for _ in range(n):
        out.append(at)
        at += max(1, int(rng.gauss(gap, gap / 5) * 1000))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="winning lines per game")
    ap.add_argument("--budget", type=float, default=2.0, help="solver seconds per deal")
    args = ap.parse_args()
    rng = random.Random(7)
    print(f"{'game':14} {'who':26} {'wins':>5} {'flagged':>8}   reasons")
    for game in ("freecell", "bakers-dozen", "klondike"):
        found = lines(game, args.games, args.budget)
        for name, model in [*PEOPLE.items(), *SCRIPTS.items()]:
            flagged, why = 0, Counter()
            for seed, tokens in found:
                stamps = (person(rng, len(tokens), model) if name in PEOPLE
                          else script(rng, len(tokens), model))
                reasons = verdict({**timing(session_for(game, seed, tokens, stamps)),
                                   "linked": []})
                flagged += bool(reasons)
                why.update(reasons)
            share = flagged / len(found) if found else 0.0
            print(f"{game:14} {name:26} {len(found):5d} {share:8.1%}   "
                  + ", ".join(f"{k} {v}" for k, v in why.most_common()))


if __name__ == "__main__":
    main()
