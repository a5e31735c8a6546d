"""The tables of sessions being played, kept in this process between moves.

Rebuilding a table means replaying every stored move; keeping the last table of each active
session saves that on the hot path.  An entry is only used when its ``seq`` equals the
stored one (read under the row lock, or checked by the storing statement itself), and it is
put back only after the move is committed, so a rolled-back move can never leave a table
ahead of the database.

Beside the table an entry may hold the session's fixed facts (its owner, its deal, whether it is ranked),
which never change once the session exists: with them a move can be checked and stored
without reading the row first (see ``games.play.optimistic``).

The cache is bounded by count and by memory (``TABLES_MAX_MB``), whichever comes first,
the least recently used table going first: a table's size grows with its history and with
the dead-end verdicts it remembers (from about 5 KB dealt to 60 KB after a long Klondike
game), so a count alone would let a process's memory follow the length of the games.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings

from games.engine import Game, endgame

MAX_TABLES = 5000
# (owner's player id, Deal, ranked): ranked can only become False (a merge demotes an
# attempt), so a kept True is at worst a needless trip to the locked path.
Facts = tuple[Any, Any, bool]
# session -> (seq, table, facts, approximate bytes)
_tables: OrderedDict[str, tuple[int, Game, Facts | None, int]] = OrderedDict()
_bytes = [0]  # the sum of the entries' sizes
_lock = threading.Lock()


def size(game: Game) -> int:
    """About how many bytes a kept table holds, without walking it (this runs with every
    move): a dealt table, each move of its history, each verdict it remembers.  Measured
    with a deep getsizeof over tables of every game (4.1-4.7 KB dealt, 140-150 bytes a
    move, 650-960 bytes a verdict)."""
    known = getattr(game, "dead_end_known", None)
    return 4800 + 150 * len(game.history) + 1000 * (len(known) if known else 0)


def _drop(key: str) -> tuple[int, Game, Facts | None, int] | None:
    item = _tables.pop(key, None)
    if item is not None:
        _bytes[0] -= item[3]
    return item


def _put(key: str, item: tuple[int, Game, Facts | None, int]) -> None:
    _drop(key)
    _tables[key] = item
    _bytes[0] += item[3]
    limit = settings.TABLES_MAX_MB * 2**20
    while _tables and (len(_tables) > MAX_TABLES or _bytes[0] > limit):
        _drop(next(iter(_tables)))


def held() -> tuple[int, int]:
    """(tables kept, their approximate bytes)."""
    with _lock:
        return len(_tables), _bytes[0]


def take(session_id: object, seq: int) -> Game | None:
    """The table after ``seq`` stored moves, removed from the cache (the caller mutates it)."""
    item = take_with_facts(session_id, seq)
    return item[0] if item is not None else None


def take_with_facts(session_id: object, seq: int) -> tuple[Game, Facts | None] | None:
    with _lock:
        item = _drop(str(session_id))
        if item is not None and item[0] != seq and item[2] is not None:
            # Keep the facts of a stale entry: they are still true.
            _put(str(session_id), (-1, item[1], item[2], item[3]))
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
        _put(key, (seq, game, facts, size(game)))  # the most recently used: last


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
        _bytes[0] = 0
