"""Yukon: Klondike's deal with the stock dealt face up onto the piles, and any face-up
group moves whatever its order (docs/rules.md, Yukon).

Notation: Klondike's, with no stock and no foundation to take a card from.  Between columns
the size is written (``52v3``) whenever more than one card moves: a group need not be in
order, so two of its cards may fit the same place.  Without a size a token moves the
smallest group whose first card fits (the top card alone when it fits).

>>> from games.engine import new_game
>>> g = new_game("yukon", 3)
>>> [len(p) for p in g.tab], g.down, g.stock
([1, 6, 7, 8, 9, 10, 11], [0, 1, 2, 3, 4, 5, 6], [])
>>> g.notation((6, 2, 4)), g.parse("73v4")
('73v4', (6, 2, 4))
"""

from __future__ import annotations

from .cards import Card
from .columns import ALTERNATE, FACE_UP_GROUPS, KINGS_ONLY
from .klondike import TURNS_UP, KlondikeFamily
from .piles import CELL, Move
from .scoring import AISLERIOT


class Yukon(KlondikeFamily):
    key, title = "yukon", "Yukon"
    rules = (
        "Seven piles: the first gets one card, face up; pile n gets n − 1 cards face down, "
        "then five face up. All 52 cards are dealt: there is no stock.",
        "Piles build down in alternating colours. Any face-up card moves together with "
        "every card on top of it, whatever their order, if it fits where it goes.",
        "An empty pile takes only a king, alone or with the cards on top of it.",
        TURNS_UP,
        "Foundations build up by suit from ace to king; a card sent up stays there.",
    )
    controls = (
        "Tap a card that can go up and it goes to its foundation. Tap or drag any other "
        "face-up card to take it with every card on top of it.",
        "Once every card is face up and they can all go up, the third button reads "
        "“Finish”: it sends them up one by one.",
    )
    build = ALTERNATE
    empty_pile = KINGS_ONLY
    runs = FACE_UP_GROUPS
    draw = 0
    foundation_back = False
    foundation_from = None  # nothing comes back from a foundation
    # Face down in piles 2 to 7: hints are searched on samples, the leak and seed-space
    # tests cover it, the analysis and dead ends say nothing a hidden card decides.
    hides_cards = True
    scoring = AISLERIOT  # Aisleriot's Yukon: a point a card up
    daily = False
    solver = "yukon"
    tap_to_best = False  # its domain cannot rank moves blind to the face-down cards

    def deal(self, seed: int) -> tuple[list[list[Card]], list[int], list[Card]]:
        """Klondike's 28 cards in Aisleriot's order, then the 24 others face up, four
        rounds over piles 2 to 7."""
        tab, down, stock = super().deal(seed)
        rest = stock[::-1]  # the deck's order: the next card dealt first
        for r in range(4):
            for p in range(1, 7):
                tab[p].append(rest[r * 6 + p - 1])
        return tab, down, []

    def parse(self, token: str) -> Move:
        move = super().parse(token)
        src, dst, _ = move
        if src < CELL and dst < CELL and "v" not in token.lower():
            return (src, dst, self._group_size(src, dst))
        return move

    def _group_size(self, src: int, dst: int) -> int:
        """The smallest face-up group of column ``src`` whose first card fits on column
        ``dst`` (1 when none does: the refusal then says why the top card does not)."""
        p, q = self.tab[src], self.tab[dst]
        for k in range(1, len(p) - self.down[src] + 1):
            if self._fits[p[-k] * 52 + q[-1]] if q else self.empty_pile.takes[p[-k]]:
                return k
        return 1

    def notation(self, move: Move) -> str:
        src, dst, n = move
        token = super().notation(move)
        return f"{token}v{n}" if n > 1 and src < CELL and dst < CELL else token
