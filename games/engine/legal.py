"""Which moves are legal: every one of them generated, and any one checked with the reason
the rules refuse it.

Both read only the game's declaration (``table.py``) and the table: what a column takes,
what fills it and which cards leave it are the objects the game names (``columns.py``), so
a new game needs no code here, and a new rule is a new object there.

>>> from games.engine import new_game
>>> g = new_game("freecell", 617)
>>> len(list(g.legal_moves())), g.reason((0, 16, 1))
(35, None)
>>> g.reason((0, 1, 1))
'jack of diamonds cannot go on king of spades: it needs a red queen'
"""

from __future__ import annotations

from .cards import CODE, RANK, RANK_NAMES, SUIT, SUIT_LETTERS, SUIT_NAMES, Card, card_name
from .piles import CELL, EMPTY, FOUNDATION, STOCK, WASTE, Move, Pile
from .reasons import Reason
from .table import Table


class Legal(Table):
    # -- legal moves -----------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move, once per destination and, into empty piles, once per size:
        single cards from the waste, the cells and the foundations, then each column's,
        then the stock's.  (A list each part appends to: cheaper than a chain of generators
        in the inner loop of random playouts and of the dead-end search.)"""
        out = self.single_card_moves()
        self.runs.column_moves(self, out)  # each column's (columns.py)
        if self.draw:
            self._stock_moves(out)
        return out

    def single_card_moves(self) -> list[Move]:
        """The moves of cards that move alone from a pile that is not a column: the waste's
        top first, then the free cells' cards, then the foundations' tops where they may
        come back (the start of ``legal_moves``: the waste's moves, for a dead-end test
        that turns the stock, without the columns')."""
        out: list[Move] = []
        tab, found, fits, takes = self.tab, self.found, self._fits, self.empty_pile.takes
        add = out.append
        singles: list[tuple[Pile, Card]] = []
        if self.waste:
            singles.append((WASTE, self.waste[-1]))
        for i, c in enumerate(self.cells):
            if c != EMPTY:
                singles.append((CELL + i, c))
        if self.foundation_back:
            singles += [(FOUNDATION + s, (found[s] - 1) * 4 + s) for s in range(4) if found[s]]
        for src, c in singles:
            if found[SUIT[c]] == RANK[c]:  # never a foundation's own top
                add((src, FOUNDATION + SUIT[c], 1))
            for j in range(self.columns):
                p = tab[j]
                if p:
                    if fits[c * 52 + p[-1]]:
                        add((src, j, 1))
                elif takes[c]:
                    add((src, j, 1))
        return out

    def _stock_moves(self, out: list[Move]) -> None:
        if self.stock:
            out.append((STOCK, WASTE, min(self.draw, len(self.stock))))
        elif self.waste and (self.redeals is None or self.redeals_used < self.redeals):
            out.append((WASTE, STOCK, len(self.waste)))

    # -- checking --------------------------------------------------------------------------
    def reason(self, move: Move) -> Reason | None:
        """Why ``move`` is illegal now, in one line; None when it is legal."""
        src, dst, n = move
        if src == STOCK or dst == STOCK:
            return self._stock_reason(move)
        if n < 1:
            return Reason("zero_cards", "a move takes at least one card")
        if src == dst:
            return Reason("same_pile", "a card cannot move onto the pile it is on")
        if src < CELL:
            c, why = self._from_column(src, n)
        else:
            c, why = self._single_card(src)
            if why is None and n > 1:
                why = Reason("one_from_there", "only one card moves from there")
        if why is not None:
            return why
        if dst < CELL:
            return self._onto_column(dst, c, n)
        if dst < FOUNDATION:
            return self._into_cell(src, dst, n)
        if dst < STOCK:
            return self._onto_foundation(src, dst, c, n)
        return Reason("not_on_waste", "cards cannot be put on the waste")

    def _single_card(self, src: Pile) -> tuple[Card, Reason | None]:
        """The card that would move from a cell, a foundation or the waste, or why none may."""
        if src < FOUNDATION:
            if src - CELL >= self.free_cells:
                return EMPTY, Reason("no_cell", "there is no such free cell")
            c = self.cells[src - CELL]
            if c == EMPTY:
                return c, Reason(
                    "cell_empty", f"free cell {src - CELL + 1} is empty", n=src - CELL + 1
                )
            return c, None
        if src < STOCK:
            return self._from_foundation(src - FOUNDATION)
        if not self.waste:
            return EMPTY, Reason("waste_empty", "the waste is empty")
        return self.waste[-1], None

    def _from_column(self, src: Pile, n: int) -> tuple[Card, Reason | None]:
        """The card heading the ``n`` cards that would leave column ``src``, or why they
        may not (the game's runs say which groups may: columns.py)."""
        if src >= self.columns:
            return EMPTY, Reason("no_column", f"there is no column {src + 1}", n=src + 1)
        p = self.tab[src]
        if not p:
            return EMPTY, Reason("column_empty", f"column {src + 1} is empty", n=src + 1)
        if n > len(p) - self.down[src]:
            return EMPTY, Reason("face_down", "face-down cards cannot move")
        if n > 1:
            why = self.runs.shape_refusal(self, src, n)
            if why is not None:
                return EMPTY, why
        return p[-n], None

    def _from_foundation(self, suit: int) -> tuple[Card, Reason | None]:
        if not self.foundation_back:
            return EMPTY, Reason(
                "no_come_back",
                f"cards on the foundations do not come back in {self.title}",
                game=self.key,
            )
        c = self.foundation_top(suit)
        if c is None:
            return EMPTY, Reason(
                "found_empty",
                f"the {SUIT_NAMES[suit]} foundation is empty",
                suit=SUIT_LETTERS[suit],
            )
        return c, None

    def _onto_column(self, dst: Pile, c: Card, n: int) -> Reason | None:
        if dst >= self.columns:
            return Reason("no_column", f"there is no column {dst + 1}", n=dst + 1)
        q = self.tab[dst]
        if q:
            if not self._fits[c * 52 + q[-1]]:
                return self.build.refusal(c, q[-1])
        else:
            why = self.empty_pile.refusal(self, c)
            if why is not None:
                return why
        return self.runs.size_refusal(self, n, not q) if n > 1 else None

    def _into_cell(self, src: Pile, dst: Pile, n: int) -> Reason | None:
        if dst - CELL >= self.free_cells:
            if not self.free_cells:
                return Reason(
                    "no_free_cells", f"there are no free cells in {self.title}", game=self.key
                )
            return Reason("no_cell", "there is no such free cell")
        if CELL <= src < FOUNDATION:
            return Reason("cell_to_cell", "a card does not move from one free cell to another")
        if n > 1:
            return Reason("cell_one", "a free cell holds one card")
        if self.cells[dst - CELL] != EMPTY:
            return Reason("cell_taken", f"free cell {dst - CELL + 1} is taken", n=dst - CELL + 1)
        return None

    def _onto_foundation(self, src: Pile, dst: Pile, c: Card, n: int) -> Reason | None:
        if n > 1:
            return Reason("one_at_a_time", "cards go up to the foundations one at a time")
        suit = SUIT[c]
        if dst - FOUNDATION != suit:
            return Reason(
                "belongs",
                f"{card_name(c)} belongs on the {SUIT_NAMES[suit]} foundation",
                card=CODE[c],
                suit=SUIT_LETTERS[suit],
            )
        have = self.found[suit]
        if have != RANK[c]:
            if have == 13:
                return Reason(
                    "complete",
                    f"the {SUIT_NAMES[suit]} foundation is complete",
                    suit=SUIT_LETTERS[suit],
                )
            return Reason(
                "not_yet",
                f"{card_name(c)} cannot go up yet: the {SUIT_NAMES[suit]} "
                f"foundation needs the {RANK_NAMES[have]} first",
                card=CODE[c],
                suit=SUIT_LETTERS[suit],
                rank=RANK_NAMES[have],
            )
        if FOUNDATION <= src < STOCK:
            return Reason("already_up", "that card is already on its foundation")
        return None

    def _stock_reason(self, move: Move) -> Reason | None:
        src, dst, n = move
        if not self.draw:
            return Reason("no_stock", f"there is no stock in {self.title}", game=self.key)
        if src == STOCK and dst == WASTE:
            if not self.stock:
                return Reason("stock_empty", "the stock is empty: turn the waste back over instead")
            if n != min(self.draw, len(self.stock)):
                k = min(self.draw, len(self.stock))
                return Reason("stock_turns", f"the stock turns {k} card(s) at a time", n=k)
            return None
        if src == WASTE and dst == STOCK:
            if self.stock:
                return Reason("waste_back", "the waste goes back only once the stock is empty")
            if not self.waste:
                return Reason("nothing_back", "there are no cards to turn back")
            if self.redeals is not None and self.redeals_used >= self.redeals:
                return Reason("no_passes", "no passes through the stock are left in this game")
            if n != len(self.waste):
                return Reason("whole_waste", "the whole waste turns back at once")
            return None
        return Reason("not_on_stock", "cards cannot be put on the stock")
