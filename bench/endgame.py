"""The dead-end verdict after each move, on random legal play with the stock.

Every player's move is answered with "no more moves" or not (``endgame.no_move_matters``);
on the socket that answer is computed on the event loop, so its slowest moves, not its
mean, are what every other player of the process waits for.  Here each game is played by
picking uniformly among all its legal moves, the stock's included (a person turns the
stock about as often as that; a client that prefers the table's moves never meets the
searches the stock brings), a new deal after ``--restart-after`` moves, and the verdict is
timed after every move:

* ``exact``: ``no_move_matters`` as the HTTP answers give it (all it needs, in the thread);
* ``loop``: ``dead_end_within`` with the socket's bound, what the event loop spends; a
  verdict it cannot give in time is ``settle``-d as a worker would (timed apart, as
  ``settled``), and what that found is left on the table as the server does;
* ``finish``: ``can_finish``, the answer's other endgame question (is "finish" offered).

The baseline, measured in the same run, is FreeCell's whole answer after a move
(``seen.state``: the table, the legal moves, the finish and the verdict): the ratios say how
far the verdict alone is from "as cheap as a FreeCell move".  On a checkout without a
bounded verdict only ``exact`` is measured.

    .venv/bin/python bench/endgame.py [--moves 6000] [--bound-ms 0.5]

Last run (2026-12-01, 5,000 moves a game, CPU time of this process, the machine shared):
before is the checkout without a bounded verdict (be8812d), after is this one.

    game          before exact p50/p99/max us   after loop p50/p99/max us   deferred
    klondike           31 / 11,098 / 38,660           26 / 532 / 626            3.8%
    whitehorse         50 /  3,122 / 37,437           37 / 536 / 855            7.0%
    bakers-dozen       41 /  4,262 / 12,481           34 / 537 / 1,492          5.9%
    freecell           10 /     44 /    173            9 /  21 /  51            0

(FreeCell's whole answer, the baseline: p50 33-49 us, p99 86-213 us.)  The exact verdict
itself, as HTTP gives it, went from a mean of 334 to 171 us in Klondike (235 to 162 in
Whitehorse) with the search's new move order and shortened paths.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import endgame, new_game, seen  # noqa: E402

# CPU time of this process: the machine's other work (2 cores shared) stays out of the tails.
clock = time.process_time

GAMES = ["klondike", "klondike-draw3", "whitehorse", "freecell", "bakers-dozen"]


def quantiles(times: list[float]) -> dict[str, float]:
    """p50, p99, max and mean in microseconds, and the slowest 1%'s share of the total."""
    if not times:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0, "mean": 0.0, "top": 0.0}
    t = sorted(times)
    total = sum(t) or 1.0
    at = lambda q: t[min(len(t) - 1, int(q * len(t)))] * 1e6  # noqa: E731
    return {
        "p50": at(0.5),
        "p99": at(0.99),
        "max": t[-1] * 1e6,
        "mean": total / len(t) * 1e6,
        "top": sum(t[int(0.99 * len(t)) :]) / total,
    }


def play(
    key: str, moves: int, restart_after: int, bound: float | None, seed: int
) -> dict[str, list[float]]:
    """One random game after another; per move: the exact verdict's time, the bounded
    one's, the settling's (deferred moves only) and the whole answer's."""
    rng = random.Random(seed)
    bounded = hasattr(endgame, "dead_end_within") and bound is not None
    out: dict[str, list[float]] = {"exact": [], "loop": [], "settled": [], "finish": []}
    deal = seed * 1000
    exact = loop = None
    while len(out["exact"]) < moves:
        if exact is None or exact.won or exact.moves >= restart_after:
            deal += 1
            exact, loop = new_game(key, deal), new_game(key, deal)
        legal = list(exact.legal_moves())
        if not legal:
            exact = None
            continue
        move = rng.choice(legal)
        exact.apply(move)
        t0 = clock()
        want = endgame.no_move_matters(exact)
        out["exact"].append(clock() - t0)
        t0 = clock()
        endgame.can_finish(exact)
        out["finish"].append(clock() - t0)
        if bounded:
            assert loop is not None
            loop.apply(move)
            t0 = clock()
            got = endgame.dead_end_within(loop, None, bound)
            out["loop"].append(clock() - t0)
            if got is None:
                copy = loop.copy()
                copy.history, copy.dead_end_memo = [], None
                t0 = clock()
                got, kept = endgame.settle(copy)
                out["settled"].append(clock() - t0)
                endgame.remember(loop, kept)
            if got != want:
                raise SystemExit(f"{key} deal {deal}: bounded verdict {got}, exact {want}")
    return out


def answer_times(key: str, moves: int, restart_after: int, seed: int) -> list[float]:
    """``seen.state`` after each move (the baseline's measure)."""
    rng = random.Random(seed)
    out: list[float] = []
    deal, g = seed * 1000, None
    while len(out) < moves:
        if g is None or g.won or g.moves >= restart_after:
            deal += 1
            g = new_game(key, deal)
        legal = list(g.legal_moves())
        if not legal:
            g = None
            continue
        g.apply(rng.choice(legal))
        t0 = clock()
        seen.state(g)
        out.append(clock() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=6000, help="timed moves per game")
    ap.add_argument("--restart-after", type=int, default=150)
    ap.add_argument(
        "--bound-ms",
        type=float,
        default=0.5,
        help="the event loop's share per verdict (the server's DEAD_END_LOOP_MS)",
    )
    ap.add_argument("--games", nargs="*", default=GAMES)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    base = quantiles(answer_times("freecell", args.moves, args.restart_after, args.seed))
    print(
        f"baseline: FreeCell's whole answer after a move, p50 {base['p50']:.0f} us, "
        f"p99 {base['p99']:.0f} us, max {base['max']:.0f} us\n"
    )
    head = (
        f"{'game':<15} {'verdict':<8} {'p50 us':>7} {'p99 us':>8} {'max us':>9} "
        f"{'mean us':>8} {'top1%':>6} {'p99/base':>9} {'max/base':>9} {'deferred':>9}"
    )
    print(head)
    print("-" * len(head))
    for key in args.games:
        print(f"  measuring {key}...", end="\r", file=sys.stderr, flush=True)
        times = play(key, args.moves, args.restart_after, args.bound_ms / 1000, args.seed)
        for kind in ("exact", "loop", "settled", "finish"):
            if not times[kind]:
                continue
            q = quantiles(times[kind])
            share = f"{len(times['settled']) / len(times['loop']):>9.2%}" if kind == "loop" else ""
            print(
                f"{key:<15} {kind:<8} {q['p50']:>7.0f} {q['p99']:>8.0f} {q['max']:>9.0f} "
                f"{q['mean']:>8.0f} {q['top']:>6.0%} {q['p99'] / base['p99']:>9.2f} "
                f"{q['max'] / base['max']:>9.2f} {share}"
            )
    print(
        "\nexact: all the verdict needs (HTTP); loop: what the socket's event loop spends on "
        "it; settled: the deferred verdicts, in a worker (deferred: their share of moves); "
        "finish: whether finish is offered (can_finish), the answer's other endgame part"
    )


if __name__ == "__main__":
    main()
