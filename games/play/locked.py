"""The locked path: the session row locked ``FOR UPDATE``, the table after its stored moves,
and the one write that appends moves with the server's time.

Every operation that is not the common move (``optimistic``) takes this path: a refused
move (worded here), a win, an undo the cache cannot serve, finish, hints, a stale ``seq``
or a retried operation (``check_seq``), and any resign its one statement
(``resign_at_once``) did not store.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import connection, models, transaction
from django.utils import timezone

from games.daily import days
from games.engine import Game, replay
from games.engine.reasons import Reason
from games.errors import BadRequest, DayClosed, Refused, SessionNotFound, StaleSeq
from games.models import Deal, GameSession, Player
from games.play import moves, tables
from games.play.outcome import MAX_MOVES, Outcome, session_from_row, session_pk, time_bonus


def rebuild(session: GameSession) -> Game:
    """The table after the stored moves.  They were checked when stored, so a failure here
    means the rules changed under a stored game: the admin's re-validate reports it."""
    return replay(session.game, session.deal.seed, session.tokens, session.scored_by)


def table(session: GameSession) -> Game:
    """The session's table, from this process's cache when it is current (see tables.py)."""
    return tables.take(session.pk, session.seq) or rebuild(session)


def keep_after_commit(session: GameSession, g: Game) -> None:
    seq, copy = session.seq, g.copy()
    facts = (session.player_id, session.deal, session.ranked)
    transaction.on_commit(lambda: tables.keep(session.pk, seq, copy, facts))


def owned(queryset: Any, session_id: UUID | str, player: Player) -> GameSession:
    try:
        session: GameSession = queryset.get(pk=session_id, player=player)
    except (GameSession.DoesNotExist, ValueError, TypeError, ValidationError):
        raise SessionNotFound("there is no such session of yours") from None
    return session


def lock(session_id: UUID | str, player: Player) -> GameSession:
    if connection.vendor == "postgresql":
        return _row_pg(session_id, player, " FOR UPDATE OF s")
    return owned(
        GameSession.objects.select_for_update().select_related("deal").defer("legacy_moves"),
        session_id,
        player,
    )


# The columns read, in order; the move list stays unread.
_S_FIELDS = [f.attname for f in GameSession._meta.concrete_fields if f.attname != "legacy_moves"]
_D_FIELDS = [f.attname for f in Deal._meta.concrete_fields]
_COLUMNS = ", ".join([*(f"s.{f}" for f in _S_FIELDS), *(f"d.{f}" for f in _D_FIELDS)])
# The row and its deal, by id and owner; the locked path adds its FOR UPDATE (built once).
_ROW_SQL = (
    f"SELECT {_COLUMNS} "
    f"FROM {GameSession._meta.db_table} s JOIN {Deal._meta.db_table} d ON d.id = s.deal_id "
    "WHERE s.id = %s AND s.player_id = %s"
)


def read(session_id: UUID | str, player: Player) -> GameSession:
    """The session row as it is now, unlocked (a socket's greeting, a resume, a GET)."""
    if connection.vendor == "postgresql":
        return _row_pg(session_id, player, "")
    return owned(GameSession.objects.select_related("deal"), session_id, player)


def _row_pg(session_id: UUID | str, player: Player, lock: str) -> GameSession:
    """The session row (locked FOR UPDATE when asked), its moves left unread (they are
    loaded only if the cached table is missing).  Written out in SQL because this runs for
    every move and the ORM's query building cost more than the query itself."""
    pk = session_pk(session_id)
    if pk is None:
        raise SessionNotFound("there is no such session of yours")
    with connection.cursor() as cursor:
        cursor.execute(_ROW_SQL + lock, [pk, player.pk])
        row = cursor.fetchone()
    if row is None:
        raise SessionNotFound("there is no such session of yours")
    return _session_of(row)


# The columns a raw row gives as the database's text that the ORM would convert: the JSON
# ones (a review's reasons, its signals, the analysis), read as text by a plain cursor.
_S_CONVERT = [
    (i, f)
    for i, f in enumerate(
        f for f in GameSession._meta.concrete_fields if f.attname != "legacy_moves"
    )
    if isinstance(f, models.JSONField)
]


def _session_of(row: tuple[Any, ...]) -> GameSession:
    """The session and its deal from a row of ``_S_FIELDS`` then ``_D_FIELDS``."""
    n = len(_S_FIELDS)
    deal = Deal.from_db(connection.alias, _D_FIELDS, list(row[n:]))
    deal.seed = int(deal.seed)  # stored as text (SeedField); from_db does not convert
    values = list(row[:n])
    for i, field in _S_CONVERT:
        values[i] = field.from_db_value(values[i], None, connection)  # type: ignore[arg-type]
    return session_from_row(dict(zip(_S_FIELDS, values, strict=True)), deal)


# Resigning by one statement in autocommit: the row is changed only while it is this
# player's, still being played and at the ``seq`` the client saw (at any seq when it sent
# none), and read back with its deal.  Where the transaction (BEGIN, the locked read, the
# UPDATE, COMMIT) took four round trips.  Whatever it does not change -- a resign retried,
# a stale seq, a game over, no such session -- the locked path answers as before.
_RESIGN_SQL = (
    f"UPDATE {GameSession._meta.db_table} AS s "
    f"SET status = '{GameSession.RESIGNED}', finished_at = %s FROM {Deal._meta.db_table} AS d "
    f"WHERE d.id = s.deal_id AND s.id = %s AND s.player_id = %s "
    f"AND s.status = '{GameSession.PLAYING}' AND (%s::int IS NULL OR s.seq = %s) "
    # A ranked attempt whose day is over is not resigned: the locked path refuses it.
    "AND NOT (s.ranked AND d.date IS NOT NULL AND d.date < %s) "
    f"RETURNING {_COLUMNS}"
)


def resign_at_once(
    session_id: UUID | str, player: Player, seq: object, now: Any
) -> GameSession | None:
    """The session resigned by ``_RESIGN_SQL``, or None: the locked path decides."""
    if connection.vendor != "postgresql" or not (
        seq is None or (type(seq) is int and 0 <= seq <= MAX_MOVES)
    ):
        return None
    pk = session_pk(session_id)
    if pk is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_RESIGN_SQL, [now, pk, player.pk, seq, seq, days.today()])
        row = cursor.fetchone()
    return None if row is None else _session_of(row)


def check_seq(session: GameSession, seq: object, required: bool, op: str | None = None) -> bool:
    """True when this is a retry of an operation already stored (same ``op`` at ``seq``);
    a stale ``seq`` otherwise raises StaleSeq."""
    if seq is None:
        if required:
            raise BadRequest("seq is required: the number of moves the client has seen")
        return False
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise BadRequest("seq must be an integer")
    if seq != session.seq:
        if op is not None and 0 <= seq < session.seq and _op_at(session, seq) == op:
            return True
        raise StaleSeq(session.seq)
    # The same operation retried with the seq its own first try produced (a client that
    # read its seq after the late answer): it is the last stored move, not a new one.
    return op is not None and seq > 0 and _op_at(session, seq - 1) == op


def _op_at(session: GameSession, index: int) -> str | None:
    """The op id stored with move ``index`` (its row: one primary-key lookup)."""
    return moves.op_at(session.pk, index)


def repeat(session: GameSession, op: str | None) -> Outcome:
    return Outcome(session, table_kept(session), op=op, repeated=True)


def table_kept(session: GameSession) -> Game:
    g = table(session)
    keep_after_commit(session, g)
    return g


def store_counters(session: GameSession, g: Game) -> None:
    session.score = g.score if g.has_score else None
    session.cards_up = g.cards_up
    session.move_count = g.moves


def record(session: GameSession, g: Game, tokens: list[str], op: str | None = None) -> bool:
    """Append ``tokens`` (already applied to ``g``) with the server's time (and the first
    with the client's ``op``) and store the new counters in one UPDATE; True when these
    moves won the game."""
    if session.seq + len(tokens) > MAX_MOVES:
        raise Refused(
            Reason("too_many_moves", f"a session holds at most {MAX_MOVES} moves", n=MAX_MOVES),
            session.seq,
        )
    now = timezone.now()
    require_open_day(session, now)  # the stored time itself, under the row lock
    stamp = int(now.timestamp() * 1000)
    added: list[list[Any]] = [[t, stamp] for t in tokens]
    if op is not None and added:
        added[0].append(op)
    session.seq += len(tokens)
    if session.started_at is None:
        session.started_at = now
    store_counters(session, g)
    just_won = g.won and session.status != GameSession.WON
    if just_won:
        session.status = GameSession.WON
        session.finished_at = now
        # The ranked clock runs from the deal being shown (the session's creation), so
        # reading the table before the first move counts (docs/rules.md, "The daily").
        session.time_ms = max(0, stamp - int(session.created_at.timestamp() * 1000))
        session.active_ms = active_ms(session, stamp)
        if g.has_score:
            session.score = g.score + time_bonus(session.game, session.time_ms / 1000)
    fields = [
        "seq",
        "started_at",
        "score",
        "cards_up",
        "move_count",
        "undo_count",
        "status",
        "finished_at",
        "time_ms",
        "active_ms",
    ]
    values = [getattr(session, f) for f in fields]
    # The moves' rows, then the counters: one transaction (the caller's, under the lock).
    moves.append(session.pk, session.seq - len(tokens), added)
    GameSession.objects.filter(pk=session.pk).update(**dict(zip(fields, values, strict=True)))
    session.__dict__.pop("_records", None)  # read again if asked
    keep_after_commit(session, g)
    return just_won


ACTIVE_GAP_MS = 60_000


def active_ms(session: GameSession, last: int) -> int:
    """The span from the deal shown to ``last`` (ms), every gap between two operations
    longer than a minute counted as a minute: the time a player was at the table."""
    stamps = [int(session.created_at.timestamp() * 1000), *moves.stamps(session.pk), last]
    return sum(min(max(0, b - a), ACTIVE_GAP_MS) for a, b in zip(stamps, stamps[1:], strict=False))


def require_open_day(session: GameSession, now: Any = None) -> None:
    """A ranked attempt is played on its day only: once the day is over (midnight in the
    daily time zone) every operation on it is refused, whatever its status, because the
    day's seed is revealed at the close and a game still open then could be finished with
    every hidden card known."""
    day = session.deal.date
    if session.ranked and day is not None and days.is_over(day, now):
        raise DayClosed(day, session.seq)


def open_or_retried(
    session: GameSession, seq: object, required: bool, op: str | None = None
) -> bool:
    """``check_seq`` on a ranked attempt whose day may be over: a retry of an operation
    stored on its day (its answer lost before midnight) is answered as it was, since it
    changes nothing; anything else once the day is over is refused as ``day_closed``, a
    stale or missing seq included (the day's end is what the player needs to hear)."""
    try:
        retried = check_seq(session, seq, required, op)
    except (StaleSeq, BadRequest):
        require_open_day(session)
        raise
    if not retried:
        require_open_day(session)
    return retried


def require_playing(session: GameSession) -> None:
    require_open_day(session)
    if session.status == GameSession.WON:
        raise Refused(
            Reason("game_won", "this game is won: start a new one to play again"), session.seq
        )
    if session.status == GameSession.RESIGNED:
        raise Refused(
            Reason("game_resigned", "this attempt was resigned: start a new one to play again"),
            session.seq,
        )
