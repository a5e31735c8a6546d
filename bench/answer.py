"""The engine's share of a socket move's answer, per game, against FreeCell's in the same run.

After each move the socket answers with ``seen.state`` given the event loop's bound for the
dead-end verdict (``DEAD_END_LOOP_MS``, 0.5 ms): the table, the legal moves with their
``best`` marks, the finish and the verdict.  Here every game is played with random legal
moves, the stock as likely as any other (as a person turns it), and each answer's CPU time
is measured; a verdict the bound could not give is settled apart, as the worker does, and
left on the table (what the server does), untimed.

    .venv/bin/python bench/answer.py [--deals 30] [--moves 150]

Last runs (2026-12-01, 30 deals of 150 moves a game, the machine shared at a load average of
8-15): before is the checkout before a tap's best move was ranked only for a card with a
choice and before a table remembered its positions' verdicts (d83559a), after is this one.

    game          mean us before   mean us after   p99 us before   p99 us after
    klondike          122-135          86-109          657-694        568-577
    whitehorse        154-175         109-119          717-775        588-617
    freecell           36-39           33-44           142-168        103-175
    bakers-dozen      235-244         229-243          728-762        691-770
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import endgame, new_game, seen  # noqa: E402

GAMES = ["freecell", "klondike", "klondike-draw3", "whitehorse", "bakers-dozen"]


def answers(game: str, deals: int, moves: int, bound: float) -> list[int]:
    """Nanoseconds of CPU per answer along random play."""
    rng = random.Random(5)
    out: list[int] = []
    for deal in range(deals):
        g = new_game(game, deal + 1 if game == "freecell" else rng.getrandbits(63))
        for _ in range(moves):
            t0 = time.process_time_ns()
            st = seen.state(g, bound)
            out.append(time.process_time_ns() - t0)
            if st["no_legal_move"] is None:  # settled in a worker, and remembered
                copy = g.copy()
                copy.history, copy.dead_end_memo = [], None
                endgame.remember(g, endgame.settle(copy)[1])
            elif st["no_legal_move"]:
                break
            legal = list(g.legal_moves())
            if not legal or g.won:
                break
            g.apply(rng.choice(legal))
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--bound-ms", type=float, default=0.5)
    args = ap.parse_args()
    for game in GAMES:  # the first answer imports what the tap's ranking needs: once a process
        seen.state(new_game(game, 1))
    rows = {g: answers(g, args.deals, args.moves, args.bound_ms / 1000) for g in GAMES}
    base = sum(rows["freecell"]) / len(rows["freecell"])
    print(
        f"{'game':15} {'answers':>8} {'mean us':>8} {'p50 us':>7} {'p99 us':>7} "
        f"{'max us':>8} {'mean / FreeCell':>16}"
    )
    for game, ts in rows.items():
        mean = sum(ts) / len(ts)
        print(
            f"{game:15} {len(ts):8d} {mean / 1000:8.0f} {ts[len(ts) // 2] / 1000:7.0f} "
            f"{ts[int(len(ts) * 0.99)] / 1000:7.0f} {ts[-1] / 1000:8.0f} {mean / base:16.1f}x"
        )


if __name__ == "__main__":
    main()
