"""Dead ends (docs/rules.md, Dead ends): whether any move can still change the outcome,
and the stock's touches both this and the finish (``endgame``) turn over.  Functions over a
``Game``; ``endgame`` gives the same names.

>>> from games.engine.klondike import KlondikeOnePass
>>> g = KlondikeOnePass.setup([["9D", "6S", "5H"], ["6C"], ["AS", "QD"]], down=[1, 0, 1])
>>> no_legal_move(g), no_move_matters(g)
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from time import perf_counter
from typing import Any

from .cards import RANK, SUIT
from .game import Game
from .piles import CELL, FOUNDATION, STOCK, WASTE, Move
from .positions import layout, packed, position_key


def _stock_touch(g: Game) -> Move | None:
    if g.stock:
        return (STOCK, WASTE, min(g.draw, len(g.stock)))
    if g.waste and (g.redeals is None or g.redeals_used < g.redeals):
        return (WASTE, STOCK, len(g.waste))
    return None


def _idle_limit(g: Game) -> int:
    return _idle_touches(len(g.stock) + len(g.waste), g.draw)


def _idle_touches(talon: int, draw: int) -> int:
    """Stock touches in a row, without a card going anywhere, after which none ever will.
    With nothing taken from it the talon comes back to the same order at every turn-over,
    so two full cycles (the rest of this one, then a whole one) have shown every card the
    stock can show: a cycle is one touch per ``draw`` cards and one to turn it over."""
    return 2 * (-(-talon // max(draw, 1)) + 1) + 2


def no_legal_move(game: Game, moves: Iterable[Move] | None = None) -> bool:
    """No legal move (docs/rules.md, Dead ends): nothing but the stock moves, and the stock
    brings no playable card.

    Moving a whole pile headed by its deepest card into another empty pile only swaps
    two piles, so it does not count as a move here.
    """
    return bool(_no_legal_move(game, moves, None))


def _no_legal_move(game: Game, moves: Iterable[Move] | None, deadline: float | None) -> bool | None:
    """``no_legal_move``, or None once ``deadline`` (``perf_counter``) has passed."""
    for src, dst, n in game.legal_moves() if moves is None else moves:
        if src == STOCK or dst == STOCK:
            continue
        if src < CELL and dst < CELL and not game.tab[dst] and n == len(game.tab[src]):
            continue
        return False
    if not game.draw:
        return True
    g = game.copy()
    for _ in range(_idle_limit(g)):
        m = _stock_touch(g)
        if m is None:
            break
        g.apply(m)
        if g.waste and any(s == WASTE for s, _, _ in g.single_card_moves()):
            return False
        if deadline is not None and perf_counter() > deadline:
            return None
    return True


def _ordered(g: Game) -> Iterator[Move]:
    """The moves in the order the search tries them: those that send a card up or turn one
    face up first (they end the search at once), then the table's, then the stock (the
    plain stock line was already tried by ``_stock_witness``), and cards taken down from
    the foundations last: tried early, every card that can come down multiplies the
    positions (each order of taking them down and putting them back is one), and the path
    the search finds grows to hundreds of moves that the next move must replay.  (The
    verdict does not depend on this order: it is "dead" only once every position within
    the budget has been seen.)"""
    tab, down = g.tab, g.down
    later: list[Move] = []
    stock: list[Move] = []
    taken_down: list[Move] = []
    for move in g.legal_moves():
        src, dst, n = move
        if FOUNDATION <= dst < STOCK or (
            src < CELL and down[src] and len(tab[src]) - n == down[src]
        ):
            yield move
        elif src == STOCK or dst == STOCK:
            stock.append(move)
        elif FOUNDATION <= src < STOCK:
            taken_down.append(move)
        else:
            later.append(move)
    yield from later
    yield from stock
    yield from taken_down


def _stock_witness(game: Game) -> tuple[Move, ...]:
    """Stock touches that bring a card to the waste that can go up, and that card's move;
    empty when there are none.  Most often what keeps a Klondike game alive, found here
    for the price of the touches rather than a search's move lists."""
    if not game.draw:
        return ()
    g = game.copy()
    g.history = []
    for _ in range(_idle_limit(g)):
        touch = _stock_touch(g)
        if touch is None:
            return ()
        g.apply(touch)
        if g.waste:
            c = g.waste[-1]
            if g.found[SUIT[c]] == RANK[c]:
                return (*(e[0] for e in g.history), (WASTE, FOUNDATION + SUIT[c], 1))
    return ()


def _changes_floor(game: Game, entry: tuple[Move, Any, Any]) -> bool:
    """Did this history entry move a card to or from the foundations, or turn one face up?
    (A card taken down lowers the count a search measures progress from.)"""
    (src, dst, _), _, extra = entry
    return (
        FOUNDATION <= dst < STOCK or FOUNDATION <= src < STOCK or (extra == 1 and game.hides_cards)
    )


def _leads_up(game: Game, path: tuple[Move, ...], deadline: float | None) -> bool | None:
    """Do these moves, played from here, send a card up or turn one?  (A witness that some
    move still matters; each move is checked, as the table may have changed since.)  None
    once ``deadline`` has passed: a search's path can be hundreds of moves long."""
    g = game.copy()
    g.history = []
    floor = game.cards_up
    for move in path:
        if g.reason(move) is not None:
            return False
        g.apply(move)
        if g.cards_up > floor or (g.history[-1][2] == 1 and g.hides_cards):
            return True
        if deadline is not None and perf_counter() > deadline:
            return None
    return False


def _remembered(game: Game, deadline: float | None = None) -> bool | None:
    """The verdict the table's last search still gives, or None when a search is needed.

    ``game.dead_end_memo`` is (verdict, the history entry of the position searched, path).
    Dead: a position reached from a dead one by a move that leaves the foundations and
    the face-down cards alone is dead too (what it can reach is a subset, measured from
    the same count of cards up), so the verdict carries over such a move.  Live: the path
    the search found to progress proves it again if it still works from here -- usually it
    does, as most moves touch other piles."""
    memo, h = game.dead_end_memo, game.history
    if memo is None or not h:
        return None
    dead, mark, path = memo
    if h[-1] is mark:
        return dead  # the same position, asked again
    follows = len(h) >= 2 and h[-2] is mark  # one move on from the position searched
    if dead:
        if not follows or _changes_floor(game, h[-1]):
            return None
        game.dead_end_memo = (True, h[-1], ())
        return True
    if follows and path and h[-1][0] == path[0]:
        path = path[1:]  # the player took the path's first step
    if path and _leads_up(game, path, deadline):
        game.dead_end_memo = (False, h[-1], path)
        return False
    return None


# What a search leaves to remember (see ``_remembered``): its verdict and its path to
# progress, or None when it proved nothing worth carrying to the next move.
Kept = tuple[bool, tuple[Move, ...]] | None


def no_move_matters(game: Game, moves: Iterable[Move] | None = None) -> bool:
    """No move can change the outcome any more (docs/rules.md, Dead ends).

    An exhaustive search of every position reachable without a card going higher on the
    foundations or a face-down card turning; if none of them allows either, nothing can
    ever help.  When the search runs out of budget the answer is False: a dead end is only
    announced when it is certain.  FreeCell (``dead_end_search = False``) keeps its own
    rule: a dead end is no legal move at all.  Each search leaves its verdict on the table
    (see ``_remembered``), so the next move rarely needs one.
    """
    return bool(dead_end_within(game, moves))


def dead_end_within(
    game: Game, moves: Iterable[Move] | None = None, seconds: float | None = None
) -> bool | None:
    """``no_move_matters``, or None when it would take more than ``seconds``.

    Most moves are answered from what the last search left on the table in microseconds,
    but a search can take a hundred milliseconds; a caller that must not wait that long
    (the socket's event loop) asks with a limit and, on None, has ``settle`` give the
    verdict elsewhere.  An answer given within the limit is the one ``no_move_matters``
    gives: the limit only ever turns an answer into None.
    """
    if game.won:
        return False
    deadline = None if seconds is None else perf_counter() + seconds
    # ``moves``: the legal moves, when the caller has them
    stuck = _no_legal_move(game, moves, deadline)
    if stuck is not False:
        return stuck
    if not game.dead_end_search:
        return False
    known = _remembered(game, deadline)
    if known is not None:
        return known
    mark = game.history[-1] if game.history else None
    key = packed(game)
    before = game.dead_end_known.get(key) if game.dead_end_known is not None else None
    verdict: bool | None
    if before is not None:
        verdict, kept = before
    else:
        game.dead_end_memo = None
        verdict, kept = _search(game, deadline)
        if verdict is not None:
            _know(game, key, verdict, kept)
    game.dead_end_memo = (kept[0], mark, kept[1]) if kept is not None and mark is not None else None
    return verdict


def settle(game: Game) -> tuple[bool, Kept]:
    """The verdict ``no_move_matters`` gives, computed afresh (for a copy of the table sent
    to another process, history and all left behind), and what the table it was copied
    from may remember of it: see ``remember``."""
    if game.won:
        return False, None
    if no_legal_move(game):
        return True, None
    if not game.dead_end_search:
        return False, None
    verdict, kept = _search(game, None)
    return bool(verdict), kept


def remember(game: Game, kept: Kept) -> None:
    """Leave ``settle``'s findings on the table it was asked about (still at that position:
    the caller makes sure), as the table's own search would have."""
    if kept is not None and game.history:
        game.dead_end_memo = (kept[0], game.history[-1], kept[1])
    if kept is not None:
        _know(game, packed(game), kept[0], kept)


# Positions a table remembers the verdict of (see ``_know``): enough for the stock's cycle.
_KNOWN = 64


def _know(game: Game, key: bytes, verdict: bool, kept: Kept) -> None:
    """Remember a position's verdict on the table.  A player who turns the stock comes back
    to the same positions at every turn-over (and an undo to the one before), and the
    verdict depends on the position alone, so a search made once is not made again; the
    oldest of ``_KNOWN`` positions is forgotten first."""
    known = game.dead_end_known
    if known is None:
        known = game.dead_end_known = {}
    elif len(known) >= _KNOWN:
        del known[next(iter(known))]
    known[key] = (verdict, kept)


# A path to progress longer than this is shortened before it is kept (see ``_shortened``).
_SHORT_PATH = 60


def _shortened(game: Game, path: tuple[Move, ...]) -> tuple[Move, ...]:
    """A shorter path to progress than the search's: from each position reached, the legal
    move that lands furthest along the path (or makes progress at once).

    The search's path is its stack when progress came, with every detour it took on the
    way (hundreds of moves in Klondike); the next move's verdict replays the kept path, so
    a long one costs every move that follows, and a replay too long for the event loop's
    share sends the verdict to a worker to find the same path again.  Settled off the loop,
    a pass over the path's positions is paid once."""
    g = game.copy()
    g.history = []
    floor = game.cards_up
    along = {layout(g): 0}
    for i, move in enumerate(path, 1):
        g.apply(move)
        along[layout(g)] = i
    for _ in path:
        g.undo()
    out: list[Move] = []
    at = 0
    while at < len(path):
        reach, via = at + 1, path[at]
        for move in g.legal_moves():
            g.apply(move)
            if g.cards_up > floor or (g.history[-1][2] == 1 and g.hides_cards):
                return (*out, move)
            j = along.get(layout(g), -1)
            g.undo()
            if j > reach:
                reach, via = j, move
        out.append(via)
        g.apply(via)
        at = reach
    return tuple(out)


def _search(game: Game, deadline: float | None) -> tuple[bool | None, Kept]:
    """The search behind ``no_move_matters``: its verdict (None: ``deadline`` passed first)
    and what to remember of it."""
    path = _stock_witness(game)
    if path:
        return False, (False, path)
    if game.cannot_progress():
        return True, None  # not kept: a search's verdict, unlike this one, carries over
    floor = game.cards_up
    g = game.copy()
    g.history = []  # unbounded undo for the search, whatever the game's own limit
    seen = {position_key(g)}
    stack = [_ordered(g)]
    while stack:
        if deadline is not None and perf_counter() > deadline:
            return None, None
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                g.undo()
            continue
        g.apply(move)
        turned = g.history[-1][2] == 1 and g.hides_cards
        if g.cards_up > floor or turned:
            path = tuple(e[0] for e in g.history)
            if deadline is None and len(path) > _SHORT_PATH:
                path = _shortened(game, path)
            return False, (False, path)
        key = position_key(g)
        if key in seen:
            g.undo()
            continue
        seen.add(key)
        if len(seen) > game.DEAD_END_BUDGET:
            return False, None
        stack.append(_ordered(g))
    return True, (True, ())
