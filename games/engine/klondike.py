"""The Klondike family: Klondike and its variants, and Whitehorse.

Notation (one token per move, case-insensitive):

* ``s`` turns cards from the stock onto the waste; ``r`` turns the waste back over.
* ``XY`` moves from X to Y.  X is a column ``1``-``7``, ``w`` (the waste's top card) or
  ``f`` + a suit letter (that foundation's top card, e.g. ``fh3``).  Y is a column or ``h``
  (the card's foundation).  Between columns the run is the one whose first card fits; an
  explicit size may follow as ``vN`` (``52v3``).
"""

from __future__ import annotations

import re
from typing import ClassVar

from .cards import RANK, SUIT, SUIT_LETTERS, Card
from .columns import ALTERNATE, FREE_RUNS, KINGS_ONLY
from .deals import shuffled_deck
from .game import Game, IllegalMove
from .piles import CELL, FOUNDATION, STOCK, WASTE, Move, Pile
from .reasons import Reason
from .scoring import AISLERIOT, WINDOWS

# The rules page's sentences the family shares (Table.rules, Table.controls).
DEAL = (
    "Seven piles: pile n gets n cards, only the last one face up. The other 24 cards are the stock."
)
BUILD = (
    "Piles build down in alternating colours. Any ordered face-up run moves as a unit. "
    "An empty pile takes only a king, or a run headed by a king."
)
TURNS_UP = "A face-down card that is uncovered turns face up by itself."
COME_BACK = (
    "Foundations build up by suit from ace to king; their top card may come back down "
    "onto the piles."
)
TAP = (
    "Tap a card and it goes where it can go: to its foundation when no card could need it "
    "any more, otherwise to the best place for it, a pile as well as a foundation. Drag a "
    "card to put it elsewhere."
)
FINISH = (
    "Once every card is face up, the stock is empty and the cards can all go up, “tap to "
    "finish” shows: tap anywhere on the table or press Enter and the cards go up one by "
    "one. Any press stops them; Undo brings them back one at a time."
)

_TOKEN = re.compile(r"^(?P<src>[1-7]|w|f[cdhs])(?P<dst>[1-7]|h|f)(?:v(?P<n>\d+))?$")


class KlondikeFamily(Game):
    """docs/rules.md, Klondike and its variants."""

    columns = 7
    build = ALTERNATE
    empty_pile = KINGS_ONLY
    runs = FREE_RUNS
    foundation_back = True
    hides_cards = True  # face down in the columns (not in Whitehorse) and in the stock
    undo_limit = 400
    # Windows' scoring, as the Klondike rule text gives it; the variants from Aisleriot's
    # manual score its way (docs/rules.md, Scores).
    scoring = WINDOWS
    # Tertiles of effort per move (bench/difficulty.py, 2026-12-01: 35 certified Klondike
    # dailies from 2027-01-01; quartiles 0.99, 1.25, 3.47, max 685).  Most lines go nearly
    # straight; the variants with no daily keep these too.
    effort_per_move = (1.1, 2.1)
    column_names = "1234567"
    foundation_from: ClassVar[str | None] = "f{suit}"  # Table's type: a variant may have none
    tap_to_best = True
    solver = "klondike"
    controls = (TAP, FINISH)

    def deal(self, seed: int) -> tuple[list[list[Card]], list[int], list[Card]]:
        """Aisleriot's order: round r gives pile r a face-up card and piles r+1.. a
        face-down one.  The stock holds the rest; its next card is the next one dealt."""
        deck = shuffled_deck(seed)
        tab: list[list[Card]] = [[] for _ in range(7)]
        i = 0
        for r in range(7):
            for p in range(r, 7):
                tab[p].append(deck[i])
                i += 1
        return tab, list(range(7)), deck[i:][::-1]

    def parse(self, token: str) -> Move:
        t = token.strip().lower()
        if t == "s":
            return (STOCK, WASTE, min(self.draw, len(self.stock)) or 1)
        if t == "r":
            return (WASTE, STOCK, len(self.waste) or 1)
        m = _TOKEN.match(t)
        if not m:
            raise IllegalMove(
                Reason(
                    "bad_notation",
                    f"{token!r} is not a move: use s, r, or from+to with columns 1-7, w, fS, h",
                    token=token,
                )
            )
        a, b, n = m["src"], m["dst"], m["n"]
        if a == "w":
            src = WASTE
        elif a[0] == "f":
            src = FOUNDATION + SUIT_LETTERS.lower().index(a[1])
        else:
            src = int(a) - 1
        card = self._card_at(src)
        if b in ("h", "f"):
            if card is None:
                return (src, FOUNDATION, 1)  # the reason will say the source is empty
            return (src, FOUNDATION + SUIT[card], int(n) if n else 1)
        dst = int(b) - 1
        if n:
            return (src, dst, int(n))
        count = 1
        if src < CELL and card is not None:
            p, face_up = self.tab[src], len(self.tab[src]) - self.down[src]
            q = self.tab[dst]
            want = RANK[q[-1]] - RANK[p[-1]] if q else 13 - RANK[p[-1]]
            if 1 <= want <= face_up:
                count = want
        return (src, dst, count)

    def _card_at(self, src: Pile) -> Card | None:
        if src < CELL:
            p = self.tab[src]
            return p[-1] if p else None
        if src == WASTE:
            return self.waste[-1] if self.waste else None
        return self.foundation_top(src - FOUNDATION)

    def notation(self, move: Move) -> str:
        src, dst, n = move
        if src == STOCK:
            return "s"
        if dst == STOCK:
            return "r"
        if src == WASTE:
            a = "w"
        elif src >= FOUNDATION:
            a = "f" + SUIT_LETTERS[src - FOUNDATION].lower()
        else:
            a = self.column_names[src]
        b = "h" if dst >= FOUNDATION else self.column_names[dst]
        return a + b


class Klondike(KlondikeFamily):
    key, title, draw, redeals, daily = "klondike", "Klondike", 1, None, True
    rules = (
        DEAL,
        BUILD,
        TURNS_UP,
        "Touch the stock to turn one card onto the waste. When the stock is empty, a "
        "touch turns the waste back over, as often as you like.",
        COME_BACK,
    )
    # Drawing one with unlimited passes, every card can go up once all are face up.
    controls = (
        TAP,
        "Once every card is face up and the stock is empty, “tap to finish” "
        "shows: tap anywhere on the table or press Enter and the cards go up one by "
        "one. Any press stops them; Undo brings them back one at a time.",
    )


class KlondikeDraw3(KlondikeFamily):
    key, title, draw, redeals, daily = "klondike-draw3", "Klondike (draw three)", 3, None, True
    rules = (
        DEAL,
        BUILD,
        TURNS_UP,
        "Touch the stock to turn three cards onto the waste; only the top waste card "
        "plays. When the stock is empty, a touch turns the waste back over.",
        COME_BACK,
    )
    scoring = AISLERIOT  # one of Aisleriot's options: its score, a point a card up
    # Tertiles (bench/difficulty.py, 2026-12-01: 35 certified dailies from 2027-01-01;
    # quartiles 1.22, 2.23, 17.5, max 1188): the stock in threes makes a longer tail.
    effort_per_move = (1.3, 6.4)


class KlondikeThreePasses(KlondikeFamily):
    key, title, draw, redeals = "klondike-3-passes", "Klondike (three passes)", 1, 2
    rules = (
        DEAL,
        BUILD,
        TURNS_UP,
        "Touch the stock to turn one card onto the waste. You may go through the stock "
        "three times.",
        COME_BACK,
    )
    scoring = AISLERIOT  # one of Aisleriot's options: its score, a point a card up


class KlondikeOnePass(KlondikeFamily):
    key, title, draw, redeals = "klondike-1-pass", "Klondike (one pass)", 1, 0
    rules = (
        DEAL,
        BUILD,
        TURNS_UP,
        "Touch the stock to turn one card onto the waste. You go through the stock only once.",
        COME_BACK,
    )
    scoring = AISLERIOT  # one of Aisleriot's options: its score, a point a card up


class Whitehorse(KlondikeFamily):
    """docs/rules.md, Whitehorse: one face-up card per pile, the other 45 in the stock;
    draw three."""

    key, title, draw, redeals, daily = "whitehorse", "Whitehorse", 3, None, True
    rules = (
        "Each of the 7 piles starts with one card, face up; the other 45 cards are the "
        "stock. The stock turns three cards at a time, as often as you like.",
        BUILD,
        COME_BACK,
    )
    # Tertiles (bench/difficulty.py, 2026-12-01: 35 certified dailies from 2027-01-01;
    # quartiles 0.62, 0.75, 0.92, max 228): with no card face down in the columns the
    # search seldom backs up, so the bands are narrow.
    effort_per_move = (0.67, 0.83)

    def deal(self, seed: int) -> tuple[list[list[Card]], list[int], list[Card]]:
        deck = shuffled_deck(seed)
        return [[c] for c in deck[:7]], [0] * 7, deck[7:][::-1]
