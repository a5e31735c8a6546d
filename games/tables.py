"""The tables of sessions being played, kept in this process between moves.

Rebuilding a table means replaying every stored move; keeping the last table of each active
session saves that on the hot path.  An entry is only used when its ``seq`` equals the
stored one (read under the row lock), and it is put back only after the move is committed,
so a rolled-back move can never leave a table ahead of the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from games.engine import Game

MAX_TABLES = 5000
_tables: OrderedDict[str, tuple[int, Game]] = OrderedDict()
_lock = threading.Lock()


def take(session_id: object, seq: int) -> Game | None:
    """The table after ``seq`` stored moves, removed from the cache (the caller mutates it)."""
    with _lock:
        item = _tables.pop(str(session_id), None)
    return item[1] if item is not None and item[0] == seq else None


def peek(session_id: object, seq: int) -> Game | None:
    with _lock:
        item = _tables.get(str(session_id))
    return item[1].copy() if item is not None and item[0] == seq else None


def keep(session_id: object, seq: int, game: Game) -> None:
    with _lock:
        _tables[str(session_id)] = (seq, game)
        _tables.move_to_end(str(session_id))
        while len(_tables) > MAX_TABLES:
            _tables.popitem(last=False)


def clear() -> None:
    with _lock:
        _tables.clear()
