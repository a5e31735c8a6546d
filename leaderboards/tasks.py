"""Scoring and ranking work (docs/architecture.md, "Background work").  Messages carry ids; every task is idempotent, so a
retry or a redelivery after a worker died gives the same rows."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games import days
from games.daily import today
from games.engine import DAILY_GAMES
from games.models import Deal, GameSession
from games.review import review
from leaderboards import closing, index, live
from leaderboards.models import DayClosed, Entry
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
            log.error("score_session %s: won after its day %s ended; not entered",
                      session_id, day)
            return None
        if closing.is_closed(session.game, day):
            return None  # the close entered it already (closing.py): a closed board is final
        review(session)  # verified, or under review with its reasons (games/review.py)
        entry, _ = Entry.objects.update_or_create(session=session, defaults=entry_values(session))
    if not session.disqualified:
        index.add(entry)
    live.push_board(entry.game, entry.date)
    return {"session": session_id, "rank": index.rank(entry.game, entry.date, session_id)}


@shared_task(acks_late=True)
def close_day(date: str | None = None) -> dict[str, int]:
    """Final ranks for a finished day (yesterday by default; leaderboards/closing.py): open
    ranked attempts end, unfinished ones get their entries, every entry its final rank, and
    the index is rebuilt.  Once the day is over its deals' seeds and salts are revealed
    (docs/deals.md, "Commit, then reveal").  A day not over yet is left alone."""
    day = dt.date.fromisoformat(date) if date else today() - dt.timedelta(days=1)
    if not days.is_over(day):
        log.warning("close_day %s: the day is not over yet (today is %s); nothing done",
                    day, today())
        return {}
    Deal.objects.filter(date=day, revealed_at__isnull=True).update(revealed_at=timezone.now())
    deals = {d.game: d for d in Deal.objects.filter(date=day, game__in=DAILY_GAMES)}
    out = {}
    for game in DAILY_GAMES:
        deal = deals.get(game)
        if deal is None:  # no deal that day (the game was not a daily yet): nothing to rank
            DayClosed.objects.update_or_create(game=game, date=day, defaults={"entries": 0})
            out[game] = 0
            continue
        out[game] = closing.close_game(deal, progress=log.info)
        index.rebuild(game, day)
        live.push_board(game, day)
    return out


@shared_task(acks_late=True)
def rebuild_rank_index(game: str | None = None, date: str | None = None) -> dict[str, int]:
    """Rebuild the Redis index from PostgreSQL (all daily games of a day by default)."""
    day = dt.date.fromisoformat(date) if date else today()
    games = [game] if game else list(DAILY_GAMES)
    return {g: index.rebuild(g, day) for g in games}
