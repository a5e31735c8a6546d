"""The Klondike cards the search sends up by itself: those nothing on the table could ever
need (all the search may do without losing a win), and in the eager narrow searches every
card that can go.  See the pruning notes in :mod:`.klondike`.
"""

from __future__ import annotations

from ..piles import FOUNDATION, WASTE, Move

# The two suits of the other colour, per suit (C D H S).
OTHER = ((1, 2), (0, 3), (0, 3), (1, 2))


def autoplay(
    cols: list[bytes],
    downs: list[int],
    talon: bytes,
    pos: int,
    found: list[int],
    edge: list[Move],
    from_waste: bool,
    eager: bool = False,
) -> tuple[bytes, int]:
    """Send up the safe cards.  From the waste only when drawing one: with three, taking
    a card out of the talon shifts which cards later turns bring up, so it is a choice,
    not a free move."""
    while True:
        safe = next_cards(found) if eager else safe_cards(found)
        if not safe:
            return talon, pos
        moved = False
        for i, c in enumerate(cols):
            # A column's top card is always face up (it turns as soon as uncovered).
            if c and c[-1] in safe:
                x = c[-1]
                found[x & 3] += 1
                cols[i] = c = c[:-1]
                if downs[i] and downs[i] == len(c):
                    downs[i] -= 1
                edge.append((i, FOUNDATION + (x & 3), 1))
                moved = True
        if from_waste and pos > 0 and talon[pos - 1] in safe:
            x = talon[pos - 1]
            found[x & 3] += 1
            talon = talon[: pos - 1] + talon[pos:]
            pos -= 1
            edge.append((WASTE, FOUNDATION + (x & 3), 1))
            moved = True
        if not moved:
            return talon, pos


def next_cards(found: list[int]) -> tuple[int, ...]:
    """The next card of every suit (the eager narrow searches send them all up)."""
    return tuple(found[su] * 4 + su for su in range(4) if found[su] < 13)


_SAFE: dict[tuple[int, ...], tuple[int, ...]] = {}  # a few thousand foundations at most


def safe_cards(found: list[int]) -> tuple[int, ...]:
    """The cards that may go up now and never be needed on the table: the next card of a
    suit when both suits of the other colour already hold the rank below it and the other
    suit of its colour the rank two below (nothing could ever need it to build on), and
    aces and twos always."""
    key = tuple(found)
    out = _SAFE.get(key)
    if out is None:
        out = _SAFE[key] = _safe_cards(found)
    return out


def _safe_cards(found: list[int]) -> tuple[int, ...]:
    # A card on the table holds only the two of the rank below in the other colour, and
    # those are needed there only to hold the two of the rank below them, and so on: with
    # the other colour home to the rank below and the other suit of its colour home to
    # two below, no card could ever need it, even cards brought back down from the
    # foundations.  (The other colour alone is not enough: a red jack may come down to
    # hold a black ten, and then needs a black queen on the table.)
    out: tuple[int, ...] = ()
    for su in range(4):
        r = found[su]
        if r < 13:
            a, b = OTHER[su]
            if r <= 1 or (found[a] >= r and found[b] >= r and found[3 - su] >= r - 1):
                out += (r * 4 + su,)
    return out
