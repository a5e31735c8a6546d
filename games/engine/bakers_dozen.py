"""Baker's Dozen (docs/rules.md, Baker's Dozen).

Notation: columns ``1``-``9`` then ``t``, ``j``, ``q``, ``k`` for columns 10-13 (the rank
letters), ``h`` for the foundations: ``3h``, ``t4``, ``k1``.  Only top cards move, so no
size is ever needed.
"""

from __future__ import annotations

import re
from typing import Any

from .cards import RANK, SUIT, Card
from .columns import ANY_SUIT, NEVER_REFILLED, SINGLE_CARD
from .deals import shuffled_deck
from .game import Game, IllegalMove
from .piles import FOUNDATION, Move, Pile
from .reasons import Reason
from .scoring import FIVE_A_CARD

_TOKEN = re.compile(r"^(?P<src>[1-9tjqk])(?P<dst>[1-9tjqkh])$")


class BakersDozen(Game):
    key, title, daily = "bakers-dozen", "Baker's Dozen", True
    rules = (
        "All 52 cards are dealt face up in 13 columns of 4; kings are moved to the bottom of "
        "their columns. Build the four foundations up by suit, from ace to king.",
        "Only the top card of a column moves, one at a time, onto a card one rank higher of "
        "any suit.",
        "A column once empty is never filled again. Aces go up by themselves as soon as they "
        "are free.",
    )
    controls = (
        "Tap a card to pick it: the piles where it can go light up. Tap a card that can go up "
        "to send it to its foundation. “Send up” sends up every card that can go now; “Auto "
        "finish” shows once sending them all up wins the game.",
    )
    solver = "bakers-dozen"
    columns = 13
    build = ANY_SUIT
    empty_pile = NEVER_REFILLED
    runs = SINGLE_CARD
    send_up = True
    # Tertiles of effort per move (bench/difficulty.py, 2026-12-01: 35 certified dailies
    # from 2027-01-01; quartiles 4.36, 6.11, 11.0, max 396).
    effort_per_move = (5.2, 7.7)
    scoring = FIVE_A_CARD  # 5 points a card up, 500 more for a win
    time_bonus_from = 1200  # docs/rules.md, Scores: only Baker's Dozen adds a time bonus
    column_names = "123456789tjqk"  # the rank letters for columns 10-13
    foundation_from = None  # only top cards move, and foundation cards never come back
    # The "no move matters" search runs after every move.  Here the tops shuffle between 13
    # columns into large spaces where nothing goes up, so ``cannot_progress`` proves most
    # dead ends first.  Of the positions it leaves open (2,199 from eager random play) a
    # search of 100 positions proves 15 dead, 300 positions 16 and 1,000 positions 33, at
    # 0.9, 2.6 and 8 ms each.  Either way a dead end is only announced when it is certain.
    DEAD_END_BUDGET = 100

    def cannot_progress(self) -> bool:
        """Sure that no card can ever go up from here (without searching every position).

        A card can first move only once it is a column top and some card a rank higher is
        a top too (not one under it: that one is covered until it moves).  Taking the
        cards that could ever move as the least set closed under that rule -- ignoring
        that a card moved onto a top covers it, so the set is too large if anything --
        if no card each suit needs next could ever be a top, none ever will be, and
        nothing can go up.  Cheap, where the search may need thousands of positions."""
        tab = self.tab
        where = {c: (i, k) for i, p in enumerate(tab) for k, c in enumerate(p)}
        # exposed[i]: the lowest index of column i whose card could ever be its top.
        exposed = [len(p) - 1 for p in tab]
        # waiting[r]: the columns whose lowest such card needs a top of rank r to move onto.
        # A column is looked at again only when a card of that rank could become a top
        # (rather than every column again after any change, which cost milliseconds).
        waiting: list[list[int]] = [[] for _ in range(13)]
        fresh: list[Card] = []  # cards that have just become possible tops

        def can_top(c: Card) -> bool:
            i, k = where[c]
            return k >= exposed[i]

        def advance(i: int) -> None:
            p = tab[i]
            while exposed[i] > 0:
                k = exposed[i]
                up = RANK[p[k]] + 1
                if up > 12:
                    return
                if not any(
                    z in where and can_top(z) and (where[z][0] != i or where[z][1] > k)
                    for z in range(up * 4, up * 4 + 4)
                ):
                    waiting[up].append(i)
                    return
                exposed[i] = k - 1  # p[k] can move away: the card under it can be a top
                fresh.append(p[k - 1])

        for i in range(len(tab)):
            advance(i)
        while fresh:
            rank = RANK[fresh.pop()]
            columns, waiting[rank] = waiting[rank], []
            for i in columns:
                advance(i)
        found = self.found
        return not any(
            found[s] < 13 and can_top(found[s] * 4 + s)
            for s in range(4)
            if found[s] * 4 + s in where
        )

    def deal(self, seed: int) -> tuple[list[list[Card]], list[int], list[Card]]:
        deck = shuffled_deck(seed)
        tab: list[list[Card]] = [[] for _ in range(13)]
        for i, c in enumerate(deck):
            tab[i % 13].append(c)
        # Kings go to the bottom of their column, two kings keeping their order.
        tab = [[c for c in p if RANK[c] == 12] + [c for c in p if RANK[c] != 12] for p in tab]
        return tab, [0] * 13, []

    def after_deal(self) -> None:
        for i in range(13):
            self.uncovered(i)
        self._scorer(self, None, None)  # the aces sent up at the deal count

    def uncovered(self, pile: Pile) -> Any:
        """Aces go up as soon as they are free; undo needs to know which."""
        p = self.tab[pile]
        aces: tuple[Card, ...] = ()
        while p and RANK[p[-1]] == 0:
            ace = p.pop()
            self.found[SUIT[ace]] += 1
            aces += (ace,)
        return aces

    def undo_uncovered(self, pile: Pile, extra: Any) -> None:
        for ace in reversed(extra):
            self.found[SUIT[ace]] -= 1
            self.tab[pile].append(ace)

    def parse(self, token: str) -> Move:
        t = token.strip().lower()
        m = _TOKEN.match(t)
        if not m:
            raise IllegalMove(
                Reason(
                    "bad_notation",
                    f"{token!r} is not a move: use from+to with columns 1-9, t, j, q, k and h",
                    token=token,
                )
            )
        names = self.column_names
        src = names.index(m["src"])
        if m["dst"] == "h":
            p = self.tab[src]
            return (src, FOUNDATION + (SUIT[p[-1]] if p else 0), 1)
        return (src, names.index(m["dst"]), 1)

    def notation(self, move: Move) -> str:
        src, dst, _ = move
        names = self.column_names
        return names[src] + ("h" if dst >= FOUNDATION else names[dst])
