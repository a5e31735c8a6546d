"""Background work for games; tasks take plain values and are idempotent."""

from __future__ import annotations

import datetime as dt
from importlib import import_module

from celery import shared_task
from django.conf import settings

from games.daily.analysis import analyse_session  # noqa: F401  (the analyses' task, with its work)
from games.daily.deals import ensure_dailies, today


@shared_task(acks_late=True)
def create_daily_deals(days: int | None = None, start: str | None = None) -> list[str]:
    """Create (and certify, once the solver exists) the coming days' deals."""
    first = dt.date.fromisoformat(start) if start else today()
    deals = ensure_dailies(first, days if days is not None else settings.DAILY_DAYS_AHEAD + 1)
    return [deal.public_id for deal in deals]


@shared_task(acks_late=True)
def clear_expired_sessions() -> None:
    """Delete browser sessions past their expiry: a session lives a year (games/session_life.py),
    so without this the table keeps every browser that ever visited."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_account_mail(subject: str, body: str, to: str) -> None:
    """One mail to a player (a password reset), sent by a worker: the page that asked for
    it answers at once and as fast whether or not a mail goes out, so its timing says
    nothing about which addresses have accounts; a mail server that is down is retried."""
    from django.core.mail import send_mail

    send_mail(subject, body, None, [to])
