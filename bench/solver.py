"""Solver benchmark: ours beside the public solvers, on the same deals where they exist.

    python bench/solver.py                      # the default run (about an hour)
    python bench/solver.py --freecell 1 200 --klondike 20 --bakers 20 --hints 40   # quick

FreeCell is compared deal for deal with Debian's freecell-solver-bin (``fc-solve``, preset
``-l lg``) on Microsoft's deals.  Klondike is compared with Debian's kpat in headless mode;
kpat numbers its deals its own way, so the comparison is of the shares decided and the
time per deal, not deal by deal.  Times are CPU seconds of one process (ours) and of the
peer's child processes; this machine has 2 cores shared with other work, so they are
noisy.  Every solution of ours is replayed through the engine and must end in a win.

Longer sweeps: ``python -m games.engine solve GAME --range 0 999 --budget 10 --cpu`` (two
processes at once on a two-core machine).

Results: bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from public_solvers import KPAT_DEALERS, fc_solve_one, fc_solve_range, kpat_range  # noqa: E402

from games.engine import new_game, replay  # noqa: E402
from games.engine.solver import (  # noqa: E402
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    Budget,
    hint,
    solve,
)


def ours(game: str, seeds: list[int], budget: float, label: str) -> dict:
    counts = {SOLVED: 0, UNSOLVABLE: 0, UNKNOWN: 0}
    times: list[float] = []
    lengths: list[int] = []
    bad = 0
    for i, seed in enumerate(seeds, 1):
        t0 = time.process_time()
        # The budget counts this process's CPU time: the machine is shared.
        r = solve(new_game(game, seed), Budget(budget, clock=time.process_time))
        times.append(time.process_time() - t0)
        counts[r.status] += 1
        if r.status == SOLVED:
            lengths.append(len(r.moves))
            if not replay(game, seed, r.moves).won:
                bad += 1
        sys.stderr.write(f"\r{label}: {i}/{len(seeds)} ")
        sys.stderr.flush()
    sys.stderr.write("\n")
    return {"counts": counts, "times": times, "lengths": lengths, "bad": bad, "n": len(seeds)}


def pct(k: int, n: int) -> str:
    return f"{100 * k / n:5.1f}%" if n else "  -  "


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=False)))


def our_row(name: str, res: dict) -> list[str]:
    c, t, n = res["counts"], res["times"], res["n"]
    return [
        name,
        str(n),
        f"{c[SOLVED]} ({pct(c[SOLVED], n).strip()})",
        f"{c[UNSOLVABLE]} ({pct(c[UNSOLVABLE], n).strip()})",
        f"{c[UNKNOWN]} ({pct(c[UNKNOWN], n).strip()})",
        f"{sum(t):.1f}",
        f"{statistics.median(t) * 1000:.1f}",
        f"{max(t):.2f}",
        f"{statistics.median(res['lengths']):.0f}" if res["lengths"] else "-",
        str(res["bad"]),
    ]


HEADER = [
    "solver",
    "deals",
    "solved",
    "proven lost",
    "unknown",
    "cpu s",
    "median ms",
    "worst s",
    "median moves",
    "bad replays",
]


def bench_freecell(a: int, b: int, budget: float) -> None:
    seeds = list(range(a, b + 1))
    mine = ours("freecell", seeds, budget, "freecell (ours)")
    rows = [our_row("ours", mine)]
    peer = fc_solve_range(a, b)
    if peer:
        rows.append(
            [
                "fc-solve -l lg",
                str(peer["n"]),
                str(peer["solved"]),
                str(peer["unsolvable"]),
                str(peer["unknown"]),
                f"{peer['cpu']:.1f}",
                f"{peer['cpu'] / peer['n'] * 1000:.2f} (mean)",
                "-",
                "-",
                "-",
            ]
        )
    table(f"FreeCell, Microsoft deals {a}-{b}, budget {budget:g} s per deal", HEADER, rows)
    if peer and peer["cpu"] > 0:
        print(f"ratio of our CPU time to fc-solve's: {sum(mine['times']) / peer['cpu']:.0f}x")
    t0 = time.process_time()
    r = solve(new_game("freecell", 11982), Budget(60, 10**7, clock=time.process_time))
    t = time.process_time() - t0
    line = f"deal 11982: ours {r.status} in {t:.2f} s ({r.states} states)"
    if shutil.which("fc-solve"):
        verdict, cpu = fc_solve_one(11982)
        line += f"; fc-solve {verdict} in {cpu:.2f} s; ratio {t / max(cpu, 1e-3):.0f}x"
    print(line)


def bench_klondike(game: str, n: int, budget: float, start: int = 0) -> None:
    mine = ours(game, list(range(start, start + n)), budget, f"{game} (ours)")
    rows = [our_row("ours (full knowledge)", mine)]
    dealer = KPAT_DEALERS.get(game)
    peer = kpat_range(dealer, 1, n) if dealer is not None else None
    if peer and peer["n"]:
        c, k = peer["counts"], peer["n"]
        rows.append(
            [
                f"kpat dealer {dealer}",
                str(k),
                f"{c['won']} ({pct(c['won'], k).strip()})",
                f"{c['lost']} ({pct(c['lost'], k).strip()})",
                f"{c['unknown']} ({pct(c['unknown'], k).strip()})",
                f"{peer['cpu']:.1f}",
                f"{statistics.median(peer['ms']):.1f}",
                f"{max(peer['ms']) / 1000:.2f}",
                "-",
                "-",
            ]
        )
    table(
        f"{game}, {n} deals (ours: seeds {start}-{start + n - 1}; kpat: its deals 1-{n}), "
        f"budget {budget:g} s per deal",
        HEADER,
        rows,
    )
    if peer and peer["n"] and peer["cpu"] > 0:
        print(
            f"ratio of our CPU time per deal to kpat's: "
            f"{(sum(mine['times']) / n) / (peer['cpu'] / peer['n']):.1f}x "
            f"(kpat gives up on its own limits; ours uses the budget)"
        )


def bench_bakers(n: int, budget: float) -> None:
    mine = ours("bakers-dozen", list(range(n)), budget, "bakers-dozen (ours)")
    table(
        f"Baker's Dozen, seeds 0-{n - 1}, budget {budget:g} s per deal (no public peer)",
        HEADER,
        [our_row("ours", mine)],
    )


def playout_positions(game: str, count: int, rng: random.Random) -> list:
    out = []
    while len(out) < count:
        seed = rng.randint(1, 32000)
        g = new_game(game, seed)
        for _ in range(rng.randint(0, 60)):
            moves = list(g.legal_moves())
            if not moves or g.won:
                break
            g.push(rng.choice(moves))
        out.append(g)
    return out


# Search time of a hint; the rest of the second is left for the fallback.
HINT_BUDGET = 0.8


def bench_hints(count: int, budget: float) -> None:
    """Every game's hint on positions from random play: CPU and wall time (the wall time
    is what a player waits for, the CPU time what a busy machine does not change)."""
    from games.engine import GAMES

    rows = []
    for game in GAMES:
        rng = random.Random(f"hints-{game}")
        cpu, wall, kinds = [], [], {SOLVED: 0, UNSOLVABLE: 0, UNKNOWN: 0}
        for g in playout_positions(game, count, rng):
            t0, w0 = time.process_time(), time.perf_counter()
            h = hint(g, budget)
            cpu.append(time.process_time() - t0)
            wall.append(time.perf_counter() - w0)
            kinds[h.status] += 1
        cpu.sort()
        wall.sort()
        p95 = max(0, int(round(0.95 * len(cpu))) - 1)
        rows.append(
            [
                game,
                str(count),
                f"{statistics.median(cpu) * 1000:.0f}",
                f"{cpu[p95] * 1000:.0f}",
                f"{wall[p95] * 1000:.0f}",
                f"{wall[-1] * 1000:.0f}",
                str(kinds[SOLVED]),
                str(kinds[UNSOLVABLE]),
                str(kinds[UNKNOWN]),
            ]
        )
    table(
        f"Hints on positions from random play (0-60 moves from random deals), "
        f"budget {budget:g} s; load {os.getloadavg()[0]:.2f}",
        [
            "game",
            "positions",
            "CPU median ms",
            "CPU p95 ms",
            "wall p95 ms",
            "worst wall ms",
            "winning line",
            "proven lost",
            "heuristic",
        ],
        rows,
    )


def bench_cancel(runs: int) -> None:
    lat = []
    for i in range(runs):
        stop = threading.Event()
        g = new_game("freecell" if i % 2 else "bakers-dozen", 11982 if i % 2 else 0)
        done: list[float] = []

        def work(g=g, stop=stop, done=done) -> None:  # type: ignore[no-untyped-def]
            hint(g, Budget(60, 10**8, stop))
            done.append(time.monotonic())

        t = threading.Thread(target=work)
        t.start()
        time.sleep(0.2 + 0.05 * i)
        asked = time.monotonic()
        stop.set()
        t.join()
        lat.append(done[0] - asked)
    print(
        f"\ncancel latency over {runs} running hint searches: median "
        f"{statistics.median(lat) * 1000:.1f} ms, worst {max(lat) * 1000:.1f} ms"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--freecell",
        nargs=2,
        type=int,
        default=[30001, 30100],
        metavar=("A", "B"),
        help="Microsoft deals (fresh ones: 1-200 were tuned on)",
    )
    p.add_argument("--fc-budget", type=float, default=60.0)
    p.add_argument("--klondike", type=int, default=150, help="deals per Klondike game")
    p.add_argument(
        "--klondike-start",
        type=int,
        default=500_000,
        help="our first Klondike seed (fresh ones: 0-299 were tuned on)",
    )
    p.add_argument(
        "--games",
        nargs="*",
        default=["klondike", "klondike-draw3", "whitehorse"],
        help="the Klondike-family games to run",
    )
    p.add_argument("--bakers", type=int, default=100)
    p.add_argument("--budget", type=float, default=10.0, help="seconds per Klondike/BD deal")
    p.add_argument("--hints", type=int, default=100)
    p.add_argument(
        "--skip",
        nargs="*",
        default=[],
        help="sections to leave out: freecell klondike bakers hints cancel",
    )
    a = p.parse_args()
    print(
        f"solver benchmark, {time.strftime('%Y-%m-%d %H:%M')}, python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores (shared; timings are noisy)"
    )
    if "freecell" not in a.skip:
        bench_freecell(a.freecell[0], a.freecell[1], a.fc_budget)
    if "klondike" not in a.skip and a.klondike > 0:  # 0 deals: nothing to tabulate
        for game in a.games:
            bench_klondike(game, a.klondike, a.budget, a.klondike_start)
    if "bakers" not in a.skip and a.bakers > 0:
        bench_bakers(a.bakers, a.budget)
    if "hints" not in a.skip and a.hints > 0:
        bench_hints(a.hints, HINT_BUDGET)
    if "cancel" not in a.skip:
        bench_cancel(10)


if __name__ == "__main__":
    main()
