"""Scoring and ranking work (docs/architecture.md, "Background work").  Messages carry ids; every task is idempotent, so a
retry or a redelivery after a worker died gives the same rows."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task
from django.db import transaction

from games.daily import days
from games.daily.deals import today
from games.fairplay.review import review
from games.models import AuditEntry, GameSession
from leaderboards import closing, index, live, periods

# The tasks a module asks for its own work live beside that work (a module that sends a
# task and the module of tasks that runs it would import each other); the three imported
# by name here are registered with the rest.
from leaderboards.index import rebuild_rank_index  # noqa: F401
from leaderboards.models import Entry
from leaderboards.pending import refresh_board  # noqa: F401
from leaderboards.periods import refresh_period_board  # noqa: F401
from leaderboards.ranking import entry_values

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def score_session(session_id: str) -> dict[str, Any] | None:
    """Write a finished ranked session's entry, index it, push the board to its watchers."""
    with transaction.atomic():
        session = (
            GameSession.objects.select_for_update(of=("self",))
            .select_related("deal")
            .filter(pk=session_id)
            .first()
        )
        if session is None or not session.ranked or session.deal.date is None:
            return None
        if session.status != GameSession.WON:
            return None  # only day close writes unfinished entries
        day = session.deal.date
        if session.finished_at is None or session.finished_at >= days.day_end(day):
            # Play is refused once the day is over; a win stored after it anyway is not
            # one the board of that day can take.
            log.error("score_session %s: won after its day %s ended; not entered", session_id, day)
            return None
        if closing.is_closed(session.game, day):
            return None  # the close entered it already (closing.py): a closed board is final
        review(session)  # verified, or under review with its reasons (games/fairplay/review.py)
        entry, _ = Entry.objects.update_or_create(session=session, defaults=entry_values(session))
    if not session.disqualified:
        index.add(entry)
    periods.invalidate(entry.game, entry.date)
    live.push_board(entry.game, entry.date)
    return {"session": session_id, "rank": index.rank(entry.game, entry.date, session_id)}


@shared_task(acks_late=True)
def close_day(
    date: str | None = None,
    game: str | None = None,
    force: bool = False,
    correction_of: str | None = None,
) -> dict[str, int]:
    """Final ranks for a finished day (yesterday by default; leaderboards/closing.py): open
    ranked attempts end, unfinished ones get their entries, every entry its final rank, and
    the index is rebuilt.  Once the day is over its deals' seeds and salts are revealed
    (docs/deals.md, "Commit, then reveal").  A day not over yet is left alone, and so is a
    game's day already closed unless ``force`` (a late correction closes it again).

    It runs on a queue of its own (CELERY_CLOSE_QUEUE), whose workers hold a message for
    CELERY_CLOSE_VISIBILITY_TIMEOUT before the broker hands it to another (config/celery.py):
    a close that takes minutes is not run again beside itself.

    ``correction_of``: the session whose disqualification (or reinstatement) asked for this
    close; the audit trail keeps the re-close with the number of ranks written again."""
    day = dt.date.fromisoformat(date) if date else today() - dt.timedelta(days=1)
    changed: dict[str, int] = {}
    out = closing.close(day, [game] if game else None, force=force, changed=changed)
    if correction_of is not None and game is not None:
        AuditEntry.objects.create(
            session_id=correction_of,
            action="day_reclosed",
            reason=f"{game} {day}: final ranks written again",
            data={"ranks_changed": changed.get(game, 0)},
        )
    return out
