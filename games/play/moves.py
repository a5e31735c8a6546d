"""The move store: one row a move (``Move``), appended and never rewritten.

A move's row holds its token, the server's time and the client's operation id, keyed by
(session, seq): storing a move costs one small INSERT whatever the game's length, and "is
this operation stored already?" is one primary-key lookup (``op_at``), where the move list
in one JSON value was read and rewritten whole by every move.

Games stored before the rows existed keep their moves in the session's ``legacy_moves``
list: a move is read from its row, else from that list at the same index, so an old game,
or one that moved on to rows half way, reads whole (``records_of``).  ``MOVE_STORE``:

- ``rows`` (the default): moves are written as rows only;
- ``dual``: each move is also appended to the list, so that the previous release, which
  reads only the list, can serve the same games during a deploy (docs/operations.md,
  "Upgrading").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.db import connection

if TYPE_CHECKING:
    from games.models import GameSession

TABLE = "games_move"
SESSIONS = "games_gamesession"


def _sessions() -> type[GameSession]:
    """The session model, from Django's registry: the model reads its moves through this
    module (``GameSession.moves``), so this module does not import the model's."""
    model: type[GameSession] = apps.get_model("games", "GameSession")
    return model


def _id(session_id: Any) -> Any:
    """A session id as this database stores it (SQLite: 32 hex digits, not a UUID)."""
    field = _sessions()._meta.pk
    assert field is not None
    return field.get_db_prep_value(field.to_python(session_id), connection)


def dual() -> bool:
    return bool(settings.MOVE_STORE == "dual")


def records_of(session: GameSession) -> list[list[Any]]:
    """Every stored move of ``session`` in order: [token, ms, op?] (op only when there
    is one, as the list held them)."""
    if session._state.adding or session.__dict__.get("seq") == 0:
        return []  # nothing stored yet: no query
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, token, at_ms, op FROM {TABLE} WHERE session_id = %s ORDER BY seq",
            [_id(session.pk)],
        )
        rows = {
            seq: [token, at] if op is None else [token, at, op]
            for seq, token, at, op in cursor.fetchall()
        }
    seq = session.__dict__.get("seq")
    if seq is None:
        seq = _sessions().objects.filter(pk=session.pk).values_list("seq", flat=True).first() or 0
    if len(rows) >= seq and all(i in rows for i in range(seq)):
        return [rows[i] for i in range(seq)]
    legacy = (
        _sessions().objects.filter(pk=session.pk).values_list("legacy_moves", flat=True).first()
        or []
    )
    out = []
    for i in range(seq):
        move = rows.get(i) if i in rows else (legacy[i] if i < len(legacy) else None)
        if move is None:
            break  # a hole: the rest cannot be told (the admin's re-validate says so)
        out.append(list(move))
    return out


def op_at(session_id: Any, index: int) -> str | None:
    """The op id stored with move ``index``: its row, else the legacy list's entry."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT op, 1 FROM {TABLE} WHERE session_id = %s AND seq = %s",
            [_id(session_id), index],
        )
        row = cursor.fetchone()
        if row is not None:
            return str(row[0]) if row[0] is not None else None
        if connection.vendor == "postgresql":
            cursor.execute(
                f"SELECT moves -> %s ->> 2 FROM {SESSIONS} WHERE id = %s", [index, _id(session_id)]
            )
            found = cursor.fetchone()
            return found[0] if found else None
    legacy = (
        _sessions().objects.filter(pk=session_id).values_list("legacy_moves", flat=True).first()
        or []
    )
    move = legacy[index] if index < len(legacy) else None
    return move[2] if move is not None and len(move) > 2 else None


def append(session_id: Any, first: int, added: Sequence[Sequence[Any]]) -> None:
    """Store ``added`` ([token, ms, op?] each) as moves ``first``, ``first`` + 1, ...
    (in dual mode the legacy list gets them too; the caller updates the session row)."""
    if not added:
        return
    key = _id(session_id)
    values = [
        (key, first + i, m[0], m[1], m[2] if len(m) > 2 else None) for i, m in enumerate(added)
    ]
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {TABLE} (session_id, seq, token, at_ms, op) VALUES (%s, %s, %s, %s, %s)",
            values,
        )
        if dual():
            if connection.vendor == "postgresql":
                cursor.execute(
                    f"UPDATE {SESSIONS} SET moves = moves || %s::jsonb WHERE id = %s",
                    [json.dumps([list(m) for m in added]), key],
                )
            else:
                _append_legacy_orm(session_id, added)


def _append_legacy_orm(session_id: Any, added: Sequence[Sequence[Any]]) -> None:
    legacy = (
        _sessions().objects.filter(pk=session_id).values_list("legacy_moves", flat=True).first()
        or []
    )
    _sessions().objects.filter(pk=session_id).update(
        legacy_moves=[*legacy, *(list(m) for m in added)]
    )


def replace_all(session: GameSession, records: Sequence[Sequence[Any]]) -> None:
    """A session's moves set whole: a made-up game (tests, benchmarks) or an upload."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE} WHERE session_id = %s", [_id(session.pk)])
    append(session.pk, 0, records)


def stamps(session_id: Any) -> list[int]:
    """The server times of every stored move, in order (rows and legacy list alike)."""
    session = _sessions().objects.only("id", "seq").get(pk=session_id)
    return [int(m[1]) for m in records_of(session)]
