"""Hooks the games app calls when a session changes in a way the boards care about."""

from __future__ import annotations

from games.models import GameSession


def session_won(session: GameSession) -> None:
    """Called after the winning move is committed: queue the scoring."""
    if session.ranked and session.deal.date is not None:
        from django.conf import settings

        from leaderboards.tasks import score_session

        try:
            score_session.apply_async((str(session.pk),),
                                      queue=settings.CELERY_TASK_DEFAULT_QUEUE)
        except Exception as exc:  # noqa: BLE001 - the broker (Redis) is unreachable
            # The win is stored; write its entry in PostgreSQL now.  The Redis rank index is
            # rebuilt from PostgreSQL the next time it is read after Redis is back.
            import logging

            from leaderboards.models import Entry
            from leaderboards.ranking import entry_values

            logging.getLogger(__name__).warning("scoring inline, broker unavailable: %s", exc)
            if settings.CELERY_TASK_ALWAYS_EAGER:
                raise
            Entry.objects.update_or_create(session=session, defaults=entry_values(session))


def session_disqualified(session: GameSession) -> None:
    from leaderboards import index, live

    if session.deal.date is not None:
        if session.disqualified:
            index.remove(session.game, session.deal.date, session.pk)
        else:
            index.rebuild(session.game, session.deal.date)
        live.push_board(session.game, session.deal.date)
