"""Solver benchmark: ours beside the public solvers, on the same deals where they exist.

    python bench/solver.py                      # the default run (about an hour)
    python bench/solver.py --freecell 1 200 --klondike 20 --bakers 20 --hints 40   # quick

FreeCell is compared deal for deal with Debian's freecell-solver-bin (``fc-solve``, preset
``-l lg``) on Microsoft's deals.  Klondike is compared with Debian's kpat in headless mode;
kpat numbers its deals its own way, so the comparison is of the shares decided and the
time per deal, not deal by deal.  Times are CPU seconds of one process (ours) and of the
peer's child processes; this machine has 2 cores shared with other work, so they are
noisy.  Every solution of ours is replayed through the engine and must end in a win.

Fresh deals (never looked at while tuning: FreeCell was tuned on Microsoft deals 1-200,
Klondike on seeds 0-299), 2026-12-01, load average 10-15 on the 2 cores:

    FreeCell, Microsoft deals 30001-30100, one process   ours      fc-solve -l lg   ratio
    solved                                                100/100   100/100
    CPU s in all (median per deal)                        2.5 (6.7 ms)   0.029      87x
    deal 11982 proven unsolvable, CPU s                   1.42      0.42             3x
    (before: 4-16 s for 100 deals, 187-320x; 11982 in 4.5-5.0 s)

    Klondike draw one, 10 s CPU a deal      ours: seeds 700000-700149   kpat: its deals 1-150
    solved                                  136 (90.7%)                 129 (86.0%)
    proven lost                             12 (8.0%)                   4 (2.7%)
    unknown                                 2 (1.3%)                    17 (11.3%)
    CPU s in all (median per deal)          108.1 (4.4 ms)              52.9 (3.0 ms)
    (2026-12-01 23:43, one process, load average about 2; seeds 700000-700149 never
    looked at before, run once.  Six of the twelve proofs are deals blocked at once, six
    full searches, the longest 700094 in 6.9 s.  kpat from 20:35 that day, load 3.5.  The
    blocked check now knows that a run carried off by the card under it uncovers nothing
    and that a talon card is a place only once it has a place of its own (92 of seeds
    0-1999 blocked at the start rather than 65).  Before and after that change, the same
    evening and load, one process: seeds 600000-600149 135 / 5 / 10 (171.0 s) before,
    136 / 6 / 8 (156.7 s) after; seeds 500000-500149 130 / 8 / 12 (187.1 s) before,
    130 / 10 / 10 (173.4 s) after.  At 20:35, two processes at once, 600000-600149 gave
    134 / 5 / 11.  Published ~90.5% of deals winnable, so ~9.5% lost: most unknowns left
    are lost deals whose space is still too large to close in 10 s (in 600105's, most
    states are the same face-down cards with face-up runs shuffled between twin places).)
    2026-12-02, after the fix of a run split off a card whose suit waits in the talon (the
    two move rules waited for each other and a winnable position was proven lost; found by
    tests/engine/test_klondike_proofs.py): the same seeds, ``python -m games.engine solve
    klondike --range 700000 700149 --budget 10 --cpu``, 135 solved (90.0%), 12 proven lost
    (8.0%, the same twelve deals), 3 unknown, 142.2 s of CPU (median 5.8 ms), every win
    replayed.  Klondike hints on 40 positions (``--skip freecell klondike bakers cancel
    --hints 40``), the fix's parent and the fix alternated twice, CPU ms median / p95:
    102 / 176 and 147 / 272 before, 101 / 211 and 100 / 183 after: within the spread,
    which on this day's slower machine straddles 200 ms at p95.

    Klondike hints, 40 positions from random play, CPU ms    median   p95   worst
    1200 states a sample (now)                               68       119   130
    the same, the blocked check as it was before             73       132   179
    (2026-12-02 00:00, load average 5.5, the two runs one after the other; the check
    runs once a sample, on its first position.  A minute earlier: 93 / 179 / 216, and
    3000 states a sample 169 / 385 / 563; FreeCell on 40 positions: median 1, p95 17 ms;
    Baker's Dozen: 5, 734 ms.  At 20:52 on 2026-12-01, load 5: 81 / 185 / 220.)

2026-12-02 13:36-13:48, a machine about half as fast as the day before (a bare Daphne
echo at 2,300-3,900 messages a second against 4,600-4,950), FreeCell on more fresh sets
of 100 Microsoft deals, one process, ours against fc-solve ``-l lg`` in the same run:

    deals           ours CPU s   fc-solve s   ratio     slowest deal of ours
    40001-40100     7.1-8.2      0.032-0.037  221-225x  40031: 5.4 s (232k states)
    50001-50100     3.8-4.7      0.024        160-198x  50070: 2.3-2.7 s (114k states)
    60001-60100     1.9-2.4      0.026         73-94x   0.3 s
    70001-70100     1.6          0.019           85x    0.12 s
    80001-80100     1.3          0.020           64x    0.16 s
    90001-90100     1.7          0.019           88x    0.10 s

The ratio over a set is its slowest deal's: 40031 alone is two thirds of its set (the
other 99 deals about 76x).  On 40031 the weights (3,2,0,2,3) and (2,2,0,1,2) alone need
4,898 and 4,029 states, the first two sets 200k-247k, and the schedule gives the cheap
ones 3,000 states and then waits behind 100,000 for each of the first two.  Caps that
grow by rounds (3k, then 10k for all eight) cut the three sets 40001-60100 from 15.4 to
7.0 s of CPU but cost 40% more on deals 1-200 and 55% more on 11982's proof; open lists
alternating over one closed set proved 11982 in fewer states (61,643 against 70,716) at
2.5x the CPU a state.  Neither kept: both would be chosen on the sets they are measured
on.  That day: 11982 in 2.04 s (fc-solve 0.52 s); Klondike draw one on seeds
800000-800149 85.3% solved, 8.7% proven lost, 6.0% unknown (kpat on its deals 1-150:
86.0 / 2.7 / 11.3%); Klondike hints on 40 positions median 116 ms, p95 221 ms.

2026-12-02 evening.  Klondike hints stop sampling once the samples left could not change
the vote (the same hint on 300 of 300 positions compared): on 40 positions, CPU ms median
/ p95 / worst 90 / 167 / 264 before, 61 / 166 / 184 and 54 / 133 / 144 after (the row with
3000 states a sample 238 / 540 / 607 before, 124-126 / 335-341 after).  The FreeCell search
compiled with mypyc (``make native``; ``bench/native.py``, the same states on every deal)
against the same code interpreted and fc-solve ``-l lg``, two rounds alternated, sets
100001-120100 never looked at before:

    deals           interpreted CPU s (x fc-solve)   compiled CPU s (x fc-solve)   slowest deal
    100001-100100   1.07-1.26 (59-69x)               0.64-0.66 (35-37x)            0.12-0.24 s
    110001-110100   5.16-5.23 (226-259x)             3.33-3.46 (149-167x)          110080: 2.5 s compiled
    120001-120100   1.27-1.32 (58-76x)               0.77-0.81 (37-45x)            0.29-0.51 s
    40001-40100     4.25-5.10 (120-200x)             3.08-3.18 (87-124x)           40031: 2.2 s compiled
    50001-50100     2.70-2.83 (122-149x)             1.72-1.83 (74-101x)           50070: 1.0 s compiled
    11982 (proof)   1.15 (3x)                        0.64-0.71 (2x)                fc-solve 0.33-0.42 s

A set with one deal where the first weights dive is still out of reach: 110080 takes
227,474 states.  Schedules chosen by a greedy cover on the deals of 1-5000 that the first
round leaves (61 of them; each weight set run alone up to 150k states) halved those deals'
states but not the ones of 5001-10000 (28 sets of 50 within 100x in a model of the ratio,
against 31 with the schedule kept), and a round of 6k-20k states for all eight weight sets
before the 100k round moved no more than 3 of 50 sets while costing 11982's proof 47-185%
more states: neither kept.

2026-12-03, with the FreeCell race of two (Klondike's search unchanged since 12-02), fresh
seeds, 10 s of CPU a deal:

    Klondike draw one            solved         proven lost   unknown
    ours, 900000-900149          128 (85.3%)    10 (6.7%)     12 (8.0%)
    ours, 920000-920149          141 (94.0%)     4 (2.7%)      5 (3.3%)
    ours, the three fresh sets   397 (88.2%)    27 (6.0%)     26 (5.8%)   (with 800000 above)
    kpat, its deals 1-150        129 (86.0%)     4 (2.7%)     17 (11.3%)
    kpat, its deals 151-300      126 (84.0%)     6 (4.0%)     18 (12.0%)

920000-920149 holds few lost deals: of its five unknowns, given 120 s each, three were
solved (in 34, 48 and 77 s) and two stayed unknown, so at most 6 of its 150 deals (4%) are
lost and 5% cannot be proven on it; the search proved 4 of those at most 6.  Hints the same
day, 40 positions, CPU ms median / p95 / worst: Klondike 79 / 179 / - and 86 / 174 / 226 (two runs),
FreeCell 1 / 18 / 60, Baker's Dozen 6 / 827 / 912.

Every solution of ours replayed as a win.  ``python -m games.engine solve GAME --range 0
999 --budget 10 --cpu`` gives longer sweeps (two processes at once on this machine).

Earlier runs (2026-11-30, before the move filters): Klondike draw three 79.2% solved, 8.1%
proven lost, 12.7% unknown on seeds 0-999; Whitehorse 99.7% / 0.1% / 0.2%; Baker's Dozen
96.7% solved, 0.4% proven unwinnable, 2.9% unknown; hints (0.8 s search) p95: FreeCell
606 ms, Baker's Dozen 873 ms (wall); cancel worst 24 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import new_game, replay  # noqa: E402
from games.engine.solver import (  # noqa: E402
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    Budget,
    hint,
    solve,
)

KPAT = shutil.which("kpat") or ("/usr/games/kpat" if os.path.exists("/usr/games/kpat") else None)
KPAT_DEALERS = {"klondike": 0, "klondike-draw3": 13}  # kpat's ids: draw 1, draw 3


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


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


def fc_solve_range(a: int, b: int) -> dict | None:
    exe = shutil.which("freecell-solver-range-parallel-solve")
    if not exe:
        return None
    c0, w0 = children_cpu(), time.monotonic()
    out = subprocess.run([exe, str(a), str(b), "1", "-l", "lg"], capture_output=True,
                         text=True, check=False).stdout
    cpu, wall = children_cpu() - c0, time.monotonic() - w0
    # It names only the boards it did not solve.
    unsolved = len(re.findall(r"^Unsolved Board No\.", out, re.M))
    intract = len(re.findall(r"^Intractable Board No\.", out, re.M))
    n = b - a + 1
    return {"cpu": cpu, "wall": wall, "solved": n - unsolved - intract, "unsolvable": unsolved,
            "unknown": intract, "n": n}


def fc_solve_one(deal: int) -> tuple[str, float]:
    board = subprocess.run(["make-microsoft-freecell-board", "-t", str(deal)],
                           capture_output=True, text=True, check=True).stdout
    c0 = children_cpu()
    out = subprocess.run(["fc-solve", "-l", "lg"], input=board, capture_output=True,
                         text=True, check=False).stdout
    verdict = "solved" if "This game is solveable" in out else (
        "unsolvable" if "I could not solve" in out else "unknown")
    return verdict, children_cpu() - c0


def kpat_range(dealer: int, a: int, b: int) -> dict | None:
    if not KPAT:
        return None
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    c0, w0 = children_cpu(), time.monotonic()
    out = subprocess.run([KPAT, "--solve", str(dealer), "--start", str(a), "--end", str(b)],
                         capture_output=True, text=True, env=env, check=False).stdout
    cpu, wall = children_cpu() - c0, time.monotonic() - w0
    rows = re.findall(r"^(\d+) (won|lost|unknown) \((\d+) ms\)", out, re.M)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    ms = []
    for _, verdict, t in rows:
        counts[verdict] += 1
        ms.append(int(t))
    # Its own per-deal times, which leave out starting the application.
    return {"counts": counts, "ms": ms, "cpu": sum(ms) / 1000, "process_cpu": cpu, "wall": wall,
            "n": len(rows)}


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
    return [name, str(n), f"{c[SOLVED]} ({pct(c[SOLVED], n).strip()})",
            f"{c[UNSOLVABLE]} ({pct(c[UNSOLVABLE], n).strip()})",
            f"{c[UNKNOWN]} ({pct(c[UNKNOWN], n).strip()})", f"{sum(t):.1f}",
            f"{statistics.median(t) * 1000:.1f}", f"{max(t):.2f}",
            f"{statistics.median(res['lengths']):.0f}" if res["lengths"] else "-",
            str(res["bad"])]


HEADER = ["solver", "deals", "solved", "proven lost", "unknown", "cpu s", "median ms",
          "worst s", "median moves", "bad replays"]


def bench_freecell(a: int, b: int, budget: float) -> None:
    seeds = list(range(a, b + 1))
    mine = ours("freecell", seeds, budget, "freecell (ours)")
    rows = [our_row("ours", mine)]
    peer = fc_solve_range(a, b)
    if peer:
        rows.append(["fc-solve -l lg", str(peer["n"]), str(peer["solved"]),
                     str(peer["unsolvable"]), str(peer["unknown"]), f"{peer['cpu']:.1f}",
                     f"{peer['cpu'] / peer['n'] * 1000:.2f} (mean)", "-", "-", "-"])
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
        rows.append([f"kpat dealer {dealer}", str(k), f"{c['won']} ({pct(c['won'], k).strip()})",
                     f"{c['lost']} ({pct(c['lost'], k).strip()})",
                     f"{c['unknown']} ({pct(c['unknown'], k).strip()})", f"{peer['cpu']:.1f}",
                     f"{statistics.median(peer['ms']):.1f}", f"{max(peer['ms']) / 1000:.2f}",
                     "-", "-"])
    table(f"{game}, {n} deals (ours: seeds {start}-{start + n - 1}; kpat: its deals 1-{n}), "
          f"budget {budget:g} s per deal", HEADER, rows)
    if peer and peer["n"] and peer["cpu"] > 0:
        print(f"ratio of our CPU time per deal to kpat's: "
              f"{(sum(mine['times']) / n) / (peer['cpu'] / peer['n']):.1f}x "
              f"(kpat gives up on its own limits; ours uses the budget)")


def bench_bakers(n: int, budget: float) -> None:
    mine = ours("bakers-dozen", list(range(n)), budget, "bakers-dozen (ours)")
    table(f"Baker's Dozen, seeds 0-{n - 1}, budget {budget:g} s per deal (no public peer)",
          HEADER, [our_row("ours", mine)])


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
        rows.append([game, str(count), f"{statistics.median(cpu) * 1000:.0f}",
                     f"{cpu[p95] * 1000:.0f}", f"{wall[p95] * 1000:.0f}",
                     f"{wall[-1] * 1000:.0f}", str(kinds[SOLVED]), str(kinds[UNSOLVABLE]),
                     str(kinds[UNKNOWN])])
    table(f"Hints on positions from random play (0-60 moves from random deals), "
          f"budget {budget:g} s; load {os.getloadavg()[0]:.2f}",
          ["game", "positions", "CPU median ms", "CPU p95 ms", "wall p95 ms", "worst wall ms",
           "winning line", "proven lost", "heuristic"], rows)


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
    print(f"\ncancel latency over {runs} running hint searches: median "
          f"{statistics.median(lat) * 1000:.1f} ms, worst {max(lat) * 1000:.1f} ms")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--freecell", nargs=2, type=int, default=[30001, 30100], metavar=("A", "B"),
                   help="Microsoft deals (fresh ones: 1-200 were tuned on)")
    p.add_argument("--fc-budget", type=float, default=60.0)
    p.add_argument("--klondike", type=int, default=150, help="deals per Klondike game")
    p.add_argument("--klondike-start", type=int, default=500_000,
                   help="our first Klondike seed (fresh ones: 0-299 were tuned on)")
    p.add_argument("--games", nargs="*", default=["klondike", "klondike-draw3", "whitehorse"],
                   help="the Klondike-family games to run")
    p.add_argument("--bakers", type=int, default=100)
    p.add_argument("--budget", type=float, default=10.0, help="seconds per Klondike/BD deal")
    p.add_argument("--hints", type=int, default=100)
    p.add_argument("--skip", nargs="*", default=[],
                   help="sections to leave out: freecell klondike bakers hints cancel")
    a = p.parse_args()
    print(f"solver benchmark, {time.strftime('%Y-%m-%d %H:%M')}, python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores (shared; timings are noisy)")
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
