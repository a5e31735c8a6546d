"""The one rules engine: pure Python, no Django.

>>> g = new_game("klondike", 7)
>>> sorted(GAMES)[:2]
['bakers-dozen', 'freecell']
>>> result = replay("freecell", 1, ["3a"])
>>> result.moves
1
>>> from games.engine import endgame, seen
>>> endgame.can_finish(result), seen.state(result)["moves"]
(False, 1)
"""

from __future__ import annotations

from .catalogue import DAILY_GAMES, GAMES, HIDDEN_CARD_GAMES, daily_seed, find_game, new_game
from .game import Game, IllegalMove
from .record import Record, ReplayError, replay

__all__ = [
    "DAILY_GAMES",
    "GAMES",
    "HIDDEN_CARD_GAMES",
    "daily_seed",
    "Game",
    "IllegalMove",
    "Record",
    "ReplayError",
    "find_game",
    "new_game",
    "replay",
]
