"""Engine speed, one table per game.

Columns: random playout steps per second (generate the legal moves, pick one, apply),
apply+undo pairs per second, the time to replay and validate a recorded 150-move game
from its tokens (parse, check, apply each), and the mean time of the answer the server
sends after each move of that game (``seen.state``: the table, the legal moves, whether
"finish" wins, whether any move still matters).  The baseline row, measured in the same run, is
the cost of Python's own ``random.choice`` over a list of the same size, so the ratios stay
meaningful on a busy machine.

Run: ``.venv/bin/python bench/engine.py [--seconds 1.0]``

Before and after a change, in the same run: ``--against DIR`` measures the engine of the
tree at DIR (a git worktree of the older revision, e.g. ``git worktree add /tmp/before
main``) and this tree's, game by game in turns (``--rounds`` each, every measurement in a
fresh process), and prints the best of each and their ratios, with the load average before and
after.  Both sides play the same games when their engines list the moves in the same order.
Each figure is the best of its rounds: on a shared machine the other processes only ever
slow a measurement down, and the best is the one they disturbed least.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# --engine DIR: the engine measured is DIR's (an older revision's tree), not this one's.
_ENGINE = sys.argv[sys.argv.index("--engine") + 1] if "--engine" in sys.argv else str(ROOT)
sys.path.insert(0, _ENGINE)
# --cpu: this process's CPU time rather than the wall clock (--against uses it: on a shared
# machine the other processes' load moves wall times more than the change measured does).
clock = time.process_time if "--cpu" in sys.argv else time.perf_counter

from games.engine import GAMES, Game, new_game, replay, seen  # noqa: E402
from games.engine.piles import STOCK  # noqa: E402


def playout_rate(key: str, seconds: float) -> float:
    rng = random.Random(1)
    steps, seed, start = 0, 1, clock()
    g = new_game(key, seed)
    while clock() - start < seconds:
        moves = list(g.legal_moves())
        if not moves or g.moves >= 300:
            seed += 1
            g = new_game(key, seed)
            continue
        g.apply(rng.choice(moves))
        steps += 1
    return steps / (clock() - start)


def _positions(key: str, count: int) -> list[tuple[Game, list]]:
    rng = random.Random(2)
    out = []
    seed = 1
    while len(out) < count:
        g = new_game(key, seed)
        for _ in range(rng.randrange(0, 40)):
            ms = list(g.legal_moves())
            if not ms:
                break
            g.apply(rng.choice(ms))
        ms = list(g.legal_moves())
        if ms:
            out.append((g, ms))
        seed += 1
    return out


def apply_undo_rate(key: str, seconds: float) -> float:
    positions = _positions(key, 50)
    pairs, start = 0, clock()
    while clock() - start < seconds:
        for g, ms in positions:
            for m in ms:
                g.apply(m)
                g.undo()
            pairs += len(ms)
    return pairs / (clock() - start)


def recorded_game(key: str, length: int = 150) -> tuple[int, list[str]]:
    """A 150-move game from random play that avoids the stock where it can."""
    rng = random.Random(3)
    for seed in range(1, 10_000):
        g = new_game(key, seed)
        tokens = []
        while len(tokens) < length:
            ms = list(g.legal_moves())
            if not ms:
                break
            board = [m for m in ms if m[0] != STOCK and m[1] != STOCK]
            m = rng.choice(board if board and rng.random() < 0.7 else ms)
            tokens.append(g.notation(m))
            g.apply(m)
        if len(tokens) == length:
            return seed, tokens
    raise RuntimeError(f"no {length}-move game found for {key}")


def replay_ms(key: str, seconds: float) -> float:
    seed, tokens = recorded_game(key)
    runs, start = 0, clock()
    while clock() - start < seconds:
        replay(key, seed, tokens)
        runs += 1
    return (clock() - start) / runs * 1000


def state_us(key: str, seconds: float) -> float:
    """Mean ``state()`` time after each move of the recorded game, played move by move as
    a session is (so what the table keeps between moves is used as on the server)."""
    seed, tokens = recorded_game(key)
    calls, spent, start = 0, 0.0, clock()
    while clock() - start < seconds:
        g = new_game(key, seed)
        for token in tokens:
            g.play(token)
            t0 = clock()
            seen.state(g)
            spent += clock() - t0
            calls += 1
    return spent / calls * 1e6


def baseline_rate(seconds: float) -> float:
    rng = random.Random(1)
    items = list(range(20))
    n, start = 0, clock()
    while clock() - start < seconds:
        rng.choice(list(items))
        n += 1
    return n / (clock() - start)


METRICS = (
    ("playout steps/s", True),
    ("apply+undo/s", True),
    ("replay 150 (ms)", False),
    ("state (us)", False),
)  # (name, higher is better)


def measure(key: str, seconds: float) -> tuple[float, float, float, float]:
    return (
        playout_rate(key, seconds),
        apply_undo_rate(key, seconds),
        replay_ms(key, seconds),
        state_us(key, seconds),
    )


def compare(before: str, games: list[str], seconds: float, rounds: int) -> None:
    """This tree's engine against the one at ``before``, game by game in turns."""
    print(f"load average before: {os.getloadavg()}")
    print(
        f"before: {before}\nafter:  {ROOT}\n{rounds} rounds of {seconds} s of CPU time "
        "per figure, the best of each\n"
    )
    header = f"{'game':<18} {'figure':<16} {'before':>12} {'after':>12} {'after/before':>13}"
    print(header)
    print("-" * len(header))
    for key in games:
        runs: dict[str, list[tuple[float, ...]]] = {before: [], str(ROOT): []}
        for r in range(rounds):
            order = (before, str(ROOT)) if r % 2 == 0 else (str(ROOT), before)
            for tree in order:
                print(
                    f"  {key}: round {r + 1}/{rounds}, {'after' if tree == str(ROOT) else 'before'}"
                    "...",
                    end="\r",
                    file=sys.stderr,
                    flush=True,
                )
                out = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--engine",
                        tree,
                        "--games",
                        key,
                        "--seconds",
                        str(seconds),
                        "--json",
                        "--cpu",
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                runs[tree].append(tuple(json.loads(out)[key]))
        for m, (name, higher) in enumerate(METRICS):
            best = max if higher else min
            b = best(x[m] for x in runs[before])
            a = best(x[m] for x in runs[str(ROOT)])
            print(f"{key:<18} {name:<16} {b:>12,.3f} {a:>12,.3f} {a / b:>13.3f}", flush=True)
    print(" " * 40, end="\r", file=sys.stderr)
    print(f"\nload average after: {os.getloadavg()}")
    print(
        "ratios: above 1 is faster for the rates (playout, apply+undo), slower for the "
        "times (replay, state)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--engine", help="measure the engine of this tree instead")
    parser.add_argument(
        "--against", metavar="DIR", help="compare with the engine of the tree at DIR, in turns"
    )
    parser.add_argument("--rounds", type=int, default=10, help="turns per game with --against")
    parser.add_argument("--json", action="store_true", help="the figures as JSON, no table")
    parser.add_argument("--cpu", action="store_true", help="count CPU time, not wall time")
    args = parser.parse_args()
    if args.against:
        compare(str(Path(args.against).resolve()), args.games, args.seconds, args.rounds)
        return
    if args.json:
        print(json.dumps({key: measure(key, args.seconds) for key in args.games}))
        return
    base = baseline_rate(args.seconds)
    print(f"baseline: random.choice over a 20-item list copy = {base:,.0f}/s\n")
    header = (
        f"{'game':<18} {'playout steps/s':>16} {'x base':>7} {'apply+undo/s':>13} "
        f"{'x base':>7} {'replay 150 (ms)':>16} {'state (us)':>11}"
    )
    print(header)
    print("-" * len(header))
    for key in args.games:
        print(f"  measuring {key}...", end="\r", file=sys.stderr, flush=True)
        p, a, r, st = measure(key, args.seconds)
        print(
            f"{key:<18} {p:>16,.0f} {p / base:>7.3f} {a:>13,.0f} {a / base:>7.3f} {r:>16.3f}"
            f" {st:>11.0f}"
        )
    print("\ntargets (FreeCell): playout >= 20,000/s; apply+undo >= 200,000/s; replay < 2 ms")


if __name__ == "__main__":
    main()
