"""The end of a game: "finish" (cards sent up one by one) and dead ends (docs/rules.md,
Finish and auto finish, Dead ends; the verdicts live in ``dead_ends``, given here by the
same names).  Functions over a ``Game``.

>>> from games.engine.freecell import FreeCell
>>> g = FreeCell.setup([["KS", "QS"], ["KH"]], cells=["QH"],
...                    foundations={"C": 13, "D": 13, "H": 11, "S": 11})
>>> can_finish(g), [g.notation(m) for m in finish_moves(g)]
(True, ['1h', '1h', 'ah', '2h'])
>>> no_legal_move(g), no_move_matters(g)
(False, False)
"""

from __future__ import annotations

from .cards import RANK, SUIT, Card

# The dead-end verdicts, given here by the names this module always gave them (``X as X``:
# re-exported on purpose).
from .dead_ends import Kept as Kept
from .dead_ends import _idle_limit, _idle_touches, _stock_touch
from .dead_ends import dead_end_within as dead_end_within
from .dead_ends import no_legal_move as no_legal_move
from .dead_ends import no_move_matters as no_move_matters
from .dead_ends import remember as remember
from .dead_ends import settle as settle
from .game import Game
from .piles import CELL, EMPTY, FOUNDATION, STOCK, WASTE, Move
from .positions import position_key as position_key


def foundation_move(g: Game) -> Move | None:
    """A card that may go up now from a column end, a free cell or the waste."""
    found = g.found
    for i, p in enumerate(g.tab):
        if p and found[SUIT[p[-1]]] == RANK[p[-1]] and len(p) > g.down[i]:
            return (i, FOUNDATION + SUIT[p[-1]], 1)
    for i, c in enumerate(g.cells):
        if c != EMPTY and found[SUIT[c]] == RANK[c]:
            return (CELL + i, FOUNDATION + SUIT[c], 1)
    if g.waste:
        c = g.waste[-1]
        if found[SUIT[c]] == RANK[c]:
            return (WASTE, FOUNDATION + SUIT[c], 1)
    return None


def finish_moves(game: Game) -> list[Move]:
    """The cards sent up one by one by "finish", with stock turns where needed."""
    g = game.copy()
    out: list[Move] = []
    idle = 0  # stock touches since the last card went up
    while not g.won:
        m = foundation_move(g)
        if m is None and g.draw and idle <= _idle_limit(g):
            m = _stock_touch(g)
            idle += 1
        else:
            idle = 0
        if m is None:
            break
        g.apply(m)
        out.append(m)
    if not g.won:  # drop trailing stock touches that led nowhere
        while out and (out[-1][0] == STOCK or out[-1][1] == STOCK):
            out.pop()
    return out


def _columns_can_empty(game: Game) -> bool:
    """Can every column go up from its end without a card staying on a lower one of its
    suit?  (Finish moves cards only to the foundations, so a column empties from its end:
    a card lying on a lower card of its suit blocks it for good.)  Checked before the
    simulation, which this rules out in most positions at a fraction of its cost."""
    for p in game.tab:
        seen = [-1, -1, -1, -1]  # each suit's highest rank met so far, from the end down
        for c in reversed(p):
            s, r = SUIT[c], RANK[c]
            if r < seen[s]:
                return False
            seen[s] = r
    return True


def can_finish(game: Game) -> bool:
    """Is "finish" (Baker's Dozen's "auto finish") offered now?  Only once it wins: every
    card face up and sending up every card that can go wins.  With a stock, only once the
    stock is empty as well (docs/rules.md, Finish): while it holds cards the player has not
    turned them all, and turning them is the player's to do.  With draw one and unlimited
    passes the rest then always wins; with draw three or limited passes the waste may lie
    in an order the finish cannot play out, which ``finish_wins`` finds."""
    if game.won or (game.draw and game.stock):
        return False
    return finish_wins(game)


def finish_wins(game: Game) -> bool:
    """Would sending up every card that can go (turning the stock as needed) win from here?
    From such a position the rest of a game is mechanical (the fair-play review leaves it out
    of a player's timing), whether or not the game offers "finish" yet."""
    if game.won or any(game.down):
        return False
    if not game.draw and foundation_move(game) is None:
        return False  # nothing can go up now, and without a stock nothing will come
    return _columns_can_empty(game) and _finishes(game)


def _send_up(
    found: list[int], cols: list[list[Card]], cells: list[Card], waste: list[Card]
) -> bool:
    """Every card that can go up from the columns, the cells and the waste, up (in place):
    True when one did."""
    sent = False
    moved = True
    while moved:
        moved = False
        for p in cols:
            while p and found[SUIT[p[-1]]] == RANK[p[-1]]:
                found[SUIT[p.pop()]] += 1
                moved = True
        for c in cells:
            if found[SUIT[c]] == RANK[c]:
                found[SUIT[c]] += 1
                cells.remove(c)
                moved = True
                break
        while waste and found[SUIT[waste[-1]]] == RANK[waste[-1]]:
            found[SUIT[waste.pop()]] += 1
            moved = True
        sent = sent or moved
    return sent


def _finishes(game: Game) -> bool:
    """Does "finish" win from here?  ``finish_moves`` played out on plain lists (this is
    asked after every move, the moves themselves only when the player finishes): every card
    that can go up goes up, then the stock is touched, until the game is won or the stock
    has cycled with nothing going up.  The same answer as playing the moves, in a third of
    the time."""
    found = game.found[:]
    cols = [p[:] for p in game.tab]
    cells = [c for c in game.cells if c != EMPTY]
    stock, waste = game.stock[:], game.waste[:]
    passes = None if game.redeals is None else game.redeals - game.redeals_used
    draw = max(game.draw, 1)
    idle = 0
    while True:
        if _send_up(found, cols, cells, waste):
            idle = 0
        if found == [13, 13, 13, 13]:
            return True
        if not game.draw:
            return False
        # Touch the stock until the waste shows a card that can go up: nothing else changes
        # meanwhile, so the columns need no new look until one does.
        limit = _idle_touches(len(stock) + len(waste), draw)
        while not waste or found[SUIT[waste[-1]]] != RANK[waste[-1]]:
            if idle > limit:
                return False
            if stock:
                for _ in range(min(draw, len(stock))):
                    waste.append(stock.pop())
            elif waste and (passes is None or passes > 0):
                stock, waste = waste[::-1], []
                if passes is not None:
                    passes -= 1
            else:
                return False
            idle += 1
