"""What the boards do when play tells them something (``games.signals``), connected in
``LeaderboardsConfig.ready()``."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from games import signals
from games.models import GameSession, Player
from leaderboards import closing, index, live, periods
from leaderboards.models import DayClosed, Entry
from leaderboards.ranking import entry_values
from leaderboards.tasks import close_day, score_session

log = logging.getLogger(__name__)


def session_won(sender: Any, session: GameSession, **_: Any) -> None:
    """After the winning move is committed: queue the scoring."""
    if session.ranked and session.deal.date is not None:
        try:
            score_session.apply_async((str(session.pk),), queue=settings.CELERY_TASK_DEFAULT_QUEUE)
        except Exception as exc:  # noqa: BLE001 - the broker (Redis) is unreachable
            # The win is stored; write its entry in PostgreSQL now.  The Redis rank index is
            # rebuilt from PostgreSQL the next time it is read after Redis is back.
            log.warning("scoring inline, broker unavailable: %s", exc)
            if settings.CELERY_TASK_ALWAYS_EAGER:
                raise
            Entry.objects.update_or_create(session=session, defaults=entry_values(session))


def session_disqualified(sender: Any, session: GameSession, **_: Any) -> None:
    """A disqualification (or its reversal) on a closed day is a late correction: the day is
    closed again so its final ranks follow, and the re-close is kept in the audit trail."""
    day = session.deal.date
    if day is None:
        return
    if session.ranked and closing.is_closed(session.game, day):
        # On the close's queue (the change is committed: the signal is sent after it): a
        # million entries are ranked again in seconds, which no admin request waits for.
        close_day.apply_async(
            (day.isoformat(), session.game, True, str(session.pk)),
            queue=settings.CELERY_CLOSE_QUEUE,
        )
        return
    if session.disqualified:
        index.remove(session.game, day, session.pk)
    elif (entry := Entry.objects.filter(session=session).first()) is not None:
        index.add(entry)  # reinstated: back at its place
    periods.invalidate(session.game, day)
    live.push_board(session.game, day)


def attempts_merged(
    sender: Any, account: Player, guest: Player, demoted: Iterable[GameSession], **_: Any
) -> None:
    """Inside the merge's transaction (games/merge.py): the guest's entries become the
    account's, a demoted attempt loses its entry, and once committed the rank index, the
    final ranks of closed days and the boards watching follow."""
    demoted = list(demoted)
    gone = list(Entry.objects.filter(session__in=demoted).values_list("game", "date", "session_id"))
    Entry.objects.filter(session__in=demoted).delete()
    days = {(g, d) for g, d, _ in gone}
    days |= set(Entry.objects.filter(player=guest).values_list("game", "date"))
    Entry.objects.filter(player=guest).update(player=account)
    days |= {(s.game, s.deal.date) for s in demoted if s.deal.date is not None}
    closed = {(g, d) for g, d in days if DayClosed.objects.filter(game=g, date=d).exists()}
    demoted_on = {(s.game, s.deal.date): str(s.pk) for s in demoted if s.deal.date is not None}

    def after() -> None:
        for game, date, session_id in gone:
            index.remove(game, date, session_id)
        for game, date in sorted(closed):
            # Final ranks without the demoted attempt, on the close's queue: seconds for a
            # day of a million, which the signing-in player does not wait for.  Audited as
            # any late correction of a closed board is (``day_reclosed``), on the demoted
            # attempt.
            close_day.apply_async(
                (date.isoformat(), game, True),
                {"correction_of": demoted_on.get((game, date))},
                queue=settings.CELERY_CLOSE_QUEUE,
            )
        for game, date in days:
            periods.invalidate(game, date)
            if (game, date) not in closed:
                live.push_board(game, date)

    transaction.on_commit(after)


def session_reviewed(sender: Any, session: GameSession, **_: Any) -> None:
    """An operator's review decision reaches the session's entry and its board."""
    if session.deal.date is None:
        return
    Entry.objects.filter(session=session).update(verified=session.verified, review=session.review)
    live.push_board(session.game, session.deal.date)


def presence_changed(sender: Any, game: str, date: dt.date, **_: Any) -> None:
    live.push_presence(game, date)


def connect() -> None:
    signals.session_won.connect(session_won, dispatch_uid="boards.session_won")
    signals.session_disqualified.connect(
        session_disqualified, dispatch_uid="boards.session_disqualified"
    )
    signals.attempts_merged.connect(attempts_merged, dispatch_uid="boards.attempts_merged")
    signals.presence_changed.connect(presence_changed, dispatch_uid="boards.presence")
    signals.session_reviewed.connect(session_reviewed, dispatch_uid="boards.reviewed")
