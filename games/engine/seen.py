"""What the player may see of a game: the table without its hidden cards, the legal moves
as move objects (docs/api.md, Move objects) and the state a client gets after every move.
Functions over a ``Game``; nothing here names a face-down or stock card.

>>> from games.engine import new_game
>>> g = new_game("klondike", 42)
>>> view(g)["piles"]["tableau:1"], view(g)["stock"]
([None, '7D'], 24)
>>> move_objects(g)[-1]
{'move': 's', 'from': 'stock', 'to': 'waste', 'count': 1}
>>> sorted(state(g))[:4]
['can_finish', 'can_undo', 'cards_up', 'game']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import endgame, taps
from .cards import CODE
from .game import Game
from .piles import CELL, EMPTY, FOUNDATION, STOCK, WASTE, Move, pile_name

# A move's token and pile names, by the game's class and the move: the notation is a
# function of those alone (tests/engine/test_properties.py checks it over random play), and
# the answer after every move names every legal move, most of them the same as last time.
# Bounded by the moves there are: a few thousand tuples per game.
_heads: dict[tuple[type, Move], tuple[str, str, str]] = {}


def move_object(g: Game, move: Move) -> dict[str, Any]:
    """One move as a client reads it: its token, its piles, how many cards and which."""
    src, dst, n = move
    head = _heads.get((type(g), move))
    if head is None:
        head = _heads[type(g), move] = (g.notation(move), pile_name(src), pile_name(dst))
    obj: dict[str, Any] = {"move": head[0], "from": head[1], "to": head[2], "count": n}
    if src < CELL:
        obj["card"] = CODE[g.tab[src][-n]]
    elif src < FOUNDATION:
        obj["card"] = CODE[g.cells[src - CELL]]
    elif src < STOCK:
        obj["card"] = CODE[(g.found[src - FOUNDATION] - 1) * 4 + src - FOUNDATION]
    elif src == WASTE and dst != STOCK:
        obj["card"] = CODE[g.waste[-1]]
    return obj


def move_objects(g: Game, moves: Iterable[Move] | None = None) -> list[dict[str, Any]]:
    """``moves`` (by default every legal move now) as move objects."""
    return [move_object(g, m) for m in (g.legal_moves() if moves is None else moves)]


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
    if g.runs.counted:
        out["move_limit"] = g.move_limit()
    return out


def state(g: Game, within: float | None = None) -> dict[str, Any]:
    """Everything a client needs after a move (the shape of the HTTP answers).  With
    ``within``, the dead-end verdict gets that many seconds and is None when it needs more
    (``endgame.dead_end_within``): the caller then settles it elsewhere."""
    moves = list(g.legal_moves())  # generated once: the list and the dead-end test
    objects = move_objects(g, moves)
    best = taps.best_moves(g, moves)
    for obj, move in zip(objects, moves, strict=True):
        if move in best:
            obj["best"] = True  # where a tap on its card sends it (taps.py)
    return {
        "game": g.key,
        "view": view(g),
        "legal_moves": objects,
        "score": g.score if g.has_score else None,
        "cards_up": g.cards_up,
        "moves": g.moves,
        "won": g.won,
        "can_finish": endgame.can_finish(g),
        # True once no move can change the outcome (docs/rules.md, Dead ends); the table
        # then offers undo, replay and another deal.
        "no_legal_move": endgame.dead_end_within(g, moves, within),
        "can_undo": bool(g.history),
    }
