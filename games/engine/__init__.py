"""The one rules engine: pure Python, no Django.

>>> g = new_game("klondike", 7)
>>> sorted(GAMES)[:2]
['bakers-dozen', 'freecell']
>>> result = replay("freecell", 1, ["3a"])
>>> result.moves
1
"""

from __future__ import annotations

import datetime as dt

from .bakers_dozen import BakersDozen
from .base import Game, IllegalMove
from .deals import daily_digest
from .freecell import FreeCell
from .klondike import Klondike, KlondikeDraw3, KlondikeOnePass, KlondikeThreePasses, Whitehorse
from .record import Record, ReplayError, replay

GAMES: dict[str, type[Game]] = {
    cls.key: cls
    for cls in (
        Klondike,
        KlondikeDraw3,
        KlondikeThreePasses,
        KlondikeOnePass,
        Whitehorse,
        FreeCell,
        BakersDozen,
    )
}
DAILY_GAMES = ("klondike", "klondike-draw3", "whitehorse", "freecell", "bakers-dozen")
HIDDEN_CARD_GAMES = frozenset(k for k, cls in GAMES.items() if cls.draw)


def find_game(key: str) -> type[Game]:
    try:
        return GAMES[key]
    except KeyError:
        raise ValueError(f"unknown game {key!r}; games: {', '.join(GAMES)}") from None


def new_game(key: str, seed: int) -> Game:
    return find_game(key)(seed)


def daily_seed(date: dt.date, key: str, secret: str | bytes, candidate: int = 0) -> int:
    """The seed of game ``key``'s daily deal on ``date`` (candidate 0, 1, ... when a deal
    has to be replaced): the game's own reading of the day's secret digest."""
    return find_game(key).seed_from_digest(daily_digest(date, key, secret, candidate))


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
