"""Hooks the games app calls when a session changes in a way the boards care about."""

from __future__ import annotations

from games.models import GameSession


def session_won(session: GameSession) -> None:
    """Called after the winning move is committed: queue the scoring."""
    if session.ranked and session.deal.date is not None:
        from django.conf import settings

        from leaderboards.tasks import score_session

        score_session.apply_async((str(session.pk),), queue=settings.CELERY_TASK_DEFAULT_QUEUE)


def session_disqualified(session: GameSession) -> None:
    from leaderboards import index, live

    if session.deal.date is not None:
        if session.disqualified:
            index.remove(session.game, session.deal.date, session.pk)
        else:
            index.rebuild(session.game, session.deal.date)
        live.push_board(session.game, session.deal.date)
