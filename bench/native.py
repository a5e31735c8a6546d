"""The FreeCell search compiled (scripts/native.py) against the same source interpreted,
and fc-solve beside both, on the same Microsoft deals in the same run.

    python bench/native.py --deals 40001 40100 --rounds 2
    python bench/native.py --deals 11982 11982

Each variant runs in a child process of its own (the compiled one from a copy of the
project under build/native-bench), the two alternated ``--rounds`` times; times are each
child's CPU seconds.  The two must search the same number of states on every deal: the
compiled module is the same code, and a difference fails the run.

2026-12-03, the race of two searches (games/engine/solver/race.py) with the collector
paused, two rounds each, sets 130001-180100 never looked at before this day's change (the
slowest deal is the compiled run's):

    deals           interpreted CPU s (x fc-solve)   compiled CPU s (x fc-solve)   slowest deal
    130001-130100   1.75-1.91 (73-79x)               1.12-1.14 (46-48x)            130048: 0.35 s
    140001-140100   2.20-2.37 (95-96x)               1.24-1.33 (54x)               140081: 0.31 s
    150001-150100   2.70-2.72 (114-118x)             1.51-1.66 (63-72x)            150019: 0.18 s
    160001-160100   1.28-1.39 (48-67x)               0.80-0.82 (31-39x)            160044: 0.05 s
    170001-170100   2.04-2.09 (95-97x)               1.01-1.25 (46-59x)            170051: 0.16 s
    180001-180100   0.87-0.90 (53-56x)               0.52-0.53 (32-33x)            180001: 0.06 s
    110001-110100   3.14-3.65 (123-197x)             1.71-1.99 (67-108x)           110010: 0.58 s
    40001-40100     3.23-3.35 (96-97x)               1.46 (43x)                    40031: 0.54 s
    11982 (proof)   1.89-2.11 (4-5x)                 1.14-1.52 (3-4x)              fc-solve 0.36-0.55 s

fc-solve took 0.016-0.034 s a set.  Before the race (eight best-first runs one after
another), the same day: 110001-110100 149-167x compiled (110080: 2.5 s, 227,474 states),
40001-40100 87-124x.  The ratio of a set follows its slowest deal and fc-solve's own time
on it, which is 15-35 ms: 110001-110100 went over 100x in one round of two.

Later on 2026-12-03, three more sets never looked at, and 11982 again:

    deals           interpreted CPU s (x fc-solve)   compiled CPU s (x fc-solve)   slowest deal
    190001-190100   1.06-1.26 (40-48x)               0.79-0.89 (30-33x)            190026: 0.12 s
    200001-200100   1.22-1.38 (35-53x)               0.78-0.80 (20-35x)            200051: 0.11 s
    210001-210100   2.07-2.22 (71-110x)              1.20-1.25 (41-62x)            210071: 0.24 s
    11982 (proof)   2.19-2.24 (6x)                   1.41-1.56 (4x)                fc-solve 0.37-0.39 s

The interpreted search is within 100x on seven of the nine fresh sets (not on 150001, nor
in one round of two on 210001), and proves 11982 in 1.9-2.2 s; the compiled one is within
100x on all nine, and proves it in 1.1-1.6 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))
import native as builder  # noqa: E402  (scripts/native.py: the compiled copy)
from solver import fc_solve_range, table  # noqa: E402

CHILD = r"""
import json, sys, time
from games.engine import new_game
from games.engine.solver import Budget, solve
from games.engine.solver.native import running_compiled
out = {"compiled": running_compiled(), "deals": {}}
for d in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
    t0 = time.process_time()
    r = solve(new_game("freecell", d), Budget(float(sys.argv[3]), clock=time.process_time))
    out["deals"][d] = [r.status, r.states, time.process_time() - t0]
print(json.dumps(out))
"""


def run(where: Path, a: int, b: int, budget: float) -> dict:
    r = subprocess.run(
        [sys.executable, "-c", CHILD, str(a), str(b), str(budget)],
        cwd=where,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(r.stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", nargs=2, type=int, default=[40001, 40100], metavar=("A", "B"))
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--budget", type=float, default=60.0, help="CPU seconds a deal")
    a = p.parse_args()
    print("native: compiling a copy under build/native-bench ...", flush=True)
    copy = builder.compiled_copy(ROOT / "build" / "native-bench")
    lo, hi = a.deals
    rows = []
    first: dict[str, dict] = {}
    for k in range(a.rounds):
        for name, where in (("interpreted", ROOT), ("compiled", copy)):
            print(f"round {k + 1}: {name} ...", flush=True)
            res = run(where, lo, hi, a.budget)
            want = [] if name == "interpreted" else list(builder.MODULES)
            if res["compiled"] != want:
                raise SystemExit(f"{name}: compiled modules {res['compiled']}, expected {want}")
            deals = res["deals"]
            states = {d: v[1] for d, v in deals.items()}
            if "states" in first and states != first["states"]:
                diff = [d for d in states if states[d] != first["states"][d]][:5]
                raise SystemExit(f"{name}: other states than the first run on deals {diff}")
            first["states"] = states
            cpu = sum(v[2] for v in deals.values())
            slow = max(deals.items(), key=lambda kv: kv[1][2])
            solved = sum(v[0] == "solved" for v in deals.values())
            rows.append(
                [
                    f"{name} (round {k + 1})",
                    f"{solved}/{len(deals)}",
                    f"{cpu:.2f}",
                    f"{slow[0]}: {slow[1][2]:.2f} s",
                    cpu,
                ]
            )
        fc = fc_solve_range(lo, hi)
        if fc:
            rows.append(
                [
                    f"fc-solve -l lg (round {k + 1})",
                    f"{fc['solved']}/{fc['n']}",
                    f"{fc['cpu']:.3f}",
                    "-",
                    None,
                ]
            )
            for r in rows[-3:-1]:
                r.append(f"{r[4] / fc['cpu']:.0f}x")
        else:
            for r in rows[-2:]:
                r.append("-")
    table(
        f"FreeCell, Microsoft deals {lo}-{hi}, CPU s of one process",
        ["solver", "solved", "CPU s", "slowest deal", "vs fc-solve"],
        [[r[0], r[1], r[2], r[3], r[5] if len(r) > 5 else ""] for r in rows],
    )
    interp = [r[4] for r in rows if r[0].startswith("interpreted")]
    comp = [r[4] for r in rows if r[0].startswith("compiled")]
    print(
        f"\ncompiled / interpreted CPU: {sum(comp) / sum(interp):.2f} "
        f"(states equal on every deal in every run)"
    )


if __name__ == "__main__":
    main()
