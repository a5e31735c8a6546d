"""What the player may see of a game, and what an operator may: functions over a ``Game``
(the game exposes them as methods).  Only ``layout`` names a hidden card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import endgame
from .cards import CODE
from .piles import CELL, EMPTY, FOUNDATION, STOCK, SUPERMOVE, WASTE, Move, pile_name

if TYPE_CHECKING:
    from .base import Game


def move_object(g: Game, move: Move) -> dict[str, Any]:
    src, dst, n = move
    obj: dict[str, Any] = {
        "move": g.notation(move),
        "from": pile_name(src),
        "to": pile_name(dst),
        "count": n,
    }
    if src < CELL:
        obj["card"] = CODE[g.tab[src][-n]]
    elif src < FOUNDATION:
        obj["card"] = CODE[g.cells[src - CELL]]
    elif src < STOCK:
        obj["card"] = CODE[(g.found[src - FOUNDATION] - 1) * 4 + src - FOUNDATION]
    elif src == WASTE and dst != STOCK:
        obj["card"] = CODE[g.waste[-1]]
    return obj


def view(g: Game) -> dict[str, Any]:
    """The table as the player may see it: face-down cards are ``None``, the stock is
    only a count.  Nothing here reveals a hidden card."""
    piles: dict[str, list[str | None]] = {}
    for i, p in enumerate(g.tab):
        d = g.down[i]
        piles[f"tableau:{i}"] = [None] * d + [CODE[c] for c in p[d:]]
    for i, c in enumerate(g.cells):
        piles[f"cell:{i}"] = [] if c == EMPTY else [CODE[c]]
    for s, letter in enumerate("CDHS"):
        piles[f"foundation:{letter}"] = [CODE[r * 4 + s] for r in range(g.found[s])]
    out: dict[str, Any] = {"piles": piles}
    if g.draw:
        piles["waste"] = [CODE[c] for c in g.waste]
        out["stock"] = len(g.stock)
        out["draw"] = g.draw
        out["passes_left"] = g.passes_left
    if g.runs == SUPERMOVE:
        out["move_limit"] = g.move_limit()
    return out


def state(g: Game) -> dict[str, Any]:
    """Everything a client needs after a move (the shape of the HTTP answers)."""
    moves = list(g.legal_moves())  # generated once: the list and the dead-end test
    return {
        "game": g.key,
        "view": view(g),
        "legal_moves": [move_object(g, m) for m in moves],
        "score": g.score if g.has_score else None,
        "cards_up": g.cards_up,
        "moves": g.moves,
        "won": g.won,
        "can_finish": g.can_finish(),
        # True once no move can change the outcome (SPEC 3.1, 3.6); the table then
        # offers undo, replay and another deal.
        "no_legal_move": endgame.no_move_matters(g, moves),
        "can_undo": bool(g.history),
    }


def layout(g: Game) -> dict[str, Any]:
    """The full layout, hidden cards included (an operator's tool, never for players)."""
    out: dict[str, Any] = {"tableau": [[CODE[c] for c in p] for p in g.tab]}
    if g.draw:
        out["stock"] = [CODE[c] for c in g.stock]
        out["face_down"] = list(g.down)
    return out
