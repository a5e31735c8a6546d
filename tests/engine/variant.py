"""A game that exists only in the tests: FreeCell with two free cells.

It is one class declaration -- everything else is what FreeCell already declares -- and
one line of the solver's registry (FreeCell's domain reads the game's cells).
``registered()`` makes it a game everywhere, the API included, for as long as it lasts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games.engine import GAMES
from games.engine.freecell import FreeCell
from games.engine.solver.registry import SOLVERS


class TwoCellFreeCell(FreeCell):
    key, title, free_cells, daily = "freecell-2-cells", "FreeCell (two cells)", 2, False


@contextmanager
def registered() -> Iterator[type[TwoCellFreeCell]]:
    GAMES[TwoCellFreeCell.key] = TwoCellFreeCell
    SOLVERS[TwoCellFreeCell] = SOLVERS[FreeCell]  # the registry line
    try:
        yield TwoCellFreeCell
    finally:
        del GAMES[TwoCellFreeCell.key]
        del SOLVERS[TwoCellFreeCell]
