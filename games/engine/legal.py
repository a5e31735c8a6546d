"""Which moves are legal: every one of them generated, and any one checked with the reason
the rules refuse it.

Both read only the game's declaration (``table.py``) and the table, so a new game that
combines the known pile behaviours needs no code here.

>>> from games.engine import new_game
>>> g = new_game("freecell", 617)
>>> len(list(g.legal_moves())), g.reason((0, 16, 1))
(35, None)
>>> g.reason((0, 1, 1))
'jack of diamonds cannot go on king of spades: it needs a red queen'
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import CODE, RANK, RANK_NAMES, RED, SUIT, SUIT_LETTERS, SUIT_NAMES, Card, card_name
from .piles import (
    ALTERNATE,
    CELL,
    EMPTY,
    FOUNDATION,
    FREE_RUNS,
    KINGS_ONLY,
    NEVER_REFILLED,
    SINGLE_CARD,
    STOCK,
    SUPERMOVE,
    WASTE,
    Move,
    Pile,
)
from .reasons import Reason
from .table import Table


class Legal(Table):
    # -- legal moves -----------------------------------------------------------------------
    def legal_moves(self) -> Iterator[Move]:
        """Every legal move, once per destination and, into empty piles, once per size."""
        tab, found, fits = self.tab, self.found, self._fits
        ncols = self.columns
        empties = [j for j in range(ncols) if not tab[j]]
        kings_only = self.empty_pile == KINGS_ONLY
        fill_empty = self.empty_pile != NEVER_REFILLED

        # Single cards that may land anywhere: waste top, free cells, foundation tops.
        singles: list[tuple[Pile, Card]] = []
        if self.waste:
            singles.append((WASTE, self.waste[-1]))
        for i, c in enumerate(self.cells):
            if c != EMPTY:
                singles.append((CELL + i, c))
        for src, c in singles:
            if found[SUIT[c]] == RANK[c]:
                yield (src, FOUNDATION + SUIT[c], 1)
            for j in range(ncols):
                p = tab[j]
                if p:
                    if fits[c * 52 + p[-1]]:
                        yield (src, j, 1)
                elif fill_empty and (not kings_only or RANK[c] == 12):
                    yield (src, j, 1)
        if self.foundation_back:
            for s in range(4):
                if found[s]:
                    c = (found[s] - 1) * 4 + s
                    for j in range(ncols):
                        p = tab[j]
                        if p:
                            if fits[c * 52 + p[-1]]:
                                yield (FOUNDATION + s, j, 1)
                        elif fill_empty and (not kings_only or RANK[c] == 12):
                            yield (FOUNDATION + s, j, 1)

        free = [CELL + i for i, c in enumerate(self.cells) if c == EMPTY]
        # Columns by the rank of their top card: a single card only fits on a top one rank
        # above it, so it looks at those columns, not at every one.
        by_rank: list[list[Pile]] = [[] for _ in range(14)]
        for j in range(ncols):
            if tab[j]:
                by_rank[RANK[tab[j][-1]]].append(j)
        to_empty = fill_empty and bool(empties)
        runs = self.runs
        if runs == SUPERMOVE:
            ncells = len(free) + 1
            limit_full = ncells << len(empties)
            limit_empty = ncells << max(len(empties) - 1, 0)
        elif runs == FREE_RUNS:
            limit_full = limit_empty = 52
        else:
            limit_full = limit_empty = 1
        for i in range(ncols):
            p = tab[i]
            if not p:
                continue
            top = p[-1]
            if found[SUIT[top]] == RANK[top]:
                yield (i, FOUNDATION + SUIT[top], 1)
            for cell in free:
                yield (i, cell, 1)
            run = self.run_length(i) if limit_full > 1 else 1
            top_rank = RANK[top]
            longest = min(run, limit_full)
            if longest == 1 and not to_empty:
                for j in by_rank[top_rank + 1]:
                    if fits[top * 52 + tab[j][-1]]:
                        yield (i, j, 1)
                continue
            for j in range(ncols):  # runs: one look at each column, in order
                if j == i:
                    continue
                q = tab[j]
                if q:
                    # The only run start that can fit: the card one rank below q's top.
                    k = RANK[q[-1]] - top_rank
                    if 1 <= k <= longest and fits[p[-k] * 52 + q[-1]]:
                        yield (i, j, k)
                elif to_empty:
                    if kings_only:
                        k = 13 - top_rank  # the king heading the run
                        if k <= run and RANK[p[-k]] == 12:
                            yield (i, j, k)
                    else:
                        for k in range(1, min(run, limit_empty) + 1):
                            yield (i, j, k)
        if self.draw:
            if self.stock:
                yield (STOCK, WASTE, min(self.draw, len(self.stock)))
            elif self.waste and (self.redeals is None or self.redeals_used < self.redeals):
                yield (WASTE, STOCK, len(self.waste))

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
        # What is being moved?
        if src < CELL:
            if src >= self.columns:
                return Reason("no_column", f"there is no column {src + 1}", n=src + 1)
            p = self.tab[src]
            if not p:
                return Reason("column_empty", f"column {src + 1} is empty", n=src + 1)
            if n > len(p) - self.down[src]:
                return Reason("face_down", "face-down cards cannot move")
            if n > 1:
                if self.runs == SINGLE_CARD:
                    return Reason("top_only", f"only the top card of a column moves in {self.title}",
                                  game=self.key)
                if n > self.run_length(src):
                    return Reason("not_run", "those cards are not an ordered run")
            c = p[-n]
        elif src < FOUNDATION:
            if src - CELL >= self.free_cells:
                return Reason("no_cell", "there is no such free cell")
            c = self.cells[src - CELL]
            if c == EMPTY:
                return Reason("cell_empty", f"free cell {src - CELL + 1} is empty", n=src - CELL + 1)
        elif src < STOCK:
            if not self.foundation_back:
                return Reason("no_come_back",
                              f"cards on the foundations do not come back in {self.title}",
                              game=self.key)
            c_or_none = self.foundation_top(src - FOUNDATION)
            if c_or_none is None:
                return Reason("found_empty",
                              f"the {SUIT_NAMES[src - FOUNDATION]} foundation is empty",
                              suit=SUIT_LETTERS[src - FOUNDATION])
            c = c_or_none
        else:
            if not self.waste:
                return Reason("waste_empty", "the waste is empty")
            c = self.waste[-1]
        if n > 1 and src >= CELL:
            return Reason("one_from_there", "only one card moves from there")
        # Where is it going?
        if dst < CELL:
            if dst >= self.columns:
                return Reason("no_column", f"there is no column {dst + 1}", n=dst + 1)
            q = self.tab[dst]
            if q:
                if not self._fits[c * 52 + q[-1]]:
                    return self._cannot_go_on(c, q[-1])
            elif self.empty_pile == NEVER_REFILLED:
                return Reason("never_filled",
                              f"an empty column is never filled again in {self.title}",
                              game=self.key)
            elif self.empty_pile == KINGS_ONLY and RANK[c] != 12:
                return Reason("king_only",
                              "only a king, or a run headed by a king, can go into an empty pile")
            if n > 1 and self.runs == SUPERMOVE:
                limit = self.move_limit(to_empty=not q)
                if n > limit:
                    return Reason("supermove",
                                  f"moving {n} cards needs more free cells or empty columns "
                                  f"({limit} at most now)", n=n, max=limit)
            return None
        if dst < FOUNDATION:
            if dst - CELL >= self.free_cells:
                if not self.free_cells:
                    return Reason("no_free_cells", f"there are no free cells in {self.title}",
                                  game=self.key)
                return Reason("no_cell", "there is no such free cell")
            if src >= CELL and src < FOUNDATION:
                return Reason("cell_to_cell", "a card does not move from one free cell to another")
            if n > 1:
                return Reason("cell_one", "a free cell holds one card")
            if self.cells[dst - CELL] != EMPTY:
                return Reason("cell_taken", f"free cell {dst - CELL + 1} is taken", n=dst - CELL + 1)
            return None
        if dst < STOCK:
            if n > 1:
                return Reason("one_at_a_time", "cards go up to the foundations one at a time")
            if dst - FOUNDATION != SUIT[c]:
                return Reason("belongs",
                              f"{card_name(c)} belongs on the {SUIT_NAMES[SUIT[c]]} foundation",
                              card=CODE[c], suit=SUIT_LETTERS[SUIT[c]])
            have = self.found[SUIT[c]]
            if have != RANK[c]:
                if have == 13:
                    return Reason("complete", f"the {SUIT_NAMES[SUIT[c]]} foundation is complete",
                                  suit=SUIT_LETTERS[SUIT[c]])
                return Reason("not_yet",
                              f"{card_name(c)} cannot go up yet: the {SUIT_NAMES[SUIT[c]]} "
                              f"foundation needs the {RANK_NAMES[have]} first",
                              card=CODE[c], suit=SUIT_LETTERS[SUIT[c]], rank=RANK_NAMES[have])
            if src >= FOUNDATION and src < STOCK:
                return Reason("already_up", "that card is already on its foundation")
            return None
        return Reason("not_on_waste", "cards cannot be put on the waste")

    def _cannot_go_on(self, c: Card, onto: Card) -> Reason:
        # need: the rank wanted (None on an ace), colour: the colour wanted, if any.
        if RANK[onto] == 0:
            need, colour, text = None, None, "nothing goes on an ace"
        else:
            need = RANK_NAMES[RANK[onto] - 1]
            colour = ("black" if RED[onto] else "red") if self.build == ALTERNATE else None
            if colour:
                text = f"it needs a {colour} {need}"
            else:
                text = f"it needs {'an' if need[0] in 'aeiou' else 'a'} {need}"
        return Reason("cannot_go_on", f"{card_name(c)} cannot go on {card_name(onto)}: {text}",
                      card=CODE[c], onto=CODE[onto], need=need, colour=colour)

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
