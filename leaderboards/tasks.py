"""Scoring and ranking work (docs/architecture.md, "Background work").  Messages carry ids; every task is idempotent, so a
retry or a redelivery after a worker died gives the same rows."""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games.daily import today
from games.engine import DAILY_GAMES
from games.models import Deal, GameSession
from games.review import review
from leaderboards import index, live
from leaderboards.models import DayClosed, Entry
from leaderboards.ranking import entry_values


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
        review(session)  # verified, or under review with its reasons (games/review.py)
        entry, _ = Entry.objects.update_or_create(session=session, defaults=entry_values(session))
    if not session.disqualified:
        index.add(entry)
    live.push_board(entry.game, entry.date)
    return {"session": session_id, "rank": index.rank(entry.game, entry.date, session_id)}


@shared_task(acks_late=True)
def close_day(date: str | None = None) -> dict[str, int]:
    """Final ranks for a finished day (yesterday by default): unfinished ranked attempts get
    their entries, every entry its final rank, and the index is rebuilt.  Once the day is
    over its deals' seeds and salts are revealed (docs/deals.md, "Commit, then reveal")."""
    day = dt.date.fromisoformat(date) if date else today() - dt.timedelta(days=1)
    if day < today():
        Deal.objects.filter(date=day, revealed_at__isnull=True).update(revealed_at=timezone.now())
    out = {}
    for game in DAILY_GAMES:
        with transaction.atomic():
            sessions = GameSession.objects.filter(
                deal__game=game, deal__date=day, ranked=True, started_at__isnull=False
            ).select_related("deal")
            for session in sessions:
                Entry.objects.update_or_create(session=session, defaults=entry_values(session))
            # An attempt that stopped being ranked (a guest merged into an account whose
            # own attempt started first) keeps no entry.
            Entry.objects.filter(game=game, date=day, session__ranked=False).delete()
            ranked = Entry.objects.filter(game=game, date=day).order_by(
                "session__disqualified", "sort_key", "session_id"
            ).select_related("session")
            count = 0
            for entry in ranked:
                rank = None if entry.session.disqualified else count + 1
                count += 0 if rank is None else 1
                if entry.final_rank != rank:
                    entry.final_rank = rank
                    entry.save(update_fields=["final_rank"])
            DayClosed.objects.update_or_create(game=game, date=day, defaults={"entries": count})
        index.rebuild(game, day)
        live.push_board(game, day)
        out[game] = count
    return out


@shared_task(acks_late=True)
def rebuild_rank_index(game: str | None = None, date: str | None = None) -> dict[str, int]:
    """Rebuild the Redis index from PostgreSQL (all daily games of a day by default)."""
    day = dt.date.fromisoformat(date) if date else today()
    games = [game] if game else list(DAILY_GAMES)
    return {g: index.rebuild(g, day) for g in games}
