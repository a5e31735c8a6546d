"""Where a tap sends a card (docs/rules.md, Mouse and touch): in the games that declare
``tap_to_best``, one tap sends a card to its best destination, ranked the way the hint's
heuristic ranks moves; the state marks those moves ``best`` (docs/api.md, Move objects),
so the page chooses among the server's moves and holds no rule of its own.

For every card a tap can take (a pile, and the cards from it down), the best of its legal
destinations:

* its foundation, when the card is one that nothing could ever need on the table (an ace,
  a two, or a card whose rank below is up in both suits of the other colour: the cards
  the hint's search sends up by itself);
* otherwise the destination whose position the hint's heuristic likes best (face-down
  cards, cards not home, cards lying on a lower card of their column), a move that only
  takes the previous one back last.

The ranking uses the game's own solver domain (solver/registry.py): its heuristic, on the
position after the move with the cards its search would send up by itself sent up.  In a
game that hides cards the domain must see the table as the player does
(``seen_after``: a face-down card counts as one, whatever it is, and the stock only as its
size), so the ranking never depends on a card the player has not seen; a game that hides
cards and whose domain cannot do that marks no move ``best`` rather than peek.

>>> from games.engine import seen
>>> from games.engine.klondike import Klondike
>>> g = Klondike.setup([["KS"], ["KD", "QC"], ["JD"], ["2C"]], foundations={"C": 1})
>>> [m["move"] for m in seen.state(g)["legal_moves"] if m.get("best")]
['32', '4h']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .game import Game
from .piles import CELL, FOUNDATION, STOCK, WASTE, Move
from .solver.klondike_autoplay import safe_cards
from .solver.registry import solver_for
from .undo import previous_move, undoes


def best_moves(game: Game, moves: Iterable[Move]) -> set[Move]:
    """The move a tap plays for each card that has somewhere to go (empty unless the game
    declares ``tap_to_best``).  A card whose only moves the search never makes (a king
    already at the bottom of its pile, moved into another empty pile) has none: a tap then
    picks it, as in the other games."""
    if not game.tap_to_best or game.won:
        return set()
    groups: dict[tuple[int, int], list[Move]] = {}
    for m in moves:
        src, dst, n = m
        if src == STOCK or dst == STOCK or FOUNDATION <= src < STOCK:
            continue  # the stock is touched, and a foundation's card is picked, not sent
        if src < CELL and dst < CELL and n == len(game.tab[src]) and not game.tab[dst]:
            continue  # a whole pile into an empty one only swaps two piles
        groups.setdefault((src, n), []).append(m)
    if not groups:
        return set()
    safe = safe_cards(list(game.found)) if game.build.other_colour else ()
    prev = previous_move(game)
    out: set[Move] = set()
    score: Callable[[Move], int] | None = None
    for (src, n), group in groups.items():
        if len(group) == 1:
            out.add(group[0])  # one destination: nothing to rank (most cards, most moves)
            continue
        card = (
            game.waste[-1]
            if src == WASTE
            else game.tab[src][-n]
            if src < CELL
            else game.cells[src - CELL]
        )
        up = [m for m in group if FOUNDATION <= m[1] < STOCK]
        if up and card in safe and not undoes(up[0], prev):
            out.add(up[0])
            continue
        if score is None:  # built only for a card with a choice: it is most of the cost
            score = _scorer(game)
            if score is None:
                return set()
        rank = score
        out.add(min(group, key=lambda m: (undoes(m, prev), rank(m), group.index(m))))
    return out


def _scorer(game: Game) -> Callable[[Move], int] | None:
    """The heuristic's score of the position after a move, from the game's own domain;
    None when the game hides cards and its domain cannot score a move without them."""
    try:
        dom = solver_for(game).domain(game)
    except ValueError:  # a game with no solver: nothing to rank by
        return None
    seen_after = getattr(dom, "seen_after", None)
    if seen_after is not None:
        return lambda m: int(dom.heuristic(seen_after(m)))
    if game.hides_cards:
        return None

    def after(m: Move) -> int:
        g = game.copy()
        g.apply(m)
        d = solver_for(g).domain(g)
        return int(d.heuristic(d.initial()))

    return after
