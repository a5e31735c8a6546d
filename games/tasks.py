"""Background work for games; tasks take plain values and are idempotent."""

from __future__ import annotations

import datetime as dt
from importlib import import_module

from celery import shared_task
from django.conf import settings

from games.daily import ensure_dailies, today


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
