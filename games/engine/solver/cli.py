"""``python -m games.engine solve GAME SEED [--budget S]`` and its range form (docs/api.md,
Command line).

One deal: the first line is one word -- ``solved``, ``unsolvable`` or ``unknown`` -- and
after ``solved`` the moves follow, white-space separated, and nothing else.

A range (``solve GAME --range A B``) solves every deal from A to B, replays every
solution through the engine, draws a progress bar on stderr and prints a summary.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from multiprocessing import get_context

from ..catalogue import GAMES, new_game
from ..record import ReplayError, replay
from .api import solve
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget

_PER_LINE = 16  # moves per output line: easy to read, still plain white space


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Solve a deal: the first line says solved, unsolvable or unknown; "
        "after 'solved' the moves follow."
    )
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("seed", type=int, nargs="?", help="the deal (omit with --range)")
    p.add_argument("--budget", type=float, default=10.0, help="seconds per deal (default 10)")
    p.add_argument("--states", type=int, default=3_000_000, help="states per deal at most")
    p.add_argument(
        "--range",
        nargs=2,
        type=int,
        metavar=("A", "B"),
        help="solve deals A..B (inclusive) and print a summary",
    )
    p.add_argument("--jobs", type=int, default=1, help="processes for --range (default 1)")
    p.add_argument(
        "--cpu",
        action="store_true",
        help="count the budget in CPU seconds of the solving process, not wall "
        "time (fairer on a busy machine)",
    )
    p.add_argument("--list", action="store_true", help="with --range: also print one line per deal")


def run(args: argparse.Namespace) -> int:
    if args.range:
        return _run_range(args)
    if args.seed is None:
        print("error: give a SEED, or --range A B", file=sys.stderr)
        return 2
    try:
        game = new_game(args.game, args.seed)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    r = solve(game, Budget(args.budget, args.states))
    print(r.status)
    if r.status == SOLVED:
        for i in range(0, len(r.moves), _PER_LINE):
            print(" ".join(r.moves[i : i + _PER_LINE]))
    return 0


# One deal's result: seed, status, seconds, moves, states, replays as a win.
Result = tuple[int, str, float, int, int, bool]


def solve_one(job: tuple[str, int, float, int, bool]) -> Result:
    """(seed, status, seconds, moves, states, replays as a win) for one deal."""
    key, seed, seconds, states, cpu_clock = job
    t0 = time.process_time()
    budget = Budget(seconds, states)
    if cpu_clock:
        budget.clock = time.process_time
    r = solve(new_game(key, seed), budget)
    cpu = time.process_time() - t0
    ok = True
    if r.status == SOLVED:
        try:
            ok = replay(key, seed, r.moves).won
        except ReplayError:
            ok = False
    return seed, r.status, cpu, len(r.moves), r.states, ok


def _results(args: argparse.Namespace, seeds: list[int]) -> Iterator[Result]:
    jobs = [(args.game, s, args.budget, args.states, args.cpu) for s in seeds]
    if args.jobs <= 1:
        yield from map(solve_one, jobs)
        return
    with get_context("fork").Pool(args.jobs) as pool:
        yield from pool.imap_unordered(solve_one, jobs, chunksize=4)


def _bar(done: int, total: int, counts: dict[str, int], t0: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = (time.monotonic() - t0) / max(done, 1)
    eta = rate * (total - done)
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
        f"solved {counts[SOLVED]} unsolvable {counts[UNSOLVABLE]} unknown {counts[UNKNOWN]} "
        f"eta {eta:.0f}s "
    )
    sys.stderr.flush()


def _run_range(args: argparse.Namespace) -> int:
    a, b = args.range
    seeds = list(range(a, b + 1))
    counts = {SOLVED: 0, UNSOLVABLE: 0, UNKNOWN: 0}
    times: list[float] = []
    lengths: list[int] = []
    bad: list[int] = []
    lists: dict[str, list[int]] = {UNSOLVABLE: [], UNKNOWN: []}
    t0 = drawn = time.monotonic()
    for i, (seed, status, cpu, nmoves, states, ok) in enumerate(_results(args, seeds), 1):
        counts[status] += 1
        times.append(cpu)
        if status == SOLVED:
            lengths.append(nmoves)
            if not ok:
                bad.append(seed)
        else:
            lists[status].append(seed)
        if args.list:
            print(f"{seed} {status} {cpu:.3f}s {nmoves} moves {states} states", flush=True)
        if time.monotonic() - drawn > 0.2 or i == len(seeds):
            _bar(i, len(seeds), counts, t0)
            drawn = time.monotonic()
    sys.stderr.write("\n")
    n = len(seeds)
    clock = "CPU" if args.cpu else "wall-clock"
    print(f"game {args.game}  deals {a}..{b} ({n})  budget {args.budget:g}s ({clock}) per deal")
    for status in (SOLVED, UNSOLVABLE, UNKNOWN):
        print(f"{status:<11} {counts[status]:>6}  {100 * counts[status] / n:6.2f}%")
    if times:
        print(
            f"cpu time    total {sum(times):.1f}s  median {statistics.median(times) * 1000:.1f} ms"
            f"  worst {max(times):.2f}s"
        )
    print(f"wall time   {time.monotonic() - t0:.1f}s with {args.jobs} process(es)")
    if lengths:
        print(f"moves       median {statistics.median(lengths):.0f}  worst {max(lengths)}")
    for status in (UNSOLVABLE, UNKNOWN):
        if lists[status]:
            shown = " ".join(map(str, sorted(lists[status])[:50]))
            more = " ..." if len(lists[status]) > 50 else ""
            print(f"{status}: {shown}{more}")
    print(f"solutions that failed to replay as a win: {len(bad)} {' '.join(map(str, bad[:20]))}")
    return 1 if bad else 0
