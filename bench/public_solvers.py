"""The public solvers bench/solver.py measures against, run as they come: fc-solve
(freecell-solver-bin) on FreeCell deals and kpat's own solver on Klondike's."""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


KPAT = shutil.which("kpat") or ("/usr/games/kpat" if os.path.exists("/usr/games/kpat") else None)


KPAT_DEALERS = {"klondike": 0, "klondike-draw3": 13}  # kpat's ids: draw 1, draw 3


def fc_solve_range(a: int, b: int) -> dict | None:
    exe = shutil.which("freecell-solver-range-parallel-solve")
    if not exe:
        return None
    c0, w0 = children_cpu(), time.monotonic()
    out = subprocess.run(
        [exe, str(a), str(b), "1", "-l", "lg"], capture_output=True, text=True, check=False
    ).stdout
    cpu, wall = children_cpu() - c0, time.monotonic() - w0
    # It names only the boards it did not solve.
    unsolved = len(re.findall(r"^Unsolved Board No\.", out, re.M))
    intract = len(re.findall(r"^Intractable Board No\.", out, re.M))
    n = b - a + 1
    return {
        "cpu": cpu,
        "wall": wall,
        "solved": n - unsolved - intract,
        "unsolvable": unsolved,
        "unknown": intract,
        "n": n,
    }


def fc_solve_one(deal: int) -> tuple[str, float]:
    board = subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(deal)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    c0 = children_cpu()
    out = subprocess.run(
        ["fc-solve", "-l", "lg"], input=board, capture_output=True, text=True, check=False
    ).stdout
    verdict = (
        "solved"
        if "This game is solveable" in out
        else ("unsolvable" if "I could not solve" in out else "unknown")
    )
    return verdict, children_cpu() - c0


def kpat_range(dealer: int, a: int, b: int) -> dict | None:
    if not KPAT:
        return None
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    c0, w0 = children_cpu(), time.monotonic()
    out = subprocess.run(
        [KPAT, "--solve", str(dealer), "--start", str(a), "--end", str(b)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    ).stdout
    cpu, wall = children_cpu() - c0, time.monotonic() - w0
    rows = re.findall(r"^(\d+) (won|lost|unknown) \((\d+) ms\)", out, re.M)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    ms = []
    for _, verdict, t in rows:
        counts[verdict] += 1
        ms.append(int(t))
    # Its own per-deal times, which leave out starting the application.
    return {
        "counts": counts,
        "ms": ms,
        "cpu": sum(ms) / 1000,
        "process_cpu": cpu,
        "wall": wall,
        "n": len(rows),
    }
