"""A game that exists only in the tests: FreeCell with two free cells.

It is one class declaration -- everything else is what FreeCell already declares, its
solver included (FreeCell's domain reads the game's cells and plays by its rules).
``registered()`` makes it a game everywhere, the API included, for as long as it lasts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games.engine import GAMES
from games.engine.freecell import FreeCell


class TwoCellFreeCell(FreeCell):
    key, title, free_cells, daily = "freecell-2-cells", "FreeCell (two cells)", 2, False


@contextmanager
def registered() -> Iterator[type[TwoCellFreeCell]]:
    GAMES[TwoCellFreeCell.key] = TwoCellFreeCell
    try:
        yield TwoCellFreeCell
    finally:
        del GAMES[TwoCellFreeCell.key]
