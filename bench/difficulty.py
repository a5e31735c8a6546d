"""A daily's difficulty label: effort per move of par on certified dailies, per game.

    python bench/difficulty.py                       # 35 dates from 2027-01-01, every daily game
    python bench/difficulty.py --days 10 --games freecell klondike

Each game's candidate dailies are certified exactly as ``games.daily.deals.ensure_daily`` does
(``load_certifier()``, the settings' ``SOLVER_BUDGET_SECONDS`` per candidate and
``MAX_CANDIDATES``), from ``daily_seed(date, game, SECRET, candidate)`` over consecutive
dates with the fixed test secret below, so a run sees the deals a site with that secret
would publish.  Effort per move is the winning search's positions over par, the number
``games/daily/medals.py difficulty()`` compares with the class's ``effort_per_move = (easy,
hard)``.  Proposed thresholds are the sample's tertiles (at most the lower one is easy,
above the upper one hard, so about a third each), to two significant figures.  The
effort is a count of positions, not a time, so it does not depend on the machine's load
(only which candidate wins could, if one ran out of time rather than positions).

2026-12-01, 35 dates from 2027-01-01, secret "bench-difficulty", budget 10 s, on 2 busy
cores.  Effort per move of par; labels easy/medium/hard under the thresholds before (set
on the older solver) and after (this sample's tertiles, now on the classes):

    game            N    min    q1  median     q3     max   before             after
    klondike       35   0.67  0.99    1.25   3.47   684.9   1, 4   9/19/7      1.1, 2.1   14/9/12
    klondike-draw3 35   0.84  1.22    2.23  17.51  1187.8   1, 4   4/16/15     1.3, 6.4   10/13/12
    whitehorse     35   0.48  0.62    0.75   0.92   228.2   1, 4   28/5/2      0.67, 0.83 12/11/12
    freecell       35   4.48  5.50    7.71  12.78    83.1   7, 20  15/15/5     6.5, 10    12/11/12
    bakers-dozen   35   3.06  4.36    6.11  11.02   396.3   4, 30  5/24/6      5.2, 7.7   12/11/12

Every day was certified (no day ran out of its 50 candidates); candidates passed over
before the certified one: Klondike 10, draw three 9, the others none.  Seconds for the 35
days: Klondike 93, draw three 42, Whitehorse 5, FreeCell 1, Baker's Dozen 11.  The tails
are long (a few deals take hundreds of positions a move), so the upper tertile, not the
mean, sets "hard".  Klondike's lower tertile, 1.07 with three deals on it, rounds up to
1.1, which makes its thirds uneven.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("DAILY_SECRET", secrets.token_urlsafe(32))  # unused: SECRET below
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from games.daily.deals import MAX_CANDIDATES, load_certifier  # noqa: E402
from games.daily.medals import EASY, HARD, MEDIUM  # noqa: E402
from games.engine import DAILY_GAMES, GAMES  # noqa: E402

SECRET = "bench-difficulty"  # fixed, so that runs are comparable


def label(per_move: float, thresholds: tuple[float, float]) -> str:
    # The same comparison as games/daily/medals.py difficulty(), with thresholds given.
    easy, hard = thresholds
    return EASY if per_move <= easy else MEDIUM if per_move <= hard else HARD


def two_figures(x: float) -> float:
    return float(f"{x:.2g}")


def counts(values: list[float], thresholds: tuple[float, float]) -> str:
    labels = [label(v, thresholds) for v in values]
    return "/".join(str(labels.count(k)) for k in (EASY, MEDIUM, HARD))


def measure(game: str, dates: list[dt.date]) -> tuple[list[float], int, float, int]:
    """Effort per move of each certified daily; uncertified days, seconds, candidates
    passed over."""
    certify = load_certifier()
    assert certify is not None, "the solver package is not installed"
    per_move: list[float] = []
    uncertified, passed, t0 = 0, 0, time.monotonic()
    for date in dates:
        cert = certify(
            date, game, SECRET, budget=settings.SOLVER_BUDGET_SECONDS, max_candidates=MAX_CANDIDATES
        )
        if cert is None or not cert.states or not cert.par:
            uncertified += 1
            continue
        passed += cert.candidate
        per_move.append(cert.states / cert.par)
        print(
            f"  {game} {date} candidate {cert.candidate} par {cert.par} "
            f"states {cert.states} ({cert.states / cert.par:.2f}/move)",
            file=sys.stderr,
        )
    return per_move, uncertified, time.monotonic() - t0, passed


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--days", type=int, default=35)
    ap.add_argument("--start", type=dt.date.fromisoformat, default=dt.date(2027, 1, 1))
    ap.add_argument("--games", nargs="+", default=list(DAILY_GAMES), choices=list(DAILY_GAMES))
    args = ap.parse_args()
    dates = [args.start + dt.timedelta(days=i) for i in range(args.days)]
    rows = []
    for game in args.games:
        values, uncertified, seconds, passed = measure(game, dates)
        if len(values) < 3:
            rows.append(f"{game:<15} {len(values)} certified: too few for quartiles")
            continue
        q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
        t1, t2 = statistics.quantiles(values, n=3, method="inclusive")
        current = GAMES[game].effort_per_move
        proposed = (two_figures(t1), two_figures(t2))
        rows.append(
            f"{game:<15} {len(values):>2}  {min(values):>6.2f} {q1:>6.2f} {q2:>6.2f} {q3:>6.2f} "
            f"{max(values):>7.2f}  {current[0]:g}, {current[1]:g} -> {counts(values, current)}"
            f"   {proposed[0]:g}, {proposed[1]:g} -> {counts(values, proposed)}"
            f"   {uncertified} unc., {passed} passed over, {seconds:.0f} s"
        )
    print(
        "game            N     min     q1 median     q3     max  "
        "current: easy/medium/hard   proposed (tertiles)"
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
