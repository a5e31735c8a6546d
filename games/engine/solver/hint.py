"""Hints (docs/rules.md, Hints): the next move of a winning line when the solver has one,
otherwise a sensible heuristic move, never a move back to a position already on the game's
path (:mod:`.hinting`), and "unsolvable" only with a proof.

A game that hides cards (``hides_cards``) is hinted on samples of what the player could
see while a card is hidden (:mod:`.sampling`); with nothing hidden, like the others.  A game
that declares no solver (``Table.solver``) gets a plain move, never a claim.

``lines``: winning lines found before (a previous hint's, the post-game analysis' for this
exact table): the first that still wins from here without coming back to the path is the
hint's line, with no search -- so following hints from a position the solver proved
winnable reaches the win, whatever a new search would have found.

>>> from games.engine import new_game
>>> h = hint(new_game("freecell", 1), 2.0)
>>> h.status, h.move is not None
('solved', True)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from ..game import Game
from .hinting import AvoidPath, Hint, best_first_step, line_wins, plain_move, walk_back
from .registry import has_solver, solver_for
from .sampling import hidden_cards, sampled_hint
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget


def hint(game: Game, budget: Budget | float = 0.8, lines: Iterable[Sequence[str]] = ()) -> Hint:
    """The hint for the player's current position.  The default search time leaves room
    for the fallback inside the one second a player waits at most."""
    if not isinstance(budget, Budget):
        budget = Budget(float(budget))
    t0 = time.monotonic()
    game = game.copy()  # the player may move on while this runs
    if game.won:
        return Hint(None, SOLVED)
    seen, turned = walk_back(game)
    if not has_solver(type(game)):  # nothing to search: a plain move, never a proof
        return Hint(plain_move(game, seen), UNKNOWN, [], time.monotonic() - t0)
    if game.hides_cards:
        known = {c for c in game.stock if c in turned}
        if hidden_cards(game, known):
            return sampled_hint(game, budget, seen, known)
    for line in lines:
        if line_wins(game, line, seen):
            return Hint(line[0], SOLVED, list(line), time.monotonic() - t0)
    solver = solver_for(game)
    dom = _domain(game, seen)
    r = solver.search(dom, budget)
    if r.status == SOLVED and r.moves:
        # The first step avoids the path; a line that comes back to it further on is
        # still a winning line to start, but not one to follow to its end.
        line = r.moves if line_wins(game, r.moves, seen) else []
        return Hint(r.moves[0], SOLVED, line, time.monotonic() - t0)
    if r.status == UNSOLVABLE:
        proven = True
        if dom.filtered:  # the only way on might be back: check without the filter
            left = budget.seconds - (time.monotonic() - t0)
            full = solver.search(solver.domain(game), budget.sub(left))
            proven = full.status == UNSOLVABLE
        if proven:
            return Hint(None, UNSOLVABLE, [], time.monotonic() - t0)
    move = best_first_step(dom) or plain_move(game, seen)
    return Hint(move, UNKNOWN, [], time.monotonic() - t0, cancelled=r.cancelled)


def _domain(game: Game, seen: set[bytes]) -> AvoidPath:
    """The game's search domain with its first steps kept off the path.  A domain that
    sends safe cards up before its first step (a card just taken down from a foundation
    would go straight back) does not, when that is the way back."""
    dom = AvoidPath(solver_for(game).domain(game), game, seen)
    dom.initial()
    if dom.inner.initial_moves and not dom.allowed(()) and hasattr(dom.inner, "root_autoplay"):
        dom.inner.root_autoplay = False
        dom.initial()
    return dom


__all__ = ["Hint", "hint"]
