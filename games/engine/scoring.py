"""How a game keeps its score (docs/rules.md, Scores): each game class declares one scheme
by name (``Table.scoring``), the one its rule text gives, and the scheme's function sets
``game.score`` after each move (``move`` None: the table as dealt, for the schemes that
count what is on the foundations).  Undo puts back the score the move found (game.py), so
a scheme only ever looks forward.

* ``windows``: Windows Solitaire's, from the Klondike rule text: +10 a card up, +5 a card
  from the waste to the tableau, +5 a card turned face up, -15 a card back down from a
  foundation, never below 0.
* ``aisleriot``: Aisleriot's manual, whose option list the Klondike variants come from:
  one point a card on the foundations, 52 at most.
* ``five-a-card``: Baker's Dozen's text: 5 points a card up, 500 more once all 52 are up
  (the server adds the time bonus: ``Table.time_bonus``).
* ``none``: FreeCell keeps no score (``null`` in the API).

>>> from games.engine import new_game
>>> g = new_game("klondike-draw3", 7, scoring=WINDOWS)
>>> g.scoring, g.has_score, new_game("klondike-draw3", 7).scoring
('windows', True, 'aisleriot')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .piles import FOUNDATION, STOCK, WASTE, Move

NONE, WINDOWS, AISLERIOT, FIVE_A_CARD = "none", "windows", "aisleriot", "five-a-card"


def _none(g: Any, move: Move | None, extra: Any) -> None:
    """No score: it stays 0 on the table, and the API says null."""


def _windows(g: Any, move: Move | None, extra: Any) -> None:
    if move is None:
        return  # nothing is scored for the deal itself
    src, dst, _ = move
    s = g.score
    if FOUNDATION <= dst < STOCK:
        s += 10
    elif src == WASTE:
        s += 5
    elif FOUNDATION <= src < STOCK:
        s -= 15
    if extra:
        s += 5
    g.score = s if s > 0 else 0


def _aisleriot(g: Any, move: Move | None, extra: Any) -> None:
    g.score = g.cards_up


def _five_a_card(g: Any, move: Move | None, extra: Any) -> None:
    up = g.cards_up
    g.score = 5 * up + (500 if up == 52 else 0)


Scorer = Callable[[Any, Move | None, Any], None]

SCORERS: dict[str, Scorer] = {
    NONE: _none,
    WINDOWS: _windows,
    AISLERIOT: _aisleriot,
    FIVE_A_CARD: _five_a_card,
}
