"""Engine speed, one table per game.

Columns: random playout steps per second (generate the legal moves, pick one, apply),
apply+undo pairs per second, the time to replay and validate a recorded 150-move game
from its tokens (parse, check, apply each), and the mean time of the answer the server
sends after each move of that game (``seen.state``: the table, the legal moves, whether
"finish" wins, whether any move still matters).  The baseline row, measured in the same run, is
the cost of Python's own ``random.choice`` over a list of the same size, so the ratios stay
meaningful on a busy machine.

Run: ``.venv/bin/python bench/engine.py [--seconds 1.0]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GAMES, Game, new_game, replay, seen  # noqa: E402
from games.engine.piles import STOCK  # noqa: E402


def playout_rate(key: str, seconds: float) -> float:
    rng = random.Random(1)
    steps, seed, start = 0, 1, time.perf_counter()
    g = new_game(key, seed)
    while time.perf_counter() - start < seconds:
        moves = list(g.legal_moves())
        if not moves or g.moves >= 300:
            seed += 1
            g = new_game(key, seed)
            continue
        g.apply(rng.choice(moves))
        steps += 1
    return steps / (time.perf_counter() - start)


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
    pairs, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for g, ms in positions:
            for m in ms:
                g.apply(m)
                g.undo()
            pairs += len(ms)
    return pairs / (time.perf_counter() - start)


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
    runs, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        replay(key, seed, tokens)
        runs += 1
    return (time.perf_counter() - start) / runs * 1000


def state_us(key: str, seconds: float) -> float:
    """Mean ``state()`` time after each move of the recorded game, played move by move as
    a session is (so what the table keeps between moves is used as on the server)."""
    seed, tokens = recorded_game(key)
    calls, spent, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = new_game(key, seed)
        for token in tokens:
            g.play(token)
            t0 = time.perf_counter()
            seen.state(g)
            spent += time.perf_counter() - t0
            calls += 1
    return spent / calls * 1e6


def baseline_rate(seconds: float) -> float:
    rng = random.Random(1)
    items = list(range(20))
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng.choice(list(items))
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    base = baseline_rate(args.seconds)
    print(f"baseline: random.choice over a 20-item list copy = {base:,.0f}/s\n")
    header = (f"{'game':<18} {'playout steps/s':>16} {'x base':>7} {'apply+undo/s':>13} "
              f"{'x base':>7} {'replay 150 (ms)':>16} {'state (us)':>11}")
    print(header)
    print("-" * len(header))
    for key in args.games:
        print(f"  measuring {key}...", end="\r", file=sys.stderr, flush=True)
        p = playout_rate(key, args.seconds)
        a = apply_undo_rate(key, args.seconds)
        r = replay_ms(key, args.seconds)
        st = state_us(key, args.seconds)
        print(f"{key:<18} {p:>16,.0f} {p / base:>7.3f} {a:>13,.0f} {a / base:>7.3f} {r:>16.3f}"
              f" {st:>11.0f}")
    print("\ntargets (FreeCell): playout >= 20,000/s; apply+undo >= 200,000/s; replay < 2 ms")


if __name__ == "__main__":
    main()
