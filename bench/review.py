"""How often the fair-play review flags a win, by who plays it: paced models of people
against scripts, on real winning lines (games/fairplay/review.py, docs/rules.md "Fair play").

Each deal is a real one the solver won: its line is the certified line the review knows.
People play a line of their own (``own_line``) at a person's pace; scripts play the
certified line at machine speed, or paced like a fast person with a prefix (a move and its
undo), with undone detours, or as it is.  The review's timing signals, its line share by
position (games/fairplay/line_share.py) and its thresholds (settings.REVIEW) give the verdict.  People are modelled, not
recorded: think times drawn from a log-normal around a median, with runs of quick obvious
moves, and a first look at the table before the first move.  The figures say how far the
thresholds sit from each model; a real player's pace is its own.

    DEBUG=1 .venv/bin/python bench/review.py --games 60

A run (10 certified deals a game, REVIEW_SOLVES=3, REVIEW_SOLVE_STATES=20000, load average
about 14 on two cores from other work): every person model 0% flagged (median share by
position 0.03 FreeCell, 0.09 Baker's Dozen, 0.004 Klondike); every script 100% (share 1.0),
the prefix, the undone detours and the paced replay by the solver's line alone, where by
index the prefix and the detours scored near 0.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from games.engine import HIDDEN_CARD_GAMES, new_game  # noqa: E402
from games.engine.piles import STOCK  # noqa: E402
from games.engine.solver import SOLVED, Budget, solve, solve_deal  # noqa: E402
from games.fairplay import line_share  # noqa: E402
from games.fairplay.review import timing, verdict  # noqa: E402
from games.models import Deal, GameSession  # noqa: E402

# name: (first look seconds (low, high), median think s, spread, share of quick runs,
# quick run ms (low, high))
PEOPLE = {
    "careful person": ((4, 15), 2.0, 0.6, 0.15, (300, 500)),
    "fast person": ((1.5, 5), 0.8, 0.5, 0.35, (220, 420)),
    "very fast person": ((1.2, 3), 0.55, 0.45, 0.45, (180, 350)),
}
SCRIPTS = {"script at machine speed": (0.05, 0.005), "script, 0.2 s a move": (0.3, 0.2)}


def certified(game: str, count: int, seconds: float) -> list[tuple[int, list[str]]]:
    """(seed, the solver's winning line): the line a certified daily keeps."""
    found: list[tuple[int, list[str]]] = []
    seed = 1
    while len(found) < count and seed < count * 5:
        r = solve_deal(game, seed, Budget(seconds, 2_000_000, clock=time.process_time))
        if r.status == SOLVED:
            found.append((seed, r.moves))
        seed += 1
    return found


def own_line(rng: random.Random, game: str, seed: int, seconds: float) -> list[str] | None:
    """A person's own way through the deal, found by no solver of this site: for FreeCell
    the public solver's line (fc-solve); for the others a won game of a greedy player with
    a person's whims (``rollout``), the first of up to 300 tries."""
    if game == "freecell":
        board = subprocess.run(
            ["make-microsoft-freecell-board", "-t", str(seed)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        out = subprocess.run(
            ["fc-solve", "-m", "-snx"],
            input=board,
            capture_output=True,
            text=True,
            env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin"},
        ).stdout
        if "This game is solveable." not in out:
            return None
        body = out.split("This game is solveable.")[0]
        return [t for t in body.split() if re.fullmatch(r"[1-8a-d][1-8a-dh](v\d+)?", t)]
    for _ in range(300):
        line = rollout(rng, game, seed)
        if line is not None:
            return line
    return None


def rollout(rng: random.Random, game: str, seed: int, limit: int = 600) -> list[str] | None:
    """One game of a greedy player: a card home when it can, else a move that turns a card
    face up, else any other move to a table it has not seen yet (a whim among them), the
    stock last; None when it is stuck."""
    g = new_game(game, seed)
    seen = {line_share.key(g)}
    out: list[str] = []
    while not g.won and len(out) < limit:
        fresh = []
        for m in g.legal_moves():
            h = g.copy()
            h.push(m)
            k = line_share.key(h)
            if k not in seen:
                rank = (
                    0
                    if h.cards_up > g.cards_up
                    else 1
                    if sum(h.down) < sum(g.down)
                    else 3
                    if STOCK in m[:2]
                    else 2
                )
                fresh.append((rank, rng.random(), m, k))
        if not fresh:
            return None
        fresh.sort(key=lambda x: x[:2])
        _, _, move, k = fresh[0] if rng.random() < 0.8 else rng.choice(fresh)
        out.append(g.notation(move))
        g.push(move)
        seen.add(k)
    return out if g.won else None


def with_prefix(rng: random.Random, game: str, seed: int, line: list[str]) -> list[str]:
    """The red team's prefix: a legal move and its undo, then the certified line."""
    first = rng.choice(list(new_game(game, seed).legal_moves()))
    return [new_game(game, seed).notation(first), "u", *line]


def with_detours(rng: random.Random, game: str, seed: int, line: list[str]) -> list[str]:
    """The certified line with a random detour (1 to 3 legal moves, then as many undos)
    before about one move in six."""
    g = new_game(game, seed)
    out: list[str] = []
    for token in line:
        if rng.random() < 1 / 6:
            h, detour = g.copy(), []
            for _ in range(rng.randint(1, 3)):
                moves = list(h.legal_moves())
                if not moves:
                    break
                m = rng.choice(moves)
                detour.append(h.notation(m))
                h.push(m)
            out += [*detour, *["u"] * len(detour)]
        out.append(token)
        g.play(token)
    return out


def session_for(
    game: str, seed: int, tokens: list[str], stamps: list[int], line: list[str]
) -> GameSession:
    deal = Deal(game=game, seed=seed, line=line)
    created = dt.datetime.fromtimestamp(0, tz=dt.UTC)
    end = dt.datetime.fromtimestamp(stamps[-1] / 1000, tz=dt.UTC)
    s = GameSession(
        game=game,
        deal=deal,
        created_at=created,
        status=GameSession.WON,
        time_ms=stamps[-1],
        finished_at=end,
    )
    s.moves = [[t, at] for t, at in zip(tokens, stamps, strict=True)]
    return s


def person(rng: random.Random, n: int, model: tuple) -> list[int]:
    (lo, hi), median, spread, quick, (qlo, qhi) = model
    at = int(rng.uniform(lo, hi) * 1000)
    out = []
    for _ in range(n):
        out.append(at)
        at += (
            rng.randint(qlo, qhi)
            if rng.random() < quick
            else int(rng.lognormvariate(0, spread) * median * 1000)
        )
    return out


def script(rng: random.Random, n: int, model: tuple[float, float]) -> list[int]:
    first, gap = model
    at = int(first * 1000)
    out = []
    for _ in range(n):
        out.append(at)
        at += max(1, int(rng.gauss(gap, gap / 5) * 1000))
    return out


# who: (the moves it plays, its pace)
def players(
    rng: random.Random, game: str, seed: int, line: list[str], seconds: float
) -> dict[str, tuple[list[str] | None, list[int] | None]]:
    own = own_line(rng, game, seed, seconds)
    out: dict[str, tuple[list[str] | None, list[int] | None]] = {}
    for name, model in PEOPLE.items():
        out[name] = (own, person(rng, len(own), model) if own else None)
    fast = PEOPLE["fast person"]
    for name, model in SCRIPTS.items():
        out[name] = (line, script(rng, len(line), model))
    scripted = [
        ("prefix, then the line, paced", with_prefix(rng, game, seed, line)),
        ("undone detours, paced", with_detours(rng, game, seed, line)),
        ("the line replayed, paced", line),
    ]
    if game not in HIDDEN_CARD_GAMES:
        scripted.append(
            ("own opening, then solver, paced", opening_then_solver(rng, game, seed, seconds))
        )
    for name, tokens in scripted:
        out[name] = (tokens, person(rng, len(tokens), fast) if tokens else None)
    return out


def opening_then_solver(
    rng: random.Random, game: str, seed: int, seconds: float
) -> list[str] | None:
    """A script that opens with 3 to 8 moves of its own, then plays this site's solver's
    line from there (what a certified-line check alone cannot see)."""
    g = new_game(game, seed)
    opening: list[str] = []
    for _ in range(rng.randint(3, 8)):
        moves = list(g.legal_moves())
        if not moves:
            return None
        move = rng.choice(moves)
        opening.append(g.notation(move))
        g.push(move)
    r = solve(g, Budget(seconds * 5, 2_000_000, clock=time.process_time))
    return [*opening, *r.moves] if r.status == SOLVED else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="winning lines per game")
    ap.add_argument("--budget", type=float, default=2.0, help="solver seconds per deal")
    args = ap.parse_args()
    rng = random.Random(7)
    print(
        f"REVIEW_SOLVES={settings.REVIEW_SOLVES} REVIEW_SOLVE_STATES="
        f"{settings.REVIEW_SOLVE_STATES}; load average {os.getloadavg()[0]:.1f}"
    )
    print("line share: the median share of moves on a solver line, by position (now) and,")
    print("by index: the same line compared move number by move number (the signal before)")
    print(
        f"{'game':14} {'who':32} {'wins':>5} {'flagged':>8} {'line share':>11} "
        f"{'by index':>9}   reasons"
    )
    for game in ("freecell", "bakers-dozen", "klondike"):
        rows: dict[str, list[tuple[list[str], float | None]]] = defaultdict(list)
        for seed, line in certified(game, args.games, args.budget):
            for name, (tokens, stamps) in players(rng, game, seed, line, args.budget).items():
                if tokens is None or stamps is None:
                    continue
                found = timing(session_for(game, seed, tokens, stamps, line))
                # The signal as it was: the moves compared with the line index by index.
                by_index = sum(a == b for a, b in zip(tokens, line, strict=False)) / len(line)
                rows[name].append((verdict({**found, "linked": []}), found["line_share"], by_index))
        for name, got in rows.items():
            why = Counter(r for reasons, _, _ in got for r in reasons)
            flagged = sum(1 for reasons, _, _ in got if reasons) / len(got)
            shares = sorted(x for _, x, _ in got if x is not None)
            median = shares[len(shares) // 2] if shares else float("nan")
            old = sorted(x for _, _, x in got)[len(got) // 2]
            print(
                f"{game:14} {name:32} {len(got):5d} {flagged:8.1%} {median:11.3f} "
                f"{old:9.3f}   " + ", ".join(f"{k} {v}" for k, v in why.most_common())
            )


if __name__ == "__main__":
    main()
