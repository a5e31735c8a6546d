"""The FreeCell solver over a long range of Microsoft deals, in sets of 100 beside fc-solve.

    python bench/freecell_sweep.py --deals 1 10000 --jobs 2
    python bench/freecell_sweep.py --deals 1 2000 --compiled

Each deal is solved in a child process (``--jobs`` at once; the CPU seconds are each
child's own), every win replayed through the engine.  fc-solve ``-l lg`` (Debian's
freecell-solver-range-parallel-solve) solves each set of 100 in the same run.  Prints the
states in all, the slowest deals, and how many sets of 100 we solve within 100x of
fc-solve's time, measured and as a model that does not depend on the load of the machine:
the set's states times the CPU a state (``--per-state``, microseconds; compiled about 7.3
on this machine, deals 1-100: 110,492 states in 0.81 s).  ``--compiled`` runs a copy of the
project with the FreeCell search compiled (scripts/native.py).

Deals 1-10000, 2026-12-03, two jobs on the machine's two cores (the states are the same
compiled or not; the first row is the solver before the race, interpreted):

    search                                 states in all   slowest deal        sets within 100x
                                                                               measured   model
    eight best-first runs one by one       19.22 million   8436: 1,005,996        -      94 of 100
    race of three (best, depth, typed)     15.71 million    657:   179,248    98 of 100  99 of 100
    race of two (typed, depth), compiled   16.13 million   2139:   266,881    98 of 100  98 of 100

The race of two is the solver's (games/engine/solver/freecell.py says why: its proof of
deal 11982 takes 94,000 states, the race of three's 127,000).  Its median deal takes 676
states and its line 101 moves; 122 s of CPU in all against fc-solve's 2.6 s.  The sets over
100x hold deal 2139 (266,881 states: 136x in the model, 190x measured) and 3470 (103,924:
101x and 134x).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))
import native as builder  # noqa: E402  (scripts/native.py: the compiled copy)
from solver import fc_solve_range, table  # noqa: E402

CHILD = r"""
import json, sys, time
from games.engine import new_game, replay
from games.engine.solver import Budget, solve
out = {}
for d in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
    t0 = time.process_time()
    r = solve(new_game("freecell", d), Budget(float(sys.argv[3]), clock=time.process_time))
    cpu = time.process_time() - t0
    ok = r.status != "solved" or replay("freecell", d, r.moves).won
    out[d] = [r.status, r.states, cpu, len(r.moves), ok]
print(json.dumps(out))
"""


def chunk(where: Path, a: int, b: int, budget: float) -> dict[int, list]:
    r = subprocess.run(
        [sys.executable, "-c", CHILD, str(a), str(b), str(budget)],
        cwd=where,
        capture_output=True,
        text=True,
        check=True,
    )
    return {int(k): v for k, v in json.loads(r.stdout).items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", nargs=2, type=int, default=[1, 2000], metavar=("A", "B"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--budget", type=float, default=60.0, help="CPU seconds a deal")
    p.add_argument("--per-state", type=float, default=7.5, help="model: CPU microseconds a state")
    p.add_argument("--compiled", action="store_true", help="a compiled copy of the search")
    a = p.parse_args()
    lo, hi = a.deals
    if (hi - lo + 1) % 100:
        raise SystemExit("--deals must span whole sets of 100 (for example 1 2000)")
    where = ROOT
    if a.compiled:
        print("sweep: compiling a copy under build/native-bench ...", flush=True)
        where = builder.compiled_copy(ROOT / "build" / "native-bench")
    res: dict[int, list] = {}
    sets = list(range(lo, hi + 1, 100))
    with ProcessPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(chunk, where, s, s + 99, a.budget) for s in sets]
        for n, f in enumerate(as_completed(futures), 1):
            res.update(f.result())
            sys.stderr.write(f"\rsweep: {n}/{len(sets)} sets of 100 solved")
    sys.stderr.write("\n")
    fc: dict[int, float] = {}
    for n, s in enumerate(sets, 1):
        got = fc_solve_range(s, s + 99)
        if got is None:
            raise SystemExit("fc-solve is missing: apt-get install freecell-solver-bin")
        fc[s] = got["cpu"]
        sys.stderr.write(f"\rsweep: fc-solve {n}/{len(sets)} sets")
    sys.stderr.write("\n")
    bad = [d for d, v in res.items() if not v[4]]
    if bad:
        raise SystemExit(f"lines that do not replay as wins: {bad[:10]}")
    measured = model = 0
    over = []
    for s in sets:
        rows = [res[d] for d in range(s, s + 100)]
        cpu, states = sum(r[2] for r in rows), sum(r[1] for r in rows)
        measured += cpu / fc[s] <= 100
        if cpu / fc[s] > 100:
            over.append(
                f"{s}-{s + 99}: {cpu / fc[s]:.0f}x measured ({cpu:.2f} s against "
                f"fc-solve's {fc[s]:.3f} s)"
            )
        ratio = states * a.per_state * 1e-6 / fc[s]
        model += ratio <= 100
        if ratio > 100:
            top = max(range(s, s + 100), key=lambda d: res[d][1])
            over.append(
                f"{s}-{s + 99}: {ratio:.0f}x in the model (deal {top}: {res[top][1]:,} states)"
            )
    states = [v[1] for v in res.values()]
    slow = sorted(res, key=lambda d: -res[d][1])[:5]
    verdicts = {
        k: sum(v[0] == k for v in res.values()) for k in ("solved", "unsolvable", "unknown")
    }
    table(
        f"FreeCell, Microsoft deals {lo}-{hi} ({'compiled' if a.compiled else 'interpreted'})",
        ["measure", "value"],
        [
            ["solved / proven / unknown", "{solved} / {unsolvable} / {unknown}".format(**verdicts)],
            ["states in all", f"{sum(states) / 1e6:.2f} million"],
            [
                "states a deal: median, p99",
                f"{statistics.median(states):.0f}, {sorted(states)[int(len(states) * 0.99)]:,}",
            ],
            ["moves a line: median", f"{statistics.median(v[3] for v in res.values()):.0f}"],
            ["slowest deals", ", ".join(f"{d}: {res[d][1]:,}" for d in slow)],
            [
                "CPU s in all (fc-solve)",
                f"{sum(v[2] for v in res.values()):.1f} ({sum(fc.values()):.2f})",
            ],
            ["sets within 100x, measured", f"{measured} of {len(sets)}"],
            [f"sets within 100x, model ({a.per_state} us a state)", f"{model} of {len(sets)}"],
        ],
    )
    for line in over:
        print(f"  over 100x: {line}")


if __name__ == "__main__":
    main()
