"""A cheap proof that a Klondike-family position is lost, with every card known.

Every card must reach its foundation, and each thing that must happen first has a
condition that is necessary whatever else happens:

* a card goes up only after the card below it in its suit, and only from the top of a
  column or the waste;
* a card in a column becomes the column's top only after the card lying on it now has
  left it -- and a card leaves the one it lies on only by going up, or by heading a run
  that moves: the cards above it in the run go with it and stay on each other, so a run
  carried off by a card under it uncovers nothing (it is the same run in another
  column);
* a card heads a run only while face up (a face-down card, once it is a column's top),
  and only onto one of its two places (the card one rank higher of the other colour,
  which must then be a column's top, or come down from a foundation or out of the talon
  -- onto a place of its own, which must be a column's top or may come down too), or --
  a king -- into an empty column: one whose bottom card has left it.

The least set of events closed under these conditions holds every event that can ever
happen, in any order of play: each event's first occurrence finds its conditions met by
earlier ones (the first time a card is uncovered, the card that lay on it since the
start has just left it).  A card whose "goes up" event is not in it can never go up: the
position is lost.  Cards in the talon and on the foundations are taken to be free
whenever wanted, and a card uncovered once to be a column's top for good, which only
makes the set larger, never the proof wrong.

It catches the blocked deals, a card buried under cards that wait for it, in microseconds,
where a search would have to try every order of the stock to see the same -- and, at
every position of the full search, runs that wait on each other wherever they have been
moved (tests/engine/test_klondike_proofs_dead.py checks it against the plain search).
"""

from __future__ import annotations

from collections.abc import Sequence

# The two suits of the other colour, per suit (C D H S).
_OTHER = ((1, 2), (0, 3), (0, 3), (1, 2))
# _PLACES[x]: the two cards x may be put on (one rank higher, the other colour).
_PLACES = tuple(
    tuple((x >> 2) * 4 + 4 + s for s in _OTHER[x & 3]) if x < 48 else () for x in range(52)
)


def lost(  # noqa: C901
    cols: Sequence[bytes],
    downs: Sequence[int],
    found: Sequence[int],
    foundation_back: bool = True,
    talon: bytes | None = None,
) -> bool:
    """Is the position provably lost?  ``cols`` bottom card first, ``downs`` the face-down
    cards of each column, ``found`` the cards home per suit; the talon is what is left
    (``talon``, when the caller has it at hand)."""
    # (C901: asked at every node of the Klondike search; its proofs share one pass's
    # locals, and in one frame they cost no calls.)
    if not any(cols):
        return False
    if talon is None:
        talon = bytes(
            set(range(52))
            - {x for c in cols for x in c}
            - {r * 4 + su for su in range(4) for r in range(found[su])}
        )
    # above[x]: the card lying on x in its column now (none: x is a column's top, in the
    # talon or home).
    above: dict[int, int] = {}
    for c in cols:
        for p in range(len(c) - 1):
            above[c[p]] = c[p + 1]
    table = set(above).union(c[-1] for c in cols if c)  # the cards in columns now
    off: set[int] = set()  # column cards that may leave the card they lie on now
    # place() of the cards off the table, until a card leaves or a column empties (each
    # asks for two higher ones: unkept, a deep foundation would cost 2 ** 12 calls).
    landed: dict[int, bool] = {}
    home = list(found)  # home[su]: cards of the suit that can go up, lowest first
    empty = any(not c for c in cols)

    def exposed(x: int) -> bool:
        """May ``x`` ever be the top of a column (or be played from the talon)?"""
        a = above.get(x)
        return a is None or a in off

    def can_land(x: int, top: bool = True) -> bool:
        """May card ``x`` leave its place, as the head of a run or alone (``top``: a
        column's top by then, so that it may also go up)?"""
        r = x >> 2
        su = x & 3
        if top and home[su] >= r:  # its foundation is ready: it goes up
            return True
        if r == 12:
            return empty
        # A place under x in its column is never a top while x lies above it (x would
        # have to leave first).
        return any(place(y) for y in _PLACES[x])

    def place(y: int) -> bool:
        """May ``y`` ever be a column's top, for a card to land on?  One in a column now
        once uncovered (if it went up and came back down, it was uncovered first); one in
        the talon or home now only once it has landed on a place of its own (recursively:
        the ranks go up) -- from home only if cards may come back down."""
        if y in table:
            return exposed(y)
        v = landed.get(y)
        if v is None:
            if y not in talon and not foundation_back:
                v = False
            else:
                v = empty if y >= 48 else any(place(z) for z in _PLACES[y])
            landed[y] = v
        return v

    changed = True
    while changed:
        changed = False
        for i, c in enumerate(cols):
            # The suits go up as far as they can before each column (so that what one
            # column's cards let up counts in the next one's in the same pass).
            for su in range(4):
                while home[su] < 13 and exposed(home[su] * 4 + su):
                    home[su] += 1
                    changed = True
            if min(home) == 13:
                return False  # every card may go up: nothing is proven (most positions)
            # From the top down, so that a card's leaving uncovers the next in this pass.
            for p in range(len(c) - 1, -1, -1):
                x = c[p]
                if x in off:
                    continue
                top = exposed(x)
                if not top and p < downs[i]:
                    break  # face down and never uncovered: nor is anything under it
                if can_land(x, top):  # a face-up card may head a run from under others
                    off.add(x)
                    changed = True
                    landed.clear()
                    if p == 0:
                        empty = True
    return True  # a card that can never go up
