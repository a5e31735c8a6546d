"""One session's operations: start, move, undo, resign, finish, hint.

A move takes the optimistic store first (``optimistic``: checked on the table kept in this
process, stored by one conditional statement, no lock); anything it declines takes the
locked path (``locked``).  Both append the move with its server timestamp and the new
counters before anything is answered.  The ``seq`` a client sends is the number of moves it
has seen; a stale or repeated one is refused, so a move sent twice is applied once.

A client may also name each operation with an ``op`` id, stored beside the move it made.
A retry carries the same ``seq`` and ``op`` as the first try, so when the first try was
stored after all, the retry finds its own ``op`` at that ``seq`` and is answered with the
state (``repeated``), never stored a second time and never mistaken for a new move.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from uuid import UUID

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games import signals
from games.daily import deals as daily
from games.engine import GAMES, Game, IllegalMove, endgame
from games.engine.reasons import Reason
from games.engine.solver import SOLVED, Hint
from games.engine.undo import is_undo, stored
from games.errors import HintUnavailable, PlayerMerged, RankedAttemptOpen, Refused
from games.models import Deal, GameSession, Player
from games.play import analysis_cache, fresh, hint_pool, hints, locked, optimistic, tables
from games.play.outcome import UNDO, Outcome, clean_op, clean_token

# The row a new session locks (see start_session).  Written once: the ORM's select_for_update
# query cost more to build than to run (bench/http_cost.py).  SQLite (``make run``'s
# embedded default) has no FOR UPDATE: it locks the whole database for a write, as
# select_for_update leaves it there.
_LOCK_PLAYER = (
    f"SELECT {Player._meta.get_field('merged_into').column} FROM "
    f"{Player._meta.db_table} WHERE {Player._meta.pk.column} = %s"
)


def _after_commit(outcome: Outcome) -> Outcome:
    """Runs once the transaction is committed, so a worker sees the stored win."""
    if outcome.just_won:
        signals.session_won.send(GameSession, session=outcome.session)
    return outcome


def start_session(
    player: Player,
    game: str,
    deal_spec: object,
    client: tuple[str, str] = ("", ""),
    new_player: bool = False,
) -> Outcome:
    """A new attempt; ``client`` is the keyed (address, device) of the browser asking
    (games/accounts/devices.py), kept so a later win can see who played the deal first.
    ``new_player``: the player is a guest made by this very request."""
    if deal_spec == "random" and game in GAMES and fresh.usable():
        # The deal and the session by one statement (fresh.py); a daily's FreeCell number,
        # or a seed another request is inserting, goes on below with that seed's deal.
        seed = GAMES[game].random_seed()
        session, g = _new(player, Deal(game=game, seed=seed), False, client)
        made, started = fresh.insert_with_deal(session)
        if started:
            locked.keep_after_commit(session, g)  # at once, in autocommit
            return Outcome(session, g)
        deal = daily.opened(made or daily.deal_row(game, seed))
    else:
        deal = daily.deal_for_request(game, deal_spec)
    if (deal.date is None or new_player) and fresh.usable():  # one statement (fresh.py)
        # Never ranked; or the first session of a guest made by this request, which no
        # other request knows yet: it has no earlier attempt, none open, and no second
        # start racing it, so the locked checks below would find nothing.  Ranked when the
        # deal is today's daily, as the first attempt always is.
        ranked = deal.date is not None and deal.date == daily.today()
        session, g = _new(player, deal, ranked, client)
        fresh.insert(session)
        locked.keep_after_commit(session, g)  # at once, in autocommit
        return Outcome(session, g)
    with transaction.atomic():
        # Lock the player row so two simultaneous starts cannot both be the first attempt
        # (and so a guest being merged into an account, which locks it too, is seen).
        with connection.cursor() as cursor:  # one short statement, not built by the ORM
            lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
            cursor.execute(_LOCK_PLAYER + lock, [player.pk])
            row = cursor.fetchone()
        if row is None or row[0] is not None:
            raise PlayerMerged()
        if deal.date is not None:
            # Seeing the deal again while the ranked attempt is open would show its hidden
            # cards to the attempt (turn the whole stock in practice, then play ranked).
            open_ranked = (
                GameSession.objects.filter(
                    player=player, deal=deal, ranked=True, status=GameSession.PLAYING
                )
                .values_list("pk", flat=True)
                .first()
            )
            if open_ranked is not None:
                raise RankedAttemptOpen(open_ranked)
        # Only today's daily is ever ranked: any other deal needs no look at earlier tries.
        ranked = (
            deal.date is not None
            and deal.date == daily.today()
            and not (GameSession.objects.filter(player=player, deal=deal).exists())
        )
        session, g = _new(player, deal, ranked, client)
        session.save()
        locked.keep_after_commit(session, g)
    return Outcome(session, g)


def _new(
    player: Player, deal: Deal, ranked: bool, client: tuple[str, str]
) -> tuple[GameSession, Game]:
    """A session not stored yet, with its dealt table and the table's counters."""
    session = GameSession(
        player=player,
        deal=deal,
        game=deal.game,
        ranked=ranked,
        scoring=GAMES[deal.game].scoring,
        client_key=client[0],
        device_key=client[1],
    )
    g = locked.rebuild(session)
    locked.store_counters(session, g)
    return session, g


def get_session(session_id: UUID | str, player: Player) -> Outcome:
    session = locked.read(session_id, player)
    return Outcome(session, tables.peek(session.pk, session.seq) or locked.rebuild(session))


def play_move(
    session_id: UUID | str,
    player: Player,
    seq: object,
    token: object,
    op: object = None,
    declined: optimistic.Declined | None = None,
) -> Outcome:
    """The optimistic store first, then the locked path for whatever it declines.  The
    socket tries the store itself on its event loop and passes what it declined
    (``declined``: the move cleaned, and checked when a kept table allowed), so no move is
    parsed or checked twice."""
    if declined is None:
        hints.cancel(session_id)  # a move makes the running hint search moot
        fast = optimistic.play(session_id, player, seq, clean_token(token), clean_op(op))
        if isinstance(fast, Outcome):
            return fast
        declined = fast
    return _locked_move(session_id, player, seq, declined, required=True)


def undo(session_id: UUID | str, player: Player, seq: object = None, op: object = None) -> Outcome:
    hints.cancel(session_id)  # a move makes the running hint search moot
    op = clean_op(op)
    # With no seq there is no kept table to check it on: the locked path reads the row.
    fast = (
        optimistic.play(session_id, player, seq, UNDO, op)
        if seq is not None
        else optimistic.Declined(UNDO, op)
    )
    if isinstance(fast, Outcome):
        return fast
    return _locked_move(session_id, player, seq, fast, required=False)


def _locked_move(
    session_id: UUID | str,
    player: Player,
    seq: object,
    declined: optimistic.Declined,
    required: bool,
) -> Outcome:
    """A move or an undo under the row lock.  Once the row is known to be at ``seq`` (a
    stale seq or a retry is answered first), what the check on the kept table found stands:
    its refusal is the answer, its table after a win is the one stored."""
    token, op = declined.token, declined.op
    with transaction.atomic():
        session = locked.lock(session_id, player)
        if locked.open_or_retried(session, seq, required=required, op=op):
            return locked.repeat(session, op)
        locked.require_playing(session)
        if declined.refusal is not None:  # the table after seq is as it was, kept
            raise Refused(declined.refusal, session.seq)
        g = declined.game
        if g is None:
            g = locked.table(session)
            try:
                g.undo() if is_undo(token) else g.play(token)
            except IllegalMove as exc:
                tables.keep(session.pk, session.seq, g)  # a refused move leaves it as it was
                raise Refused(exc.args[0], session.seq) from None
        if is_undo(token):
            session.undo_count += 1
        # The token is stored as sent (an undo as ``u``): replayed on the same table it
        # parses to the same move.
        just_won = locked.record(session, g, [stored(token)], op)
        outcome = Outcome(session, g, just_won=just_won, op=op)
    return _after_commit(outcome)


def resign(
    session_id: UUID | str, player: Player, seq: object = None, op: object = None
) -> Outcome:
    """End the attempt where it stands: it is never won, and a ranked one stays on the
    board as any unfinished attempt (by cards up).  Resigning twice answers the state."""
    op = clean_op(op)
    hints.cancel(session_id)
    done = locked.resign_at_once(session_id, player, seq, timezone.now())
    if done is not None:
        return Outcome(done, locked.table_kept(done), op=op)
    with transaction.atomic():
        session = locked.lock(session_id, player)
        locked.require_open_day(session)
        if session.status == GameSession.RESIGNED:
            return locked.repeat(session, op)
        if locked.check_seq(session, seq, required=False, op=op):
            return locked.repeat(session, op)
        locked.require_playing(session)
        session.status, session.finished_at = GameSession.RESIGNED, timezone.now()
        GameSession.objects.filter(pk=session.pk, status=GameSession.PLAYING).update(
            status=session.status, finished_at=session.finished_at
        )
        return Outcome(session, locked.table_kept(session), op=op)


def finish(
    session_id: UUID | str, player: Player, seq: object = None, op: object = None
) -> Outcome:
    """Send every remaining card up, each one a stored move (undone one by one)."""
    hints.cancel(session_id)  # a move makes the running hint search moot
    op = clean_op(op)
    with transaction.atomic():
        session = locked.lock(session_id, player)
        if locked.open_or_retried(session, seq, required=False, op=op):
            return locked.repeat(session, op)
        locked.require_playing(session)
        g = locked.table(session)
        if not endgame.can_finish(g):
            tables.keep(session.pk, session.seq, g)
            raise Refused(
                Reason("cannot_finish", "the game cannot be finished automatically yet"),
                session.seq,
            )
        tokens = []
        for move in endgame.finish_moves(g):
            tokens.append(g.notation(move))
            g.push(move)
        outcome = Outcome(session, g, just_won=locked.record(session, g, tokens, op), op=op)
    return _after_commit(outcome)


class HintAsked(NamedTuple):
    """A hint asked for and counted: its session, table, place in the hint pool and, when
    no search is needed, its answer already (``found``)."""

    session: GameSession
    game: Game
    job: hints.Job
    found: Any


def hint(session_id: UUID | str, player: Player) -> Outcome:
    """A hint in this thread: asked, waited for (the search runs in the hint pool), and
    answered.  The socket waits on its event loop instead (``hint_ask``/``hint_answer``)."""
    asked = hint_ask(session_id, player)
    return hint_answer(asked, asked.found or hint_pool.wait(asked.job))


def hint_ask(session_id: UUID | str, player: Player) -> HintAsked:
    """A place in the hint pool first (a refused hint changes nothing, not even the count),
    then the hint counted under the row lock, then the table sent to the pool with the
    lock released, so a move the player makes meanwhile is never held up by the solver."""
    try:
        job, joined = hints.admit(session_id, player.pk)
    except HintUnavailable:
        # A hint the pool cannot take on a day that is over: the day's end is the answer.
        locked.require_open_day(locked.read(session_id, player))
        raise
    try:
        with transaction.atomic():
            session = locked.lock(session_id, player)
            locked.require_open_day(session)
            g = locked.table(session)
            locked.keep_after_commit(session, g)  # a copy goes back; this table is ours alone
            if session.status == GameSession.PLAYING:
                session.hint_count += 1
                GameSession.objects.filter(pk=session.pk).update(hint_count=F("hint_count") + 1)
    except BaseException:
        hints.abandon(job, joined)
        raise
    if g.won:
        hints.abandon(job, joined)
        return HintAsked(session, g, job, Hint(None, SOLVED))
    found = hints.start(
        job, joined, g, session.pk, session.seq, analysis_cache.daily_of(session.deal)
    )
    return HintAsked(session, g, job, found)


def hint_answer(asked: HintAsked, found: Any) -> Outcome:
    session, g = asked.session, asked.game
    if g.won:
        return Outcome(session, g, hint=None, hint_source="heuristic")
    move, source = hints.answer(
        g, found, session.pk, session.seq, analysis_cache.daily_of(session.deal)
    )
    return Outcome(session, g, hint=move, hint_source=source)
