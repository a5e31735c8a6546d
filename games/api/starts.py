"""``POST /api/sessions/`` for a guest, without the middleware below it or DRF's view.

Starting a game is the request a player makes most after a move, and most of its CPU went
to layers that decide nothing for it: the rest of the middleware chain (messages, the
lazy user, the lockout check), the URL's resolution, and DRF's dispatch (its request
wrapper, content negotiation, authentication and throttle classes, the response's
rendering).  ``LeanStartMiddleware`` sits in MIDDLEWARE below the request id, the
metrics, the security headers, the CSP and the body limit, which run for it as for any
request, and answers a guest's start itself: the session from its store (Redis, as
``GET /api/me/`` finds it), the CSRF check DRF makes (games/api/auth.py), the rate limit
of the ``sessions`` scope, the body parsed and checked as the DRF view does, the start
(games/play/operations.py) and its state written once by the API's renderer.  The
middleware it passes over are called for their part of the answer (session, locale,
common, CSRF cookie, frame options, device cookie) in the chain's order, so the headers,
cookies and error bodies are those of the DRF view.

Whatever it cannot answer exactly it hands down the chain untouched, before it has
changed anything (the rate limit is counted only once it has decided to answer): a
request with a query string, an ``Accept`` other than plain JSON, a body that is not a
JSON object of valid fields, no session or a signed-in one (the account's user is read
by Django's authentication), a session whose player is not a live guest (the view makes a
new guest, under its own rate limit), or a CSRF failure.  The DRF view then answers, and
stays the one the OpenAPI schema describes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY as USER_SESSION_KEY
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import MiddlewareNotUsed
from django.core.handlers.exception import response_for_exception
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.locale import LocaleMiddleware
from django.urls import ResolverMatch, resolve
from rest_framework import exceptions
from rest_framework.authentication import CSRFCheck

from config import patches
from config.errors import DATABASE_DOWN, DatabaseUnavailableMiddleware
from config.patches.rest_framework import json_accepted
from games.accounts import devices, player_cache, session_life
from games.accounts.session_life import SESSION_KEY, SessionStoreDown
from games.api import errors as api_errors
from games.api import serializers as s
from games.api.parsers import load_json
from games.api.renderers import JSONRenderer
from games.engine import GAMES
from games.errors import answer_for
from games.fairplay import ratelimit
from games.play import operations
from games.play.answer import state

PATH = "/api/sessions/"
# Set on the request by games/api/loop_start.py: the start it made on the event loop.
GIVEN = "lean_start_given"
# Set in the scope by games/api/loop_start.py when it counted the start in the rate limit
# and then handed the request on: it is not counted twice.
COUNTED = "lean_start.counted"


@dataclass
class Given:
    """A start made before the chain ran: its outcome, the rate limit's wait, or the error
    it met (answered as ``_answer`` answers each)."""

    outcome: Any = None
    wait: int | None = None
    error: Exception | None = None


def _never(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the middleware's hooks called here never go down the chain")


@functools.cache
def _route() -> tuple[ResolverMatch, str, str]:
    """The DRF view's resolution (the metrics name the answer by it), its Allow header and
    its rate limit's scope (games/fairplay/ratelimit.py)."""
    match = resolve(PATH)
    view = match.func.cls(**match.func.view_initkwargs)  # type: ignore[attr-defined]
    return match, ", ".join(view.allowed_methods), view.rate_limit_scope


def _fields(data: Any) -> dict[str, Any] | None:
    """``StartSessionIn``'s fields from the body, None where it refuses them.  The common
    body (a game's key, a deal given as a string or an integer, nothing else) is read here
    as the serializer reads it; any other goes through the serializer itself."""
    if not isinstance(data, dict):
        return None
    game, deal = data.get("game"), data.get("deal", "daily")
    if (
        type(game) is str
        and game in GAMES
        and type(deal) in (str, int)
        and data.keys() <= {"game", "deal"}
    ):
        return {"game": game, "deal": deal}
    ser = s.StartSessionIn(data=data)
    return dict(ser.validated_data) if ser.is_valid() else None


class LeanStartMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        if not patches.on("lean_views"):  # config/patches/rest_framework.py
            raise MiddlewareNotUsed
        self.get_response = get_response
        self.session = SessionMiddleware(_never)
        self.locale = LocaleMiddleware(_never)
        self.common = CommonMiddleware(_never)
        self.csrf = CsrfViewMiddleware(_never)
        self.frames = XFrameOptionsMiddleware(_never)
        self.csrf_check = CSRFCheck(_never)  # DRF's (games/api/auth.py): a reason, not a 403
        self.database = DatabaseUnavailableMiddleware(_never)
        self.renderer = JSONRenderer()

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method != "POST" or request.path_info != PATH:
            return self.get_response(request)
        given: Given | None = getattr(request, GIVEN, None)
        if given is not None:  # already _ready, on the event loop
            response = self._given(request, given)
        else:
            try:
                ready = self._ready(request)
            except Exception:  # the chain meets it again and answers as it always has
                ready = None
            if ready is None:
                return self.get_response(request)
            response = self._answer(request, *ready)
        devices.give_device_cookie(request, response)
        self.frames.process_response(request, response)
        self.csrf.process_response(request, response)
        self.common.process_response(request, response)
        self.locale.process_response(request, response)
        session_life.renew_if_due(request, response)
        return self.session.process_response(request, response)

    def _ready(
        self, request: HttpRequest, loaded: tuple[Any, Any, Any] | None = None
    ) -> tuple[Any, Any] | None:
        """(player, the body's fields) when this request is answered here; None, having
        changed nothing the chain would see differently, when it goes down the chain.
        ``loaded``: the session's data, its stored expiry and its player as the stores hold
        them, read already (games/api/loop_start.py), so nothing here waits on a store."""
        if request.META.get("QUERY_STRING") or not json_accepted(request):
            return None
        if request.content_type != "application/json":
            return None
        key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if not key or self.common.process_request(request) is not None:
            return None
        self.session.process_request(request)
        session = request.session
        if loaded is not None:
            session._session_cache = loaded[0]  # type: ignore[attr-defined]
            session.stored_expiry = loaded[1]  # type: ignore[attr-defined]
        player_id = session.get(SESSION_KEY)
        if player_id is None or USER_SESSION_KEY in session:
            return None  # a first visit, or an account: Django's authentication reads it
        self.locale.process_request(request)
        self.csrf.process_request(request)
        refused = self.csrf_check.process_view(request, _never, (), {})
        # Its mark of a passed check would spare DRF's own check, which reads the body
        # (unreadable JSON is refused there, before the rate limit counts the request).
        request.__dict__.pop("csrf_processing_done", None)
        if refused is not None:
            return None
        fields = _fields(load_json(request.body))
        if fields is None:
            return None
        player = player_cache.get(player_id) if loaded is None else loaded[2]
        if player is None or player.user_id is not None or player.deleted_at is not None:
            return None
        request.user = AnonymousUser()
        request.resolver_match = _route()[0]
        return player, fields

    def _answer(self, request: HttpRequest, player: Any, data: dict[str, Any]) -> HttpResponse:
        """What SessionsView.post answers, its errors as PlayerAPIView and the chain give them."""
        try:
            counted = getattr(request, "scope", {}).get(COUNTED)
            wait = None if counted else ratelimit.hit(_route()[2], f"p{player.pk}")
            if wait is not None:
                return self._throttled(wait)
            outcome = operations.start_session(
                player, data["game"], data["deal"], devices.client_keys(request)
            )
            return self._json(state(outcome), 201)
        except Exception as exc:
            return self._failed(request, exc)

    def _given(self, request: HttpRequest, given: Given) -> HttpResponse:
        try:
            if given.error is not None:
                raise given.error
            if given.wait is not None:
                return self._throttled(given.wait)
            return self._json(state(given.outcome), 201)
        except Exception as exc:
            return self._failed(request, exc)

    def _failed(self, request: HttpRequest, exc: Exception) -> HttpResponse:
        """The answer to ``exc`` raised by a start, as the DRF view and the chain give it."""
        known = answer_for(exc)
        if known is not None:
            response = self._json(known[1], known[0])
            if "retry_after" in known[1]:
                response["Retry-After"] = str(known[1]["retry_after"])
            return response
        if isinstance(exc, (*DATABASE_DOWN, SessionStoreDown)):
            answer = self.database.process_exception(request, exc)
            assert answer is not None
            return answer
        return response_for_exception(request, exc)

    def _throttled(self, wait: int) -> HttpResponse:
        # DRF's answer to a throttle (APIView.throttled), through the API's handler.
        answer = api_errors.exception_handler(exceptions.Throttled(wait), {})
        assert answer is not None
        response = self._json(answer.data, answer.status_code)
        response["Retry-After"] = answer["Retry-After"]
        return response

    def _json(self, body: Any, status: int) -> HttpResponse:
        response = HttpResponse(
            self.renderer.render(body), status=status, content_type="application/json"
        )
        response["Allow"] = _route()[1]  # as DRF's finalize_response
        return response
