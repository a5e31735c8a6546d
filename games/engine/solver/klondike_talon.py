"""The Klondike solver's stock and waste: which cards the turns can bring to the waste top,
and the safe cards sent up from anywhere in a draw-one talon.  See :mod:`.klondike` for
the state (``talon`` is the stock and the waste as one ``bytes``, ``pos`` how many of
them are on the waste).
"""

from __future__ import annotations

from ..piles import FOUNDATION, STOCK, WASTE, Move
from .klondike_autoplay import autoplay, safe_cards

Reach = list[tuple[tuple[Move, ...], int]]

# An answer depends on five small numbers only, so each is kept (a few thousand at most).
_MEMO: dict[tuple[int, int, int, int, int | None], Reach] = {}


def reachable(size: int, pos: int, passes: int, draw: int, redeals: int | None) -> Reach:
    """(stock turns, waste position) for every position the stock can reach from here,
    the shortest way first; position 0 (an empty waste) plays nothing.  ``redeals`` None:
    unlimited (then ``passes`` stays 0)."""
    key = (size, pos, passes, draw, redeals)
    memo = _MEMO.get(key)
    if memo is not None:
        return memo
    out: Reach = []
    played: set[int] = set()
    visited: set[tuple[int, int]] = set()
    turns: list[Move] = []
    p, used = pos, passes
    while True:
        # With unlimited passes the pass count does not matter: the walk is a cycle.
        here = (p, 0 if redeals is None else used)
        if here in visited:
            break
        visited.add(here)
        if p > 0 and p not in played:
            played.add(p)
            out.append((tuple(turns), p))
        if p < size:
            k = min(draw, size - p)
            turns.append((STOCK, WASTE, k))
            p += k
        elif p > 0 and (redeals is None or used < redeals):
            turns.append((WASTE, STOCK, p))
            p, used = 0, used + 1
        else:
            break
    _MEMO[key] = out
    return out


def talon_up(
    cols: list[bytes], downs: list[int], talon: bytes, pos: int, found: list[int], edge: list[Move]
) -> tuple[bytes, int]:
    """Drawing one with unlimited passes: send up the safe cards from anywhere in the
    talon, each after the turns that bring it to the waste top, and what they let go up
    in turn.  Every talon card can be played at any time there, so a safe card in it is
    as good as up (the reason :func:`.klondike_autoplay.autoplay` gives); left in, it
    would only split the search's space in two."""
    while True:
        at = [i for i in map(talon.find, safe_cards(found)) if i >= 0]
        if not at:
            return talon, pos
        i = min(at)
        edge.extend(next(t for t, p in reachable(len(talon), pos, 0, 1, None) if p == i + 1))
        x = talon[i]
        found[x & 3] += 1
        talon = talon[:i] + talon[i + 1 :]
        edge.append((WASTE, FOUNDATION + (x & 3), 1))
        talon, pos = autoplay(cols, downs, talon, i, found, edge, True)
