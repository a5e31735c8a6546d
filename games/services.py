"""Playing a session: the one path every move takes, whether it comes over HTTP or a socket.

Each operation locks the session row (``select_for_update``), takes the table after the
stored moves (kept in this process between moves, else replayed from the stored list with
the engine), checks the move, and stores the move with its server timestamp and the new
counters before anything is answered.  The ``seq`` a client sends is
the number of moves it has seen; a stale or repeated one is refused, so a move sent twice is
applied once.

A client may also name each operation with an ``op`` id, stored beside the move it made.
A retry carries the same ``seq`` and ``op`` as the first try, so when the first try was
stored after all, the retry finds its own ``op`` at that ``seq`` and is answered with the
state (``repeated``), never stored a second time and never mistaken for a new move.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games import deals, hints, tables, unlocked
from games.engine import Game, IllegalMove, ReplayError, replay
from games.engine.reasons import Reason, code_of
from games.models import Deal, GameSession, Player

UNDO = unlocked.UNDO
MAX_MOVES = 5000  # far beyond any real game; keeps a runaway client from bloating a row


class SessionNotFound(LookupError):
    """No such session, or not this player's: the two are answered alike."""


class StaleSeq(Exception):
    def __init__(self, current: int) -> None:
        super().__init__(f"the session is at seq {current}")
        self.current = current


class Refused(Exception):
    """A move or action the rules refuse; ``reason`` is the engine's one line, ``code`` and
    ``params`` the same refusal for clients that word it themselves (engine/reasons.py)."""

    def __init__(self, reason: str, seq: int) -> None:
        super().__init__(reason)
        self.code, self.params = code_of(reason)
        self.reason, self.seq = str(reason), seq


class BadRequest(ValueError):
    """A malformed request (wrong type, missing field)."""


class RankedAttemptOpen(Exception):
    """The player's ranked attempt at this daily is still being played: no second look at
    the deal (practice, a replay) until it is finished or resigned."""

    def __init__(self, session_id: object) -> None:
        super().__init__("your ranked attempt at this daily is still open: finish or resign "
                         "it before playing the deal again")
        self.session_id = str(session_id)


class PlayerMerged(Exception):
    """This browser's guest joined an account meanwhile (games/merge.py)."""

    def __init__(self) -> None:
        super().__init__("this guest has just joined an account: reload the page to go on "
                         "as that account")


@dataclass
class Outcome:
    session: GameSession
    game: Game
    hint: dict[str, Any] | None = None
    hint_source: str | None = None
    just_won: bool = False
    op: str | None = None  # the client's operation id, echoed in the answer
    repeated: bool = False  # the operation had been stored already: nothing was done now


def _after_commit(outcome: Outcome) -> Outcome:
    """Runs once the transaction is committed, so a worker sees the stored win."""
    if outcome.just_won:
        from leaderboards.hooks import session_won

        session_won(outcome.session)
    return outcome


def rebuild(session: GameSession) -> Game:
    """The table after the stored moves.  They were checked when stored, so a failure here
    means the rules changed under a stored game: the admin's re-validate reports it."""
    return replay(session.game, session.deal.seed, session.tokens)


def _table(session: GameSession) -> Game:
    """The session's table, from this process's cache when it is current (see tables.py)."""
    return tables.take(session.pk, session.seq) or rebuild(session)


def _keep_after_commit(session: GameSession, g: Game) -> None:
    seq, copy, facts = session.seq, g.copy(), (session.player_id, session.deal)
    transaction.on_commit(lambda: tables.keep(session.pk, seq, copy, facts))


def time_bonus(game_key: str, seconds: float) -> int:
    # SPEC 3.4: only Baker's Dozen adds a time bonus to its score.
    if game_key == "bakers-dozen":
        return max(0, 1200 - int(seconds))
    return 0


def start_session(player: Player, game: str, deal_spec: object) -> Outcome:
    deal = deals.deal_for_request(game, deal_spec)
    with transaction.atomic():
        # Lock the player row so two simultaneous starts cannot both be the first attempt
        # (and so a guest being merged into an account, which locks it too, is seen).
        locked = Player.objects.select_for_update().filter(pk=player.pk).first()
        if locked is None or locked.merged_into_id is not None:
            raise PlayerMerged()
        if deal.date is not None:
            # Seeing the deal again while the ranked attempt is open would show its hidden
            # cards to the attempt (turn the whole stock in practice, then play ranked).
            open_ranked = GameSession.objects.filter(
                player=player, deal=deal, ranked=True, status=GameSession.PLAYING
            ).values_list("pk", flat=True).first()
            if open_ranked is not None:
                raise RankedAttemptOpen(open_ranked)
        first = not GameSession.objects.filter(player=player, deal=deal).exists()
        session = GameSession(
            player=player,
            deal=deal,
            game=deal.game,
            ranked=first and deal.date is not None and deal.date == deals.today(),
        )
        g = rebuild(session)
        _store_counters(session, g)
        session.save()
        _keep_after_commit(session, g)
    return Outcome(session, g)


def get_session(session_id: UUID | str, player: Player) -> Outcome:
    session = _owned(GameSession.objects.select_related("deal"), session_id, player)
    return Outcome(session, tables.peek(session.pk, session.seq) or rebuild(session))


def _owned(queryset: Any, session_id: UUID | str, player: Player) -> GameSession:
    try:
        session: GameSession = queryset.get(pk=session_id, player=player)
    except (GameSession.DoesNotExist, ValueError, TypeError, ValidationError):
        raise SessionNotFound("there is no such session of yours") from None
    return session


def _locked(session_id: UUID | str, player: Player) -> GameSession:
    if connection.vendor == "postgresql":
        return _locked_pg(session_id, player)
    return _owned(
        GameSession.objects.select_for_update().select_related("deal").defer("moves"),
        session_id, player,
    )


# Model field order, as Model.from_db expects; the move list stays unread.
_S_FIELDS = unlocked.FIELDS
_D_FIELDS = [f.attname for f in Deal._meta.concrete_fields]


def _locked_pg(session_id: UUID | str, player: Player) -> GameSession:
    """The session row locked FOR UPDATE, its moves left unread (they are loaded only if the
    cached table is missing).  Written out in SQL because this runs for every move and the
    ORM's query building cost more than the query itself."""
    try:
        pk = session_id if isinstance(session_id, UUID) else UUID(str(session_id))
    except ValueError:
        raise SessionNotFound("there is no such session of yours") from None
    s_cols = ", ".join(f"s.{f}" for f in _S_FIELDS)
    d_cols = ", ".join(f"d.{f}" for f in _D_FIELDS)
    sql = (
        f"SELECT {s_cols}, {d_cols} FROM {GameSession._meta.db_table} s "
        f"JOIN {Deal._meta.db_table} d ON d.id = s.deal_id "
        "WHERE s.id = %s AND s.player_id = %s FOR UPDATE OF s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, player.pk])
        row = cursor.fetchone()
    if row is None:
        raise SessionNotFound("there is no such session of yours")
    n = len(_S_FIELDS)
    session = GameSession.from_db(connection.alias, _S_FIELDS, list(row[:n]))
    deal = Deal.from_db(connection.alias, _D_FIELDS, list(row[n:]))
    deal.seed = int(deal.seed)  # stored as text (SeedField); from_db does not convert
    session.deal = deal
    return session


OP_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def clean_op(op: object) -> str | None:
    if op is None:
        return None
    if not isinstance(op, str) or not OP_RE.fullmatch(op):
        raise BadRequest("op must be 1 to 40 letters, digits, '-' or '_' (one id per operation)")
    return op


def _check_seq(session: GameSession, seq: object, required: bool, op: str | None = None
               ) -> bool:
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
    """The op id stored with move ``index`` (moves are [token, ms, op?])."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # one element, not the whole list
            cursor.execute(f"SELECT moves -> %s ->> 2 FROM {GameSession._meta.db_table} "
                           "WHERE id = %s", [index, session.pk])
            row = cursor.fetchone()
        return row[0] if row else None
    moves = GameSession.objects.values_list("moves", flat=True).get(pk=session.pk)
    move = moves[index] if index < len(moves) else None
    return move[2] if move is not None and len(move) > 2 else None


def _repeat(session: GameSession, op: str | None) -> Outcome:
    return Outcome(session, _table_kept(session), op=op, repeated=True)


def _table_kept(session: GameSession) -> Game:
    g = _table(session)
    _keep_after_commit(session, g)
    return g


def _store_counters(session: GameSession, g: Game) -> None:
    session.score = g.score if g.has_score else None
    session.cards_up = g.cards_up
    session.move_count = g.moves


def _record(session: GameSession, g: Game, tokens: list[str], op: str | None = None) -> bool:
    """Append ``tokens`` (already applied to ``g``) with the server's time (and the first
    with the client's ``op``) and store the new counters in one UPDATE; True when these
    moves won the game."""
    if session.seq + len(tokens) > MAX_MOVES:
        raise Refused(Reason("too_many_moves", f"a session holds at most {MAX_MOVES} moves",
                             n=MAX_MOVES), session.seq)
    now = timezone.now()
    stamp = int(now.timestamp() * 1000)
    added: list[list[Any]] = [[t, stamp] for t in tokens]
    if op is not None and added:
        added[0].append(op)
    session.seq += len(tokens)
    if session.started_at is None:
        session.started_at = now
    _store_counters(session, g)
    just_won = g.won and session.status != GameSession.WON
    if just_won:
        session.status = GameSession.WON
        session.finished_at = now
        session.time_ms = max(0, int((now - session.started_at).total_seconds() * 1000))
        if g.has_score:
            session.score = g.score + time_bonus(session.game, session.time_ms / 1000)
    fields = ["seq", "started_at", "score", "cards_up", "move_count", "undo_count", "status",
              "finished_at", "time_ms"]
    values = [getattr(session, f) for f in fields]
    if connection.vendor == "postgresql":
        # Appends to the stored list in place instead of sending it back whole.
        sets = ", ".join(f"{f} = %s" for f in fields)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {GameSession._meta.db_table} SET moves = moves || %s::jsonb, {sets} "
                "WHERE id = %s",
                [json.dumps(added), *values, session.pk],
            )
    else:
        GameSession.objects.filter(pk=session.pk).update(
            moves=[*session.moves, *added], **dict(zip(fields, values, strict=True))
        )
    _keep_after_commit(session, g)
    return just_won


def _require_playing(session: GameSession) -> None:
    if session.status == GameSession.WON:
        raise Refused(Reason("game_won", "this game is won: start a new one to play again"),
                      session.seq)
    if session.status == GameSession.RESIGNED:
        raise Refused(Reason("game_resigned",
                             "this attempt was resigned: start a new one to play again"),
                      session.seq)


def clean_token(token: object) -> str:
    if not isinstance(token, str) or not token.strip():
        raise BadRequest("move must be a non-empty string in the game's notation")
    token = token.strip()
    if len(token) > 16:
        raise BadRequest("move is too long to be a move")
    return token


def play_move(session_id: UUID | str, player: Player, seq: object, token: object,
              op: object = None) -> Outcome:
    hints.cancel(session_id)  # a move makes the running hint search moot
    token, op = clean_token(token), clean_op(op)
    fast = unlocked.play(session_id, player, seq, token, op)
    if fast is not None:
        return fast
    with transaction.atomic():
        session = _locked(session_id, player)
        if _check_seq(session, seq, required=True, op=op):
            return _repeat(session, op)
        _require_playing(session)
        g = _table(session)
        if token.lower() in {"u", "undo"}:
            return _undo(session, g, op)
        try:
            g.play(token)
        except IllegalMove as exc:
            tables.keep(session.pk, session.seq, g)  # a refused move leaves the table as it was
            raise Refused(exc.args[0], session.seq) from None
        # The token is stored as sent: replayed on the same table it parses to the same move.
        outcome = Outcome(session, g, just_won=_record(session, g, [token], op), op=op)
    return _after_commit(outcome)


def undo(session_id: UUID | str, player: Player, seq: object = None, op: object = None
         ) -> Outcome:
    hints.cancel(session_id)  # a move makes the running hint search moot
    op = clean_op(op)
    fast = unlocked.play(session_id, player, seq, UNDO, op) if seq is not None else None
    if fast is not None:
        return fast
    with transaction.atomic():
        session = _locked(session_id, player)
        if _check_seq(session, seq, required=False, op=op):
            return _repeat(session, op)
        _require_playing(session)
        return _undo(session, _table(session), op)


def _undo(session: GameSession, g: Game, op: str | None = None) -> Outcome:
    try:
        g.undo()
    except IllegalMove as exc:
        tables.keep(session.pk, session.seq, g)
        raise Refused(exc.args[0], session.seq) from None
    session.undo_count += 1
    _record(session, g, [UNDO], op)
    return Outcome(session, g, op=op)


def resign(session_id: UUID | str, player: Player, seq: object = None, op: object = None
           ) -> Outcome:
    """End the attempt where it stands: it is never won, and a ranked one stays on the
    board as any unfinished attempt (by cards up).  Resigning twice answers the state."""
    op = clean_op(op)
    hints.cancel(session_id)
    with transaction.atomic():
        session = _locked(session_id, player)
        if session.status == GameSession.RESIGNED:
            return _repeat(session, op)
        if _check_seq(session, seq, required=False, op=op):
            return _repeat(session, op)
        _require_playing(session)
        session.status, session.finished_at = GameSession.RESIGNED, timezone.now()
        GameSession.objects.filter(pk=session.pk, status=GameSession.PLAYING).update(
            status=session.status, finished_at=session.finished_at
        )
        return Outcome(session, _table_kept(session), op=op)


def finish(session_id: UUID | str, player: Player, seq: object = None, op: object = None
           ) -> Outcome:
    """Send every remaining card up, each one a stored move (undone one by one)."""
    hints.cancel(session_id)  # a move makes the running hint search moot
    op = clean_op(op)
    with transaction.atomic():
        session = _locked(session_id, player)
        if _check_seq(session, seq, required=False, op=op):
            return _repeat(session, op)
        _require_playing(session)
        g = _table(session)
        if not g.can_finish():
            tables.keep(session.pk, session.seq, g)
            raise Refused(Reason("cannot_finish",
                                 "the game cannot be finished automatically yet"), session.seq)
        tokens = []
        for move in g.finish_moves():
            tokens.append(g.notation(move))
            g.push(move)
        outcome = Outcome(session, g, just_won=_record(session, g, tokens, op), op=op)
    return _after_commit(outcome)


def hint(session_id: UUID | str, player: Player) -> Outcome:
    """Count the hint under the row lock, then search with the lock released, so a move the
    player makes meanwhile is never held up by the solver."""
    with transaction.atomic():
        session = _locked(session_id, player)
        g = _table(session)
        _keep_after_commit(session, g)  # a copy goes back; this table is now ours alone
        if session.status == GameSession.PLAYING:
            session.hint_count += 1
            GameSession.objects.filter(pk=session.pk).update(hint_count=F("hint_count") + 1)
    if g.won:
        return Outcome(session, g, hint=None, hint_source="heuristic")
    move, source = hints.suggest(g, session.pk, player.pk)
    return Outcome(session, g, hint=move, hint_source=source)


def state(outcome: Outcome) -> dict[str, Any]:
    """The answer after any operation: SPEC 9's shape plus the session's counters."""
    session, g = outcome.session, outcome.game
    st = g.state()
    out: dict[str, Any] = {
        "id": str(session.id),
        "game": session.game,
        "deal": session.deal.public_id,
        "date": session.deal.date.isoformat() if session.deal.date else None,
        "seq": session.seq,
        "status": session.status,
        "ranked": session.ranked,
        "view": st["view"],
        "legal_moves": st["legal_moves"],
        "score": session.score,
        "cards_up": st["cards_up"],
        "moves": st["moves"],
        "won": st["won"],
        "can_finish": st["can_finish"],
        "no_legal_move": st["no_legal_move"],
        "can_undo": st["can_undo"] and session.status == GameSession.PLAYING,
        "undo_count": session.undo_count,
        "hint_count": session.hint_count,
        "time_ms": session.time_ms,
        "started_at": session.started_at.isoformat() if session.started_at else None,
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
    }
    if session.game == "freecell":
        out["deal_number"] = session.deal.seed  # FreeCell deals are public numbers
    if outcome.op is not None:
        out["op"] = outcome.op
    if outcome.repeated:
        out["repeated"] = True
    if outcome.hint_source is not None:
        out["hint"] = outcome.hint
        out["source"] = outcome.hint_source
        out["verdict"] = {"solver": "solved", "unsolvable": "unsolvable"}.get(
            outcome.hint_source, "unknown"
        )
    return out


__all__ = [
    "BadRequest",
    "Outcome",
    "PlayerMerged",
    "RankedAttemptOpen",
    "Refused",
    "ReplayError",
    "SessionNotFound",
    "StaleSeq",
    "finish",
    "get_session",
    "hint",
    "play_move",
    "resign",
    "start_session",
    "state",
    "undo",
]
