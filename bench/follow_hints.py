"""Following the hint alone: how many certified deals a player wins by playing every hinted
move from the deal, with no undo, for Klondike draw one, draw three and Whitehorse.

A certified deal is one the solver proved winnable knowing every card (a search of
``--certify`` seconds from the deal).  Three players play the same deals in the same run:

* ``hint``: the engine's hint now (``games.engine.solver.hint``), each with a budget of
  ``--seconds`` (counted on the process's CPU clock, so a busy machine does not cut it);
* ``hint before``: the same, with the engine of the ``--before`` commit (taken from git
  into a temporary directory and run in a process of its own);
* ``greedy``: a simple player: a card up if one can go, else a move that turns a face-down
  card, else the waste's card onto the table, else the stock, never into a position it
  has been in.

A game ends when it is won, when the player has no move, or after ``--max-moves`` moves.
Each line: deals won, the mean cards up, how many moves came back to a position already
played (a loop), and the time of a hint.

    .venv/bin/python bench/follow_hints.py --deals 30 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("klondike", "klondike-draw3", "whitehorse")
BEFORE = "69b9c09"  # the hint before Monte-Carlo sampling with hindsight and the path rule


def certified(game: str, count: int, first: int, seconds: float) -> list[int]:
    from games.engine import new_game
    from games.engine.solver import Budget, solve

    seeds: list[int] = []
    seed = first
    while len(seeds) < count:
        r = solve(new_game(game, seed), Budget(seconds, clock=time.process_time))
        if r.status == "solved":
            seeds.append(seed)
        seed += 1
    return seeds


def _key(g: Any) -> bytes:
    from games.engine.positions import packed

    return packed(g)


def greedy_move(g: Any, been: set[bytes]) -> str | None:
    """A card up, else a move that turns a face-down card, else the waste's card onto the
    table, else the stock; never into a position it has been in (None: no such move)."""
    from games.engine.piles import FOUNDATION, STOCK, WASTE

    fresh = []
    for m in g.legal_moves():
        g.apply(m)
        new = _key(g) not in been
        turns = g.history[-1][2] == 1
        g.undo()
        if new:
            fresh.append((m, turns))
    for want in (
        lambda m, t: FOUNDATION <= m[1] < STOCK and not FOUNDATION <= m[0] < STOCK,
        lambda m, t: t,
        lambda m, t: m[0] == WASTE and m[1] != STOCK,
        lambda m, t: STOCK in (m[0], m[1]),
    ):
        for m, t in fresh:
            if want(m, t):
                return str(g.notation(m))
    return None


def play(game: str, seed: int, player: str, seconds: float, max_moves: int) -> dict[str, Any]:
    """One deal followed to its end by ``player``."""
    from games.engine import new_game
    from games.engine.solver import Budget, hint

    g = new_game(game, seed)
    been = {_key(g)}
    loops = 0
    times: list[float] = []
    line: list[str] = []
    while not g.won and g.moves < max_moves:
        if player == "greedy":
            move = greedy_move(g, been)
        else:
            t0 = time.process_time()
            budget = Budget(seconds, clock=time.process_time)
            try:
                h = hint(g, budget, [line]) if line else hint(g, budget)
            except TypeError:  # the engine before took no lines
                h = hint(g, budget)
            times.append(time.process_time() - t0)
            move = h.move
            line = list(getattr(h, "line", []) or [])[1:]
        if move is None:
            break
        g.play(move)
        k = _key(g)
        loops += k in been
        been.add(k)
    return {"won": g.won, "up": g.cards_up, "moves": g.moves, "loops": loops, "times": times}


def run_worker(args: argparse.Namespace) -> None:
    """One player over some deals, in this process: one JSON line per deal."""
    for seed in args.seeds:
        out = play(args.game, seed, args.player, args.seconds, args.max_moves)
        print(json.dumps({"seed": seed, **out}), flush=True)


def worker(
    tree: Path, game: str, player: str, seeds: list[int], a: argparse.Namespace
) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [
        sys.executable,
        str(ROOT / "bench" / "follow_hints.py"),
        "--worker",
        "--game",
        game,
        "--player",
        player,
        "--seconds",
        str(a.seconds),
        "--max-moves",
        str(a.max_moves),
        "--seeds",
        *map(str, seeds),
    ]
    done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20, help="certified deals per game")
    ap.add_argument("--first", type=int, default=1, help="the first seed tried")
    ap.add_argument("--seconds", type=float, default=1.0, help="budget of a hint")
    ap.add_argument("--certify", type=float, default=10.0)
    ap.add_argument("--max-moves", type=int, default=500)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--players", default="hint,hint before,greedy")
    ap.add_argument("--before", default=BEFORE, help="the commit whose hint is compared")
    ap.add_argument("--jobs", type=int, default=1, help="processes at once")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--game", help=argparse.SUPPRESS)
    ap.add_argument("--player", help=argparse.SUPPRESS)
    ap.add_argument("--seeds", type=int, nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        sys.path.insert(0, os.getcwd())
        run_worker(a)
        return
    sys.path.insert(0, str(ROOT))
    players = [p.strip() for p in a.players.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp)
        if "hint before" in players:
            archive = subprocess.run(
                ["git", "archive", a.before, "games/engine"],
                cwd=ROOT,
                capture_output=True,
                check=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            (before / "games" / "__init__.py").touch()
        rows = []
        for game in a.games.split(","):
            print(
                f"certifying {a.deals} {game} deals ({a.certify:.0f} s each at most)...",
                file=sys.stderr,
                flush=True,
            )
            seeds = certified(game, a.deals, a.first, a.certify)
            jobs = []
            with ProcessPoolExecutor(a.jobs) as pool:
                for player in players:
                    tree = before if player == "hint before" else ROOT
                    name = "hint" if player == "hint before" else player
                    parts = [seeds[i :: a.jobs] for i in range(a.jobs)]
                    jobs.append(
                        (
                            player,
                            [
                                pool.submit(worker, tree, game, name, part, a)
                                for part in parts
                                if part
                            ],
                        )
                    )
                for player, futures in jobs:
                    results = [r for f in futures for r in f.result()]
                    rows.append((game, player, seeds, results))
                    print(
                        f"  {game} {player}: {sum(r['won'] for r in results)}/{len(results)} won",
                        file=sys.stderr,
                        flush=True,
                    )
    print(
        f"\nfollowing the hint alone, no undo; certified deals (solver {a.certify:.0f} s, "
        f"every card known), seeds from {a.first}; a hint's budget {a.seconds:g} s of CPU;"
        f" at most {a.max_moves} moves; load {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'game':16} {'player':12} {'deals':>5} {'won':>4} {'won %':>6} {'cards up':>8}"
        f" {'moves':>6} {'loops':>6} {'hint p50':>9} {'p95 ms':>7}"
    )
    for game, player, _seeds, results in rows:
        n = len(results)
        won = sum(r["won"] for r in results)
        times = [t for r in results for t in r["times"]]
        print(
            f"{game:16} {player:12} {n:5} {won:4} {100 * won / max(n, 1):5.0f}%"
            f" {sum(r['up'] for r in results) / max(n, 1):8.1f}"
            f" {sum(r['moves'] for r in results) / max(n, 1):6.0f}"
            f" {sum(r['loops'] for r in results):6}"
            f" {percentile(times, 0.5):9.0f} {percentile(times, 0.95):7.0f}"
        )


if __name__ == "__main__":
    main()
