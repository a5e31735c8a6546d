"""How much of a game follows the solver, compared by position rather than by index.

The review's ``solver_line`` signal (games/fairplay/review.py) once compared the player's moves with
the certified line index by index, so any offset defeated it: one legal move and its undo
before the line, and not one move matched.  What matters is whether, standing where the
player stood, the player did what the solver does from there.  So:

1. The player's game is reduced to the path it took from the deal to its end: a move undone
   is gone, and a loop that comes back to a position already on the path is cut out, so
   prefixes, detours undone or walked back, and waiting moves weigh nothing.
2. Each move of that path is compared with the solver's move from the same position (the
   position itself, however the player reached it: a transposition of the line counts).
   The positions known are the certified line's; for a game with no hidden card, a
   position off them is solved again (within a budget of states, so the same game always
   gives the same share), since a player there could run the same solver from anywhere.
3. The share is the matched moves over the path's moves.

A person's own way through a deal leaves the solver's positions within a few moves and
rarely follows its choice from the positions it meets again.  What an attacker can still
do: use another solver, whose line shares little with ours (the timing signals and the
other reasons remain), or make many small departures so that the re-solving budget runs
out; each departure is a move of the path that does not match, so the share falls only as
fast as the attacker plays moves of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.engine import Game, IllegalMove, new_game
from games.engine.undo import is_undo

FOLLOWING = 3  # moves in a row on a solver line: the player is following it
FOLLOW_UP = 4  # solves per sample point at most, follow-ups included
Key = tuple[Any, ...]
# solve(game at a position) -> the solver's line from there in notation, or None.
Solver = Callable[[Game], "Sequence[str] | None"]


def key(g: Game) -> Key:
    """The exact position: columns in place (a move names its column), cells, foundations,
    stock and waste, and the passes used."""
    return (
        tuple(map(tuple, g.tab)),
        tuple(g.down),
        tuple(g.cells),
        tuple(g.found),
        tuple(g.stock),
        tuple(g.waste),
        g.redeals_used if g.redeals is not None else 0,
    )


def path(game: str, seed: int, tokens: Sequence[str]) -> list[tuple[Key, str]]:
    """(position, move from it) along the way the game took, undone moves and loops cut."""
    g = new_game(game, seed)
    stack: list[tuple[Key, str]] = []
    where: dict[Key, int] = {}  # position -> its index on the stack
    # Per move played, what it took off the stack (a loop it closed), so an undo puts the
    # path back as it was before that move.
    undo: list[list[tuple[Key, str]]] = []
    for token in tokens:
        if is_undo(token):
            try:
                g.undo()
            except IllegalMove:
                break
            if not undo:
                continue
            removed = undo.pop()
            if removed:
                for item in removed[:-1]:
                    where[item[0]] = len(stack)
                    stack.append(item)
            else:
                where.pop(stack.pop()[0], None)
            continue
        before = key(g)
        try:
            g.play(token)
        except IllegalMove:
            break  # re-validation reports it; the path up to it stands
        stack.append((before, token))
        where[before] = len(stack) - 1
        after = key(g)
        cut: list[tuple[Key, str]] = []
        if after in where:  # back where the path already was: the loop weighs nothing
            at = where[after]
            cut = stack[at:]
            for k, _ in cut:
                where.pop(k, None)
            del stack[at:]
        undo.append(cut)
    return stack


def _learn(known: dict[Key, Any], g: Game, line: Sequence[str]) -> None:
    """The solver's move from each position along ``line``, played from ``g`` (a copy)."""
    h = g.copy()
    for token in line:
        try:
            move = h.parse(token)
            known.setdefault(key(h), move)
            h.play(token)
        except IllegalMove:
            return


def share(
    game: str,
    seed: int,
    tokens: Sequence[str],
    line: Sequence[str] | None,
    solve: Solver | None = None,
    samples: int = 0,
    min_suffix: int = 20,
) -> float | None:
    """The share of the path's moves that are the solver's move from where they were
    played (None without a line to compare with), or more: with ``solve`` (a game with no
    hidden card), the solver's line is also found from up to ``samples`` points of the path
    -- where it leaves the certified line, and points spread along it -- and the share of
    the moves from each point to the end counts too (a suffix of at least ``min_suffix``
    moves), since a player may run the solver from anywhere.  A search from a point of a
    line need not return the rest of that line, so where a player who followed a solver
    line for ``FOLLOWING`` moves leaves it, the solver is asked again (at most
    ``FOLLOW_UP`` solves per sample point in all)."""
    if not line:
        return None
    steps = path(game, seed, tokens)
    if not steps:
        return 0.0
    known: dict[Key, Any] = {}
    _learn(known, new_game(game, seed), line)
    n = len(steps)
    points: set[int] = set()
    if solve is not None and samples > 0:
        # Where the path leaves the certified line (a player who opened on their own and
        # then ran the solver), and points spread along the rest.
        points.add(next((i for i, (k, _) in enumerate(steps) if k not in known), n))
        points |= {n * (j + 1) // samples for j in range(samples - 1)}
    points = {p for p in points if n - p >= min_suffix}
    g = new_game(game, seed)
    matched: list[bool] = []
    solves, streak, was_following = 0, 0, False
    for i, (before, token) in enumerate(steps):
        if (
            before not in known
            and solve is not None
            and solves < FOLLOW_UP * samples
            and (i in points or was_following)
        ):
            # A sample point, or the player just left a solver line they had followed
            # for a while: a search from another point of a line need not return the rest
            # of that line, so the solver is asked again from here.
            solves += 1
            found = solve(g.copy())
            if found:
                _learn(known, g, found)
        hit = known.get(before) == g.parse(token)
        matched.append(hit)
        was_following = not hit and streak >= FOLLOWING
        streak = streak + 1 if hit else 0
        g.play(token)
    best = sum(matched) / n
    for p in sorted(points):
        best = max(best, sum(matched[p:]) / (n - p))
    return round(best, 3)
