"""The tables of sessions being played, kept in this process between moves.

Rebuilding a table means replaying every stored move; keeping the last table of each active
session saves that on the hot path.  An entry is only used when its ``seq`` equals the
stored one (read under the row lock, or checked by the storing statement itself), and it is
put back only after the move is committed, so a rolled-back move can never leave a table
ahead of the database.

Beside the table an entry may hold the session's fixed facts (its owner and its deal),
which never change once the session exists: with them a move can be checked and stored
without reading the row first (see ``games.play.optimistic``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from games.engine import Game, endgame

MAX_TABLES = 5000
Facts = tuple[Any, Any]  # (owner's player id, Deal)
_tables: OrderedDict[str, tuple[int, Game, Facts | None]] = OrderedDict()
_lock = threading.Lock()


def take(session_id: object, seq: int) -> Game | None:
    """The table after ``seq`` stored moves, removed from the cache (the caller mutates it)."""
    item = take_with_facts(session_id, seq)
    return item[0] if item is not None else None


def take_with_facts(session_id: object, seq: int) -> tuple[Game, Facts | None] | None:
    with _lock:
        item = _tables.pop(str(session_id), None)
        if item is not None and item[0] != seq and item[2] is not None:
            # Keep the facts of a stale entry: they are still true.
            _tables[str(session_id)] = (-1, item[1], item[2])
    return (item[1], item[2]) if item is not None and item[0] == seq else None


def peek(session_id: object, seq: int) -> Game | None:
    with _lock:
        item = _tables.get(str(session_id))
    return item[1].copy() if item is not None and item[0] == seq else None


def keep(session_id: object, seq: int, game: Game, facts: Facts | None = None) -> None:
    key = str(session_id)
    with _lock:
        old = _tables.get(key)
        if facts is None and old is not None:
            facts = old[2]
        _tables[key] = (seq, game, facts)
        _tables.move_to_end(key)
        while len(_tables) > MAX_TABLES:
            _tables.popitem(last=False)


def remember(session_id: object, seq: int, kept: endgame.Kept) -> None:
    """What a dead-end search made elsewhere found (``endgame.settle``), left on the kept
    table if it is still the one searched, so that the next move's verdict carries it."""
    with _lock:
        item = _tables.get(str(session_id))
        if item is not None and item[0] == seq:
            endgame.remember(item[1], kept)


def clear() -> None:
    with _lock:
        _tables.clear()
