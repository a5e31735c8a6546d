"""The common move, stored by one statement without a row lock or a read before it.

The table kept after the last stored move (``tables.py``) says whether the move is legal;
the UPDATE stores it only if the row is still at that ``seq``, still this player's and still
being played.  The check of the row and the write are one atomic statement, so two moves
racing on one session (even in two processes) cannot both be stored, and a move either is
stored whole or not at all.  Anything out of the ordinary -- no table kept here, a refused
move, a winning move, a row that moved on -- gives a ``Declined``, and the locked path
(``locked``, through ``operations``) answers it: what the check found (the engine's
refusal, the table a winning move left) goes with it, so no move is parsed and checked
twice.

One core, two drivers: ``check`` and ``stored`` are the whole of the logic; ``play`` runs
the statement on Django's connection (HTTP), ``games.live.consumer`` runs the same
statement through the batched asyncio driver (``games.live.driver``), so a socket move
needs no thread.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connections

from games.daily import days
from games.engine import Game, IllegalMove
from games.engine.undo import is_undo
from games.models import GameSession, Move, Player
from games.play import moves, tables
from games.play.outcome import MAX_MOVES, UNDO, Outcome, session_from_row, session_pk

# What the statement sends back: the columns this move may not know.  The rest of the
# answer's session is known here (the ids, the counters just set, a game still playing).
RETURNED = ["seq", "ranked", "undo_count", "hint_count", "started_at", "created_at"]
# One statement stores any number of moves, each on its own session: its one parameter is
# a JSON array with an object per move (``Pending.params``), read as rows.  Socket moves that
# arrive while a statement is out go together in the next one (``games.live.driver.batched``), so many
# players' moves share one round trip and one commit; an HTTP move is a batch of one.  Each
# row carries its own guard (id, player, seq, still playing), so a move that lost a race is
# simply not returned while the others in the batch are stored.  (One JSON text rather
# than an array per column: the driver encodes one string far faster than nine lists.)
_SESSIONS, _MOVES = GameSession._meta.db_table, Move._meta.db_table


def _statement(dual: bool) -> str:
    """The move's row appended and the session's counters set, by one statement: the
    UPDATE's guard decides, and the INSERT takes only the rows it returned.  ``dual``: the
    legacy list is appended to as well (moves.py, MOVE_STORE)."""
    legacy = (
        (
            "moves = s.moves || jsonb_build_array(CASE WHEN v.op IS NULL THEN "
            "jsonb_build_array(v.token, v.at) ELSE jsonb_build_array(v.token, v.at, v.op) "
            "END), "
        )
        if dual
        else ""
    )
    return (
        "WITH v AS (SELECT * FROM json_to_recordset(%s::json) AS v(token text, at bigint, "
        "now timestamptz, score int, cards_up int, move_count int, undo int, id uuid, "
        "player bigint, seq int, op text)), "
        f"up AS (UPDATE {_SESSIONS} AS s SET {legacy}"
        "seq = s.seq + 1, started_at = COALESCE(s.started_at, v.now), score = v.score, "
        "cards_up = v.cards_up, move_count = v.move_count, undo_count = s.undo_count + v.undo "
        # The previous move's row, for the op check below (a primary-key lookup).
        f"FROM v LEFT JOIN {_MOVES} p ON p.session_id = v.id AND p.seq = v.seq - 1 "
        "WHERE s.id = v.id AND s.player_id = v.player AND s.seq = v.seq "
        f"AND s.status = '{GameSession.PLAYING}' "
        # A retry sent with the seq its first try produced is still the same operation: the
        # locked path answers it (locked.check_seq) instead of storing it again.  A game
        # stored before moves had rows keeps its last op in the legacy list.
        "AND (v.op IS NULL OR CASE WHEN p.session_id IS NOT NULL THEN p.op IS DISTINCT FROM "
        "v.op ELSE (s.moves -> (v.seq - 1) ->> 2) IS DISTINCT FROM v.op END) "
        f"RETURNING s.id, {', '.join('s.' + name for name in RETURNED)}, "
        # The move row the UPDATE took: two moves for one session in a batch update it
        # once, and only that one is inserted (the other finds the seq moved on).
        "v.seq AS m_seq, v.token AS m_token, v.at AS m_at, v.op AS m_op), "
        f"ins AS (INSERT INTO {_MOVES} (session_id, seq, token, at_ms, op) "
        "SELECT up.id, up.m_seq, up.m_token, up.m_at, up.m_op FROM up) "
        f"SELECT up.id, {', '.join('up.' + name for name in RETURNED)} FROM up"
    )


_STATEMENTS = {False: _statement(False), True: _statement(True)}


def sql() -> str:
    """The storing statement for the configured MOVE_STORE."""
    return _STATEMENTS[moves.dual()]


def rows_param(rows: list[Any]) -> list[str]:
    """A batched statement's parameters: its rows as one JSON array (the driver encodes one
    string far faster than a list per column)."""
    return [orjson.dumps(rows).decode()]


@dataclass
class Declined:
    """A move the store left to the locked path, cleaned, with what its check found: the
    engine's refusal (``refusal``) or, for a move it could not store (a win), the table
    after it (``game``, the move applied to the table after ``seq`` stored moves).  Both
    hold only while the row is still at ``seq``, which the locked path checks first."""

    token: str
    op: str | None
    refusal: str | None = None
    game: Game | None = None


@dataclass
class Pending:
    """A move checked on the kept table, waiting for ``sql()``; ``params`` is its row there
    and ``pk`` (the row's first column back) tells its answer from the others'."""

    pk: UUID
    game: Game
    facts: tables.Facts
    params: dict[str, Any]
    op: str | None = None


def check(
    session_id: UUID | str, player: Player, seq: object, token: str, op: str | None = None
) -> Pending | Declined:
    """The move applied to the kept table, or what the locked path needs to decide it."""
    if type(seq) is not int or seq >= MAX_MOVES:
        return Declined(token, op)
    pk = session_pk(session_id)
    if pk is None:
        return Declined(token, op)
    item = tables.take_with_facts(pk, seq)
    if item is None:
        return Declined(token, op)
    g, facts = item
    if facts is None or facts[0] != player.pk or g.won:
        tables.keep(pk, seq, g, facts)
        return Declined(token, op)
    now = dt.datetime.now(dt.UTC)  # timezone.now() under USE_TZ, without its settings lookup
    if facts[2] and facts[1].date is not None and days.is_over(facts[1].date, now):
        tables.keep(pk, seq, g, facts)
        return Declined(token, op)  # a ranked attempt whose day is over: refused there
    undo = is_undo(token)
    try:
        if undo:
            g.undo()
        else:
            g.play(token)
    except IllegalMove as exc:
        # Unchanged, and kept with its facts so the next move is checked here again.
        tables.keep(pk, seq, g, facts)
        return Declined(token, op, refusal=exc.args[0])
    if g.won:
        return Declined(token, op, game=g)  # the win is stored under the lock
    # The token is stored as sent: replayed on the same table it parses to the same move.
    # A retry of this operation finds its op in the move's row (locked.check_seq).
    params = {
        "token": UNDO if undo else token,
        "at": int(now.timestamp() * 1000),
        "op": op,
        "now": now,
        "score": g.score if g.has_score else None,
        "cards_up": g.cards_up,
        "move_count": g.moves,
        "undo": int(undo),
        "id": pk,
        "player": player.pk,
        "seq": seq,
    }
    return Pending(pk, g, facts, params, op)


def stored(pending: Pending, row: tuple[Any, ...] | None, keep: bool = True) -> Outcome | None:
    """The outcome once ``sql()`` answered ``row`` (the ``RETURNED`` columns; None: the row
    had moved on).  ``keep``: a copy of the table is kept for the next move now; a caller
    that answers before anything else can run passes False and calls ``kept`` after, which
    keeps the table itself (no copy)."""
    if row is None:
        return None
    deal, g = pending.facts[1], pending.game
    known = {
        "id": pending.pk,
        "player_id": pending.facts[0],
        "deal_id": deal.pk,
        "game": deal.game,
        "status": GameSession.PLAYING,
        "score": g.score if g.has_score else None,
        "cards_up": g.cards_up,
        "move_count": g.moves,
        "finished_at": None,
        "time_ms": None,
        **dict(zip(RETURNED, row, strict=True)),
    }
    session = session_from_row(known, deal)
    if keep:
        tables.keep(pending.pk, session.seq, pending.game.copy(), pending.facts)
    return Outcome(session, pending.game, op=pending.op)


def kept(pending: Pending, outcome: Outcome) -> None:
    """After ``stored(..., keep=False)`` and the answer: the table is kept for the next move."""
    tables.keep(pending.pk, outcome.session.seq, outcome.game, pending.facts)


def play(
    session_id: UUID | str, player: Player, seq: object, token: str, op: str | None = None
) -> Outcome | Declined:
    """``check`` and ``stored`` around the statement on Django's connection."""
    db = connections[DEFAULT_DB_ALIAS]  # the proxy's lookup, once rather than per use
    if db.vendor != "postgresql" or db.in_atomic_block:
        return Declined(token, op)
    pending = check(session_id, player, seq, token, op)
    if isinstance(pending, Declined):
        return pending
    db.ensure_connection()
    with db.wrap_database_errors:  # a dropped database reads as Django's errors
        # A plain psycopg cursor binds on the server, and prepare=True keeps the statement,
        # the same on every move, parsed and planned once per connection.
        with psycopg.Cursor(db.connection) as cursor:
            cursor.execute(
                sql(),
                rows_param([pending.params]),
                prepare=None,  # as the connection
                binary=True,
            )
            row = cursor.fetchone()
    return stored(pending, row[1:] if row else None) or Declined(token, op)
