"""A session on a deal that is not a daily, started by one statement (PostgreSQL).

Such a session is never ranked (only today's daily is, games/play/operations.py), so its
start needs no look at the player's earlier attempts, only that the player is still
itself: a guest being merged into an account has its row locked and marked
``merged_into`` (games/accounts/merge.py).  The INSERT takes its one row from a SELECT of
the player's row, locked ``FOR UPDATE`` and still unmerged, so the lock, that check and
the write are one statement in autocommit: it waits for a merge under way, sees its
result, and inserts nothing for a merged guest.  Where the transaction (the lock's SELECT,
the INSERT, COMMIT) took three round trips and the ORM built its INSERT anew each time.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from games import rows
from games.errors import PlayerMerged
from games.models import GameSession, Player

_FIELDS = rows.fields(GameSession)


@functools.cache
def _sql(vendor: str) -> str:
    db = connections[DEFAULT_DB_ALIAS]
    # Typed, since a SELECT's parameters have no column to take their types from.
    casts = ", ".join(f"%s::{f.db_type(db)}" for f in _FIELDS)
    merged = Player._meta.get_field("merged_into").column
    return (f"INSERT INTO {GameSession._meta.db_table} ({', '.join(f.column for f in _FIELDS)}) "
            f"SELECT {casts} FROM {Player._meta.db_table} "
            f"WHERE {Player._meta.pk.column} = %s AND {merged} IS NULL FOR UPDATE RETURNING 1")


def usable() -> bool:
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


def insert(session: GameSession) -> None:
    """Store ``session`` (new, unranked) for its player; PlayerMerged if the player is merged
    or gone."""
    db = connections[DEFAULT_DB_ALIAS]
    params: list[Any] = [*rows.values(session, _FIELDS, db), session.player_id]
    with db.cursor() as cursor:
        cursor.execute(_sql(db.vendor), params)
        if cursor.fetchone() is None:
            raise PlayerMerged()
    rows.saved(session, DEFAULT_DB_ALIAS)
