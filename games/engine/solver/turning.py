"""Where a game was lost: the last position of a stored game from which a win still
existed, and the move that lost it (docs/rules.md, "Where was it lost?").

The positions walked are those of the game's final line: a move taken back (``u``) leaves
the line, so what the player undid cannot be the turning point.  Along one line, once a
position cannot be won no later one can (every later position is reached from it), so the
last winnable position is found by bisection: about log2(moves) searches, not one per
move.  Each search has its own share of the budget; a search that runs out answers
``unknown`` for the whole analysis rather than guess.

>>> from games.engine import new_game
>>> from games.engine.solver.api import solve
>>> line = solve(new_game("freecell", 1), 10).moves
>>> turning_point("freecell", 1, line, 10)["turning_point"] is None  # a win lost nothing
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..catalogue import new_game
from ..game import Game
from ..record import positions
from ..undo import is_undo
from .api import solve
from .search import SOLVED, UNSOLVABLE, Budget, Result


def final_line(game: str, seed: int, moves: list[str]) -> list[tuple[int | None, Game]]:
    """(index of the stored move that made it, position) along the final line, from the
    deal (index None) to the last position."""
    line: list[tuple[int | None, Game]] = [(None, new_game(game, seed))]
    for i, (token, g) in enumerate(zip(moves, positions(game, seed, moves), strict=True)):
        if is_undo(token):
            if len(line) > 1:
                line.pop()
        else:
            line.append((i, g.copy()))
    return line


def turning_point(
    game: str,
    seed: int,
    moves: list[str],
    seconds: float,
    searches: int = 12,
    solve_position: Callable[[Game, Budget], Result] = solve,
) -> dict[str, Any]:
    """``status`` done or unknown; ``turning_point`` (index in ``moves`` of the losing move,
    None for a win, a game still winnable at its end, or a deal with no win);
    ``losing_move``; ``winning_alternative`` (the first move of a winning line from the
    last winnable position) and ``winning_line`` (that whole line).  ``solve_position``:
    the search of one position (the server's shares its proofs between players)."""
    line = final_line(game, seed, moves)
    out: dict[str, Any] = {
        "status": "done",
        "turning_point": None,
        "losing_move": None,
        "winning_alternative": None,
        "winning_line": None,
        "budget_seconds": seconds,
    }
    if line[-1][1].won:
        return out
    each = seconds / searches
    verdicts: dict[int, Any] = {}

    def verdict(k: int) -> Any:
        if k not in verdicts:
            verdicts[k] = solve_position(line[k][1], Budget(each))
        return verdicts[k]

    last = verdict(len(line) - 1)
    if last.status == SOLVED:  # still winnable where the player stopped: nothing lost it
        out.update(
            winning_alternative=last.moves[0] if last.moves else None, winning_line=last.moves
        )
        return out
    first = verdict(0)
    if first.status == UNSOLVABLE:
        return out  # no win ever existed: no move lost it
    if first.status != SOLVED or last.status != UNSOLVABLE:
        return {**out, "status": "unknown"}
    lo, hi = 0, len(line) - 1  # lo wins, hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = verdict(mid)
        if r.status == SOLVED:
            lo = mid
        elif r.status == UNSOLVABLE:
            hi = mid
        else:
            return {**out, "status": "unknown"}
    losing = line[hi][0]
    win = verdicts[lo]
    out.update(
        turning_point=losing,
        losing_move=moves[losing] if losing is not None else None,
        winning_alternative=win.moves[0] if win.moves else None,
        winning_line=win.moves,
    )
    return out
