"""Positions as keys: the same position, whatever led to it, gives the same key.  A dead-end
search remembers the positions it has seen (``position_key``), a table the verdicts of the
positions it has been in and Redis the day's solver verdicts (``packed``), and a path is
shortened along the layouts it passes (``layout``)."""

from __future__ import annotations

from typing import Any

from .game import Game


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


def packed(g: Game, in_place: bool = False) -> bytes:
    """The whole position, hidden cards included, in a few dozen bytes (a table keeps many;
    games/play/analysis_cache.py keys Redis with them): the columns, each after a byte
    above any card's for its face-down count, then the cells, the foundations, the stock,
    the waste and the passes used, 255 between them.  By default ``position_key``'s
    position: columns in sorted order, the passes only when they are limited.
    ``in_place``: the table exactly, as a move's notation names its columns."""
    out = bytearray()
    cols = zip(map(bytes, g.tab), g.down, strict=True)
    for cards, down in cols if in_place else sorted(cols):
        out.append(64 + down)
        out += cards
    out.append(255)
    out += bytes(63 if c < 0 else c for c in g.cells)
    out += bytes(g.found)
    out.append(255)
    out += bytes(g.stock)
    out.append(255)
    out += bytes(g.waste)
    out.append(255)
    used = g.redeals_used if in_place or g.redeals is not None else 0
    out.append(min(used, 254))
    return bytes(out)


def layout(g: Game) -> tuple[Any, ...]:
    """The table exactly, columns in place (unlike ``position_key``, two tables with the
    same layout take the same moves)."""
    return (
        tuple(map(tuple, g.tab)),
        tuple(g.down),
        tuple(g.cells),
        tuple(g.found),
        tuple(g.stock),
        tuple(g.waste),
        g.redeals_used,
    )
