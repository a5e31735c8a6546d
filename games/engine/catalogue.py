"""The games the site offers, by key, and the few functions that start one.

The order is the site's: the home page lists the games, and the daily games, in it.

>>> new_game("klondike", 7).columns
7
>>> DAILY_GAMES
('klondike', 'klondike-draw3', 'whitehorse', 'freecell', 'bakers-dozen')
"""

from __future__ import annotations

import datetime as dt

from .bakers_dozen import BakersDozen
from .deals import daily_digest
from .freecell import FreeCell
from .game import Game
from .klondike import Klondike, KlondikeDraw3, KlondikeOnePass, KlondikeThreePasses, Whitehorse
from .yukon import Yukon

# Every caller reads this one dict when it is asked (a game registered later, as the tests'
# variant is, is a game everywhere); the two sets below are the site's games, fixed.
GAMES: dict[str, type[Game]] = {
    cls.key: cls
    for cls in (
        Klondike,
        KlondikeDraw3,
        KlondikeThreePasses,
        KlondikeOnePass,
        Whitehorse,
        Yukon,
        FreeCell,
        BakersDozen,
    )
}
DAILY_GAMES = tuple(key for key, cls in GAMES.items() if cls.daily)
# The games that hide cards from the player, as each declares it (Table.hides_cards).
HIDDEN_CARD_GAMES = frozenset(key for key, cls in GAMES.items() if cls.hides_cards)


def find_game(key: str) -> type[Game]:
    try:
        return GAMES[key]
    except KeyError:
        raise ValueError(f"unknown game {key!r}; games: {', '.join(GAMES)}") from None


def new_game(key: str, seed: int, scoring: str | None = None) -> Game:
    """Game ``key`` dealt from ``seed``, its score kept as the game declares, or by the
    scheme ``scoring`` (scoring.py: a stored game replayed as it was scored)."""
    return find_game(key)(seed, scoring)


def daily_seed(date: dt.date, key: str, secret: str | bytes, candidate: int = 0) -> int:
    """The seed of game ``key``'s daily deal on ``date`` (candidate 0, 1, ... when a deal
    has to be replaced): the game's own reading of the day's secret digest."""
    return find_game(key).seed_from_digest(daily_digest(date, key, secret, candidate))
