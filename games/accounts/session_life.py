"""A browser session lives a year and is renewed as its player plays.

A guest is nothing but a browser session: when it expires, every game the guest played is
out of reach.  So sessions last ``SESSION_COOKIE_AGE`` (a year) and each visit pushes the
end back, but only once its remaining life is a day short of the full age, so renewing
costs at most one write a day per browser, not one per request.

``SessionStore`` (``SESSION_ENGINE``) is Django's database store that also keeps the
stored expiry it read, so deciding costs no query.  Over HTTP, ``SessionLifeMiddleware``
marks a due session changed and Django's ``SessionMiddleware`` saves it and sends the
cookie again with a fresh Max-Age; a socket (which never writes the session) calls
``keep_alive`` when it opens, which moves the stored expiry only.  Expired sessions are
deleted by ``games.tasks.clear_expired_sessions`` on the beat schedule.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from games.errors import TryLater

log = logging.getLogger(__name__)

SESSION_KEY = "player_id"  # the browser session's entry naming its player

RENEW_AFTER = dt.timedelta(days=1)


class SessionStore(DatabaseSessionStore):
    stored_expiry: dt.datetime | None = None

    # The store's own loaders (not in the type stubs), extended to remember the expiry.
    def _get_session_from_db(self) -> Any:
        row = super()._get_session_from_db()  # type: ignore[misc]
        self.stored_expiry = row.expire_date if row is not None else None
        return row

    async def _aget_session_from_db(self) -> Any:
        row = await super()._aget_session_from_db()  # type: ignore[misc]
        self.stored_expiry = row.expire_date if row is not None else None
        return row


def _due(session: Any) -> dt.datetime | None:
    """The expiry a renewal would give, if this loaded session is due one."""
    stored = getattr(session, "stored_expiry", None)
    if stored is None or not getattr(session, "accessed", False) or session.is_empty():
        return None
    if isinstance(session.get("_session_expiry"), str):
        return None  # set_expiry() gave it a fixed end: that is not to move
    renewed = timezone.now() + dt.timedelta(seconds=session.get_expiry_age())
    return renewed if stored < renewed - RENEW_AFTER else None


def keep_alive(session: Any) -> None:
    """Renew a socket's session, if due: the stored expiry only, in one statement, so the
    session's data as an HTTP request may be changing it right now is left alone."""
    renewed = _due(session)
    if renewed is None:
        return
    try:
        session.model.objects.filter(session_key=session.session_key).update(
            expire_date=renewed
        )
    except DatabaseError as exc:  # a renewal can wait for the next visit; the game cannot
        log.warning("session not renewed: %s", exc)
        return
    session.stored_expiry = renewed


class SessionLifeMiddleware:
    """Renews a due session (after ``SessionMiddleware`` in MIDDLEWARE, so Django saves it
    and sends the cookie), and answers a ``TryLater`` that a view did not: a page or a view
    outside the API that made a guest past the limit gets a 429, never a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None and response.status_code < 500 and _due(session) is not None:
            session.modified = True
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, TryLater):
            return None
        response = JsonResponse({"error": "rate_limited", "reason": str(exc)}, status=429)
        response["Retry-After"] = str(exc.wait)
        return response
