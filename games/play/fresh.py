"""A session on a deal that is not a daily, started by one statement (PostgreSQL).

Such a session is never ranked (only today's daily is, games/play/operations.py), so its
start needs no look at the player's earlier attempts, only that the player is still
itself: a guest being merged into an account has its row locked and marked
``merged_into`` (games/accounts/merge.py).  The INSERT takes its one row from a SELECT of
the player's row, locked ``FOR UPDATE`` and still unmerged, so the lock, that check and
the write are one statement in autocommit: it waits for a merge under way, sees its
result, and inserts nothing for a merged guest.  Where the transaction (the lock's SELECT,
the INSERT, COMMIT) took three round trips and the ORM built its INSERT anew each time.

A random deal's session (``insert_with_deal``) is started by the same statement as its
deal: the seed's row made or found (games/daily/deals.py, SEEDED) and the session's INSERT
taking its deal from it, one round trip where the deal's statement and the session's took
two.  The session is inserted only when the deal is no daily (a FreeCell number can be
one): a daily needs the ranked checks of the locked start.  Except for a guest made by the
request that starts its session (a first visit's table): no other request knows that
player yet, so it has no earlier attempt to look at, and its first session on today's
daily, ranked, is stored by ``insert`` too.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from games.daily import deals as daily
from games.errors import PlayerMerged
from games.models import Deal, GameSession, Player, rows

_FIELDS = rows.fields(GameSession)
_DEAL = GameSession._meta.get_field("deal")


@functools.cache
def _sql(vendor: str) -> str:
    db = connections[DEFAULT_DB_ALIAS]
    # Typed, since a SELECT's parameters have no column to take their types from.
    casts = ", ".join(f"%s::{f.db_type(db)}" for f in _FIELDS)
    merged = Player._meta.get_field("merged_into").column
    return (
        f"INSERT INTO {GameSession._meta.db_table} ({', '.join(f.column for f in _FIELDS)}) "
        f"SELECT {casts} FROM {Player._meta.db_table} "
        f"WHERE {Player._meta.pk.column} = %s AND {merged} IS NULL FOR UPDATE RETURNING 1"
    )


@functools.cache
def _with_deal_sql(vendor: str) -> str:
    db = connections[DEFAULT_DB_ALIAS]
    player = Player._meta
    deal_pk = f"seeded.{Deal._meta.pk.column}"
    values = ", ".join(deal_pk if f is _DEAL else f"%s::{f.db_type(db)}" for f in _FIELDS)
    date = Deal._meta.get_field("date").column
    merged = player.get_field("merged_into").column
    table = player.db_table
    return (
        f"WITH {daily.SEEDED}, started AS (INSERT INTO {GameSession._meta.db_table} "
        f"({', '.join(f.column for f in _FIELDS)}) SELECT {values} "
        f"FROM {table}, seeded WHERE {table}.{player.pk.column} = %s "
        f"AND {table}.{merged} IS NULL AND seeded.{date} IS NULL FOR UPDATE OF {table} "
        f"RETURNING 1) SELECT {daily.SEEDED_COLUMNS}, EXISTS (SELECT 1 FROM started) "
        f"FROM seeded"
    )


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


def insert_with_deal(session: GameSession) -> tuple[Deal | None, bool]:
    """Store the seed's deal if it has none and, unless that deal is a daily, ``session``
    (new, unranked, ``session.deal`` an unsaved Deal of the game and seed) on it, in one
    statement.  The seed's stored deal (None when another request's INSERT of it was not
    committed yet: then nothing is stored), and whether the session was stored, with
    ``session.deal`` set to that deal.  When it was not, the caller takes the ordinary
    path.  PlayerMerged if the player is merged or gone."""
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        cursor.execute(*with_deal_statement(session))
        row = cursor.fetchone()
    return with_deal_stored(session, row)


def with_deal_statement(session: GameSession) -> tuple[str, list[Any]]:
    """``insert_with_deal``'s statement and parameters, for a caller that runs it on another
    connection (games/api/loop_start.py) and reads its row with ``with_deal_stored``."""
    db = connections[DEFAULT_DB_ALIAS]
    own = [
        v for f, v in zip(_FIELDS, rows.values(session, _FIELDS, db), strict=True) if f is not _DEAL
    ]
    return _with_deal_sql(db.vendor), [
        *daily.seed_params(session.deal, db),
        *own,
        session.player_id,
    ]


def with_deal_stored(session: GameSession, row: Any) -> tuple[Deal | None, bool]:
    """``insert_with_deal``'s answer from the statement's row (None: no row)."""
    deal = daily.read_deal(connections[DEFAULT_DB_ALIAS], row[:-1] if row else None)
    if deal is None:
        return None, False
    if not row[-1]:
        if deal.date is None:
            raise PlayerMerged()
        return deal, False
    session.deal = deal
    rows.saved(session, DEFAULT_DB_ALIAS)
    return deal, True
