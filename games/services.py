"""Playing a session: the one path every move takes, whether it comes over HTTP or a socket.

Each operation locks the session row (``select_for_update``), takes the table after the
stored moves (kept in this process between moves, else replayed from the stored list with
the engine), checks the move, and stores the move with its server timestamp and the new
counters before anything is answered.  The ``seq`` a client sends is
the number of moves it has seen; a stale or repeated one is refused, so a move sent twice is
applied once.
"""

from __future__ import annotations

import json
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


@dataclass
class Outcome:
    session: GameSession
    game: Game
    hint: dict[str, Any] | None = None
    hint_source: str | None = None
    just_won: bool = False


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
        # Lock the player row so two simultaneous starts cannot both be the first attempt.
        Player.objects.select_for_update().get(pk=player.pk)
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


def _check_seq(session: GameSession, seq: object, required: bool) -> None:
    if seq is None:
        if required:
            raise BadRequest("seq is required: the number of moves the client has seen")
        return
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise BadRequest("seq must be an integer")
    if seq != session.seq:
        raise StaleSeq(session.seq)


def _store_counters(session: GameSession, g: Game) -> None:
    session.score = g.score if g.has_score else None
    session.cards_up = g.cards_up
    session.move_count = g.moves


def _record(session: GameSession, g: Game, tokens: list[str]) -> bool:
    """Append ``tokens`` (already applied to ``g``) with the server's time and store the new
    counters in one UPDATE; True when these moves won the game."""
    if session.seq + len(tokens) > MAX_MOVES:
        raise Refused(Reason("too_many_moves", f"a session holds at most {MAX_MOVES} moves",
                             n=MAX_MOVES), session.seq)
    now = timezone.now()
    stamp = int(now.timestamp() * 1000)
    added = [[t, stamp] for t in tokens]
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


def clean_token(token: object) -> str:
    if not isinstance(token, str) or not token.strip():
        raise BadRequest("move must be a non-empty string in the game's notation")
    token = token.strip()
    if len(token) > 16:
        raise BadRequest("move is too long to be a move")
    return token


def play_move(session_id: UUID | str, player: Player, seq: object, token: object) -> Outcome:
    token = clean_token(token)
    fast = unlocked.play(session_id, player, seq, token)
    if fast is not None:
        return fast
    with transaction.atomic():
        session = _locked(session_id, player)
        _check_seq(session, seq, required=True)
        _require_playing(session)
        g = _table(session)
        if token.lower() in {"u", "undo"}:
            return _undo(session, g)
        try:
            g.play(token)
        except IllegalMove as exc:
            tables.keep(session.pk, session.seq, g)  # a refused move leaves the table as it was
            raise Refused(exc.args[0], session.seq) from None
        # The token is stored as sent: replayed on the same table it parses to the same move.
        outcome = Outcome(session, g, just_won=_record(session, g, [token]))
    return _after_commit(outcome)


def undo(session_id: UUID | str, player: Player, seq: object = None) -> Outcome:
    fast = unlocked.play(session_id, player, seq, UNDO) if seq is not None else None
    if fast is not None:
        return fast
    with transaction.atomic():
        session = _locked(session_id, player)
        _check_seq(session, seq, required=False)
        _require_playing(session)
        return _undo(session, _table(session))


def _undo(session: GameSession, g: Game) -> Outcome:
    try:
        g.undo()
    except IllegalMove as exc:
        tables.keep(session.pk, session.seq, g)
        raise Refused(exc.args[0], session.seq) from None
    session.undo_count += 1
    _record(session, g, [UNDO])
    return Outcome(session, g)


def finish(session_id: UUID | str, player: Player, seq: object = None) -> Outcome:
    """Send every remaining card up, each one a stored move (undone one by one)."""
    with transaction.atomic():
        session = _locked(session_id, player)
        _check_seq(session, seq, required=False)
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
        outcome = Outcome(session, g, just_won=_record(session, g, tokens))
    return _after_commit(outcome)


def hint(session_id: UUID | str, player: Player) -> Outcome:
    """Count the hint under the row lock, then search with the lock released, so a move the
    player makes meanwhile is never held up by the solver."""
    with transaction.atomic():
        session = _locked(session_id, player)
        g = _table(session)
        _keep_after_commit(session, g)  # a copy goes back; this table is now ours alone
        if not g.won:
            session.hint_count += 1
            GameSession.objects.filter(pk=session.pk).update(hint_count=F("hint_count") + 1)
    if g.won:
        return Outcome(session, g, hint=None, hint_source="heuristic")
    move, source = hints.suggest(g)
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
        "can_undo": st["can_undo"] and session.status != GameSession.WON,
        "undo_count": session.undo_count,
        "hint_count": session.hint_count,
        "time_ms": session.time_ms,
        "started_at": session.started_at.isoformat() if session.started_at else None,
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
    }
    if session.game == "freecell":
        out["deal_number"] = session.deal.seed  # FreeCell deals are public numbers
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
    "Refused",
    "ReplayError",
    "SessionNotFound",
    "StaleSeq",
    "finish",
    "get_session",
    "hint",
    "play_move",
    "start_session",
    "state",
    "undo",
]
