"""The end of a game: "finish" (cards sent up one by one) and dead ends (SPEC 3.1, 3.6).

Functions over a ``Game``; the game exposes them as methods.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .cards import RANK, SUIT
from .piles import CELL, EMPTY, FOUNDATION, STOCK, WASTE, Move

if TYPE_CHECKING:
    from .base import Game


def foundation_move(g: Game) -> Move | None:
    """A card that may go up now from a column end, a free cell or the waste."""
    found = g.found
    for i, p in enumerate(g.tab):
        if p and found[SUIT[p[-1]]] == RANK[p[-1]] and len(p) > g.down[i]:
            return (i, FOUNDATION + SUIT[p[-1]], 1)
    for i, c in enumerate(g.cells):
        if c != EMPTY and found[SUIT[c]] == RANK[c]:
            return (CELL + i, FOUNDATION + SUIT[c], 1)
    if g.waste:
        c = g.waste[-1]
        if found[SUIT[c]] == RANK[c]:
            return (WASTE, FOUNDATION + SUIT[c], 1)
    return None


def _stock_touch(g: Game) -> Move | None:
    if g.stock:
        return (STOCK, WASTE, min(g.draw, len(g.stock)))
    if g.waste and (g.redeals is None or g.redeals_used < g.redeals):
        return (WASTE, STOCK, len(g.waste))
    return None


def finish_moves(game: Game) -> list[Move]:
    """The cards sent up one by one by "finish", with stock turns where needed."""
    g = game.copy()
    out: list[Move] = []
    idle = 0  # stock touches since the last card went up
    while not g.won:
        m = foundation_move(g)
        if m is None and g.draw and idle <= 2 * (len(g.stock) + len(g.waste)) + 2:
            m = _stock_touch(g)
            idle += 1
        else:
            idle = 0
        if m is None:
            break
        g.apply(m)
        out.append(m)
    if not g.won:  # drop trailing stock touches that led nowhere
        while out and (out[-1][0] == STOCK or out[-1][1] == STOCK):
            out.pop()
    return out


def can_finish(game: Game) -> bool:
    """Is "finish" offered now?  Only once the remaining cards are sure to go up."""
    if game.won:
        return False
    if game.partial_finish:
        return foundation_move(game) is not None
    if any(game.down):
        return False
    if not game.draw and foundation_move(game) is None:
        return False  # nothing can go up now, and without a stock nothing will come
    g = game.copy()
    for m in finish_moves(game):
        g.apply(m)
    return g.won


def no_legal_move(game: Game, moves: Iterable[Move] | None = None) -> bool:
    """SPEC 3.6: nothing but the stock moves, and the stock brings no playable card.

    Moving a whole pile headed by its deepest card into another empty pile only swaps
    two piles, so it does not count as a move here.
    """
    for src, dst, n in game.legal_moves() if moves is None else moves:
        if src == STOCK or dst == STOCK:
            continue
        if src < CELL and dst < CELL and not game.tab[dst] and n == len(game.tab[src]):
            continue
        return False
    if not game.draw:
        return True
    g = game.copy()
    for _ in range(2 * (len(g.stock) + len(g.waste)) + 2):
        m = _stock_touch(g)
        if m is None:
            break
        g.apply(m)
        if g.waste and any(s == WASTE and d != STOCK for s, d, _ in g.legal_moves()):
            return False
    return True


def position_key(g: Game) -> tuple[Any, ...]:
    # Columns in sorted order: no rule depends on where a column stands, so two tables that
    # differ only by the order of their columns have the same future, and the search sees
    # each such family once (in Baker's Dozen, shuffling tops between columns makes many).
    return (
        tuple(sorted(zip(map(tuple, g.tab), g.down, strict=True))),
        tuple(g.cells),
        tuple(g.found),
        tuple(g.stock),
        tuple(g.waste),
        # With unlimited passes a recycle leads back to a known position.
        g.redeals_used if g.redeals is not None else 0,
    )


def _search_order(move: Move) -> int:
    # Foundation moves first and stock touches last: progress is usually found at once.
    src, dst, _ = move
    if FOUNDATION <= dst < STOCK:
        return 0
    if src == STOCK or dst == STOCK:
        return 2
    return 1


def no_move_matters(game: Game, moves: Iterable[Move] | None = None) -> bool:
    """SPEC 3.1: no move can change the outcome any more.

    An exhaustive search of every position reachable without a card going higher on the
    foundations or a face-down card turning; if none of them allows either, nothing can
    ever help.  When the search runs out of budget the answer is False: a dead end is only
    announced when it is certain.  FreeCell (``dead_end_search = False``) keeps its own
    rule: a dead end is no legal move at all.
    """
    if game.won:
        return False
    if no_legal_move(game, moves):  # ``moves``: the legal moves, when the caller has them
        return True
    if not game.dead_end_search:
        return False
    floor = game.cards_up
    g = game.copy()
    g.history = []  # unbounded undo for the search, whatever the game's own limit
    seen = {position_key(g)}
    stack = [iter(sorted(g.legal_moves(), key=_search_order))]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                g.undo()
            continue
        g.apply(move)
        turned = g.history[-1][2] == 1 and g.draw > 0
        if g.cards_up > floor or turned:
            return False
        key = position_key(g)
        if key in seen:
            g.undo()
            continue
        seen.add(key)
        if len(seen) > game.DEAD_END_BUDGET:
            return False
        stack.append(iter(sorted(g.legal_moves(), key=_search_order)))
    return True
