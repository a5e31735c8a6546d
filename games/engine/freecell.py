"""FreeCell with Microsoft's deals.

Standard notation, as public solvers print it: columns ``1``-``8``, free cells ``a``-``d``
(positional: a card stays in its cell), ``h`` for the foundations.  A run between columns
may carry its size, ``26v4``; ten or more may be written as one letter (``26va`` = 10).
Without a size the run is the one whose first card fits the destination; into an empty
column that is a single card (public solvers always write the size of a longer run).
"""

from __future__ import annotations

import re
import secrets

from .cards import RANK, SUIT, Card
from .columns import ALTERNATE, ANY_CARD, SUPERMOVE
from .deals import ms_deal, ms_number_from_digest
from .game import Game, IllegalMove
from .piles import CELL, EMPTY, FOUNDATION, Move, Pile
from .reasons import Reason
from .scoring import NONE

# Among Microsoft's deals 1..32000 only 11982 has no solution (docs/rules.md, FreeCell).
UNSOLVABLE_DEALS = frozenset({11982})
_TOKEN = re.compile(r"^(?P<src>[1-8a-dh])(?P<dst>[1-8a-dh])(?:v(?P<n>\d+|[a-z]))?$")


class FreeCell(Game):
    """docs/rules.md, FreeCell."""

    key, title, daily = "freecell", "FreeCell", True
    rules = (
        "All 52 cards are dealt face up into 8 columns. Four free cells hold one card each. "
        "Build the four foundations up by suit, from ace to king.",
        "Columns build down in alternating colours: a red six on a black seven. An empty "
        "column takes any card or run.",
        "A run of cards moves as one if the free cells and empty columns would allow it card "
        "by card: the status bar shows the limit as “Move N”.",
        "Cards on the foundations never come back. Undo is unlimited.",
    )
    controls = (
        "Tap a card that can go up and it goes to its foundation. Long-press a column to "
        "choose how many cards to take.",
        "Keys: ←/→ move between piles, ↑/↓ pick a card in a column, Enter select, drop or send "
        "up, Space pick, Esc cancel, U undo, H hint, N new deal, F finish.",
    )
    solver = "freecell"
    public_deal_numbers = True  # Microsoft's deal numbers (docs/deals.md)
    # Tertiles of effort per move (bench/difficulty.py, 2026-12-01: 35 certified dailies
    # from 2027-01-01; quartiles 5.50, 7.71, 12.8, max 83).
    effort_per_move = (6.5, 10.0)
    columns = 8
    free_cells = 4
    build = ALTERNATE
    empty_pile = ANY_CARD
    runs = SUPERMOVE
    scoring = NONE  # FreeCell keeps no score
    ranked_by_time = True  # with no score, time then moves
    dead_end_search = False
    column_names = "12345678"
    foundation_from = "h"  # read, to be refused: foundation cards never come back

    def deal(self, seed: int) -> tuple[list[list[Card]], list[int], list[Card]]:
        tab: list[list[Card]] = [[] for _ in range(8)]
        for i, c in enumerate(ms_deal(seed)):
            tab[i % 8].append(c)
        return tab, [0] * 8, []

    # FreeCell deals are Microsoft's numbers, which players know and share; every card is
    # face up, so a small number space hides nothing (docs/deals.md, Dailies).
    @classmethod
    def seed_from_digest(cls, digest: bytes) -> int:
        return ms_number_from_digest(digest)

    @classmethod
    def random_seed(cls) -> int:
        while True:
            n = secrets.randbelow(32000) + 1
            if n not in UNSOLVABLE_DEALS:
                return n

    @staticmethod
    def _pile(ch: str) -> Pile:
        if ch.isdigit():
            return int(ch) - 1
        if ch == "h":
            return FOUNDATION
        return CELL + "abcd".index(ch)

    def parse(self, token: str) -> Move:
        t = token.strip().lower()
        m = _TOKEN.match(t)
        if not m:
            raise IllegalMove(
                Reason(
                    "bad_notation",
                    f"{token!r} is not a move: use from+to with columns 1-8, cells a-d, h",
                    token=token,
                )
            )
        src, dst, n = self._pile(m["src"]), self._pile(m["dst"]), m["n"]
        if src == FOUNDATION:
            raise IllegalMove(
                Reason(
                    "no_come_back",
                    "cards on the foundations do not come back in FreeCell",
                    game=self.key,
                )
            )
        if n:
            count = int(n) if n.isdigit() else ord(n) - ord("a") + 10
            if count < 1:
                raise IllegalMove(Reason("zero_cards", "a move takes at least one card"))
        else:
            count = 1
        if src < CELL:
            p = self.tab[src]
            card = p[-1] if p else None
        else:
            c = self.cells[src - CELL]
            card = None if c == EMPTY else c
        if dst == FOUNDATION:
            return (src, FOUNDATION + (SUIT[card] if card is not None else 0), count)
        if n or src >= CELL or dst >= CELL or card is None:
            return (src, dst, count)
        run = self.run_length(src)
        q = self.tab[dst]
        if q:
            want = RANK[q[-1]] - RANK[card]
            if 1 <= want <= run:
                count = want
        return (src, dst, count)

    def notation(self, move: Move) -> str:
        src, dst, n = move

        def name(p: Pile) -> str:
            if p < CELL:
                return self.column_names[p]
            if p < FOUNDATION:
                return "abcd"[p - CELL]
            return "h"

        text = name(src) + name(dst)
        if n > 1:
            text += f"v{n}"
        return text
