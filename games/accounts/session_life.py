"""A browser session lives a year and is renewed as its player plays.

A guest is nothing but a browser session: when it expires, every game the guest played is
out of reach.  So sessions last ``SESSION_COOKIE_AGE`` (a year) and each visit pushes the
end back, but only once its remaining life is a day short of the full age, so renewing
costs at most one write a day per browser, not one per request.

``SessionStore`` (``SESSION_ENGINE``) is Django's database store that also keeps the
stored expiry it read, so deciding costs no query.  With Redis configured it reads through
Django's cache (``cached_db``, the ``sessions`` cache): a request then finds its session,
and that expiry, in Redis without a database query.  PostgreSQL stays the truth: every
write goes there first, a cached copy lives at most ``SESSION_CACHE_SECONDS``, and a cache
that cannot be reached is read around (the database answers), so a Redis outage costs a
query per request and nothing else.  Deleting a session (signing out) does not hide a
failure to drop the cached copy: that copy would keep a signed-out session signed in, so
signing in or out answers 503 then and changes nothing.  Over HTTP, ``SessionLifeMiddleware``
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

from django.conf import settings
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.cache import caches
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.crypto import get_random_string

from games.errors import TryLater

log = logging.getLogger(__name__)

SESSION_KEY = "player_id"  # the browser session's entry naming its player

RENEW_AFTER = dt.timedelta(days=1)


CACHE_PREFIX = "ds.session:"  # its own: an entry is (data, expiry), not cached_db's data


def _cache() -> Any:
    if "sessions" not in settings.CACHES or settings.SESSION_CACHE_SECONDS <= 0:
        return None
    return caches["sessions"]


class SessionStoreDown(Exception):
    """The sessions' cache cannot be reached to drop a copy (signing in or out)."""


class SessionStore(DatabaseSessionStore):
    stored_expiry: dt.datetime | None = None

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _cache()

    def _get_new_session_key(self) -> str:
        # Without Django's look-up first (one round trip less for every new browser, a
        # first visit's table among them): a key is 32 random characters, and create()
        # stores it with must_create, whose INSERT refuses a key already in use
        # (CreateError), and then draws another.
        return get_random_string(32, VALID_KEY_CHARS)

    # The store's own loaders (not in the type stubs), extended to remember the expiry.
    def _get_session_from_db(self) -> Any:
        row = super()._get_session_from_db()  # type: ignore[misc]
        self.stored_expiry = row.expire_date if row is not None else None
        return row

    async def _aget_session_from_db(self) -> Any:
        row = await super()._aget_session_from_db()  # type: ignore[misc]
        self.stored_expiry = row.expire_date if row is not None else None
        return row

    def _cache_put(self, data: dict[str, Any], expiry: dt.datetime) -> None:
        age = min(self.get_expiry_age(expiry=expiry), settings.SESSION_CACHE_SECONDS)
        if self._cache is None or age <= 0 or self.session_key is None:
            return
        try:
            self._cache.set(CACHE_PREFIX + self.session_key, (data, expiry), age)
        except Exception as exc:  # read around next time; the database has it
            log.warning("session not cached: %s", exc)

    def load(self) -> dict[str, Any]:
        if self._cache is not None and self.session_key:
            try:
                cached = self._cache.get(CACHE_PREFIX + self.session_key)
            except Exception:  # unreachable, or a key it refuses: the database answers
                cached = None
            if isinstance(cached, tuple) and len(cached) == 2:
                data, self.stored_expiry = cached
                return dict(data)
        row = self._get_session_from_db()
        if row is None:
            return {}
        data = self.decode(row.session_data)
        self._cache_put(data, row.expire_date)
        return data

    def create_model_instance(self, data: dict[str, Any]) -> Any:
        row = super().create_model_instance(data)
        self._saved_expiry = row.expire_date
        return row

    def save(self, must_create: bool = False) -> None:
        super().save(must_create)
        self.stored_expiry = self._saved_expiry
        self._cache_put(getattr(self, "_session_cache", {}), self._saved_expiry)  # as saved

    def delete(self, session_key: str | None = None) -> None:
        """The cached copy goes first: if it cannot be dropped, nothing is deleted and the
        request is answered 503 (config/errors.py), for a copy left behind would keep a
        signed-out session signed in once Redis is back.  Dropped again after the row, in
        case a request that read the row in between cached it anew."""
        key = session_key or self.session_key
        if self._cache is not None and key:
            try:
                self._cache.delete(CACHE_PREFIX + key)
            except Exception as exc:
                raise SessionStoreDown(str(exc)) from exc
        super().delete(session_key)
        if self._cache is not None and key:
            try:
                self._cache.delete(CACHE_PREFIX + key)
            except Exception as exc:  # dropped a moment ago; a copy made since lives briefly
                log.warning("cached session not dropped again: %s", exc)

    def forget_cached(self) -> None:
        """Drop the cached copy (the row was changed in the database by other means)."""
        if self._cache is not None and self.session_key:
            try:
                self._cache.delete(CACHE_PREFIX + self.session_key)
            except Exception as exc:  # it lives SESSION_CACHE_SECONDS at most
                log.warning("cached session not dropped: %s", exc)


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
        session.model.objects.filter(session_key=session.session_key).update(expire_date=renewed)
    except DatabaseError as exc:  # a renewal can wait for the next visit; the game cannot
        log.warning("session not renewed: %s", exc)
        return
    session.stored_expiry = renewed
    if isinstance(session, SessionStore):
        session.forget_cached()  # its copy still holds the old expiry


def renew_if_due(request: HttpRequest, response: Any) -> None:
    """Mark a due session changed, for ``SessionMiddleware`` to save and send again."""
    session = getattr(request, "session", None)
    if session is not None and response.status_code < 500 and _due(session) is not None:
        session.modified = True


class SessionLifeMiddleware:
    """Renews a due session (after ``SessionMiddleware`` in MIDDLEWARE, so Django saves it
    and sends the cookie), and answers a ``TryLater`` that a view did not: a page or a view
    outside the API that made a guest past the limit gets a 429, never a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        renew_if_due(request, response)
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, TryLater):
            return None
        response = JsonResponse({"error": "rate_limited", "reason": str(exc)}, status=429)
        response["Retry-After"] = str(exc.wait)
        return response
