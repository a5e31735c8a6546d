"""A cheap proof that a Klondike-family position is lost, with every card known.

Every card must reach its foundation, and each thing that must happen first has a
condition that is necessary whatever else happens:

* a card goes up only after the card below it in its suit, and only from the top of a
  column or the waste: in its column every face-down card above it (and the face-up card
  on which the others are built) must have left first;
* a face-down card, or the lowest face-up card of a column, leaves its column only after
  the same such cards above it, and only to its foundation or, heading a run, onto one of
  its two places (the card one rank higher of the other colour, which must then be the
  top of a column, or come down from a foundation or out of the talon -- onto a place of
  its own, which must be a column's top or may come down too), or -- a king -- into a
  column emptied first.

The least set of events closed under these conditions holds every event that can ever
happen, in any order of play (each event's first occurrence finds its conditions met by
earlier ones).  A card whose "goes up" event is not in it can never go up: the position
is lost.  Cards off those fixed places (face up on top of others, in the talon) are taken
to be free whenever wanted, which only makes the set larger, never the proof wrong.

It catches the blocked deals, a card buried under cards that wait for it, in microseconds,
where a search would have to try every order of the stock to see the same.
"""

from __future__ import annotations

from collections.abc import Sequence

# The two suits of the other colour, per suit (C D H S).
_OTHER = ((1, 2), (0, 3), (0, 3), (1, 2))


def lost(cols: Sequence[bytes], downs: Sequence[int], found: Sequence[int],
         foundation_back: bool = True, talon: bytes | None = None) -> bool:
    """Is the position provably lost?  ``cols`` bottom card first, ``downs`` the face-down
    cards of each column, ``found`` the cards home per suit; the talon is what is left
    (``talon``, when the caller has it at hand)."""
    if talon is None:
        talon = bytes(set(range(52)) - {x for c in cols for x in c} - {
            r * 4 + su for su in range(4) for r in range(found[su])})
    # where[x] = (column, place) for each card in a column where it lies now.  A card is
    # free to move once its place is left (and the talon's are free from the start).
    where = {x: (i, p) for i, c in enumerate(cols) for p, x in enumerate(c)}
    if not where:
        return False
    # left[i]: how many places of column i, from the top, can be left (a prefix).
    left = [0] * len(cols)
    fixed = [len(c) for c in cols]
    home = list(found)  # home[su]: cards of the suit that can go up, lowest first
    empty = any(not c for c in cols)

    def exposed(x: int) -> bool:
        """May ``x`` ever be the top of a column (or be played from the talon)?"""
        w = where.get(x)
        if w is None:
            return True
        i, p = w
        return fixed[i] - left[i] <= p + 1

    def can_land(x: int, top: bool = True) -> bool:
        """May card ``x`` leave its place, as the head of a run or alone (``top``: with
        the places above it left, so that it may also go up)?"""
        r = x >> 2
        su = x & 3
        if top and home[su] >= r:  # its foundation is ready: it goes up
            return True
        if r == 12:
            return empty
        for s2 in _OTHER[su]:
            y = (r + 1) * 4 + s2  # one of its two places
            if home[s2] > r + 1:  # it may be up by then, and perhaps come down
                if foundation_back and comes_down(y):
                    return True
                if found[s2] > r + 1:
                    continue  # up already, for good
            # A place below x in its own column is not exposed while x is there; one in
            # the talon must first find a place of its own on the table.
            if exposed(y) and (y not in talon or comes_down(y)):
                return True
        return False

    def comes_down(y: int) -> bool:
        """May ``y`` come down from its foundation onto a place (or, a king, an empty
        column)?  A place that may itself be up by then counts (it could come down too)."""
        r = y >> 2
        if r == 12:
            return empty
        for s3 in _OTHER[y & 3]:
            if home[s3] > r + 1 or exposed((r + 1) * 4 + s3):
                return True
        return False

    changed = True
    while changed:
        changed = False
        for su in range(4):
            while home[su] < 13 and exposed(home[su] * 4 + su):
                home[su] += 1
                changed = True
        for i, c in enumerate(cols):
            while left[i] < fixed[i]:
                q = fixed[i] - 1 - left[i]
                # Its place is left when it moves or goes up, or when a face-up card under
                # it moves off as the head of a run, taking it along.
                if not (can_land(c[q]) or any(can_land(c[p], False)
                                              for p in range(downs[i], q))):
                    break
                left[i] += 1
                changed = True
                if left[i] == fixed[i] and not empty:
                    empty = True
    return any(h < 13 for h in home)

