"""Answers for requests that never reach a view's own error handling.

- An unknown address under ``/api/`` is a JSON 404 like every other API answer, not an HTML
  page.
- While the database is unreachable (restart, failover) every request gets a clear
  ``503 Service Unavailable`` with ``Retry-After`` instead of a bare 500: clients retry, and
  nothing half-done was stored, because every move is written in one transaction.
- Any other 404, 403 or 500 is the site's own page, in its layout and the player's language
  (frontend/errors.py).
- A body under ``/api/`` larger than the API takes is a JSON ``413`` before anything reads
  or parses it, whether or not the client said its length.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError

from games.accounts.session_life import SessionStoreDown
from games.api.parsers import MAX_BODY_BYTES, TooLarge

log = logging.getLogger(__name__)

DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5
MAX_CONTENT_TYPE = 100  # characters; "application/json; charset=utf-8" is 31


def unavailable(what: str = "the database") -> JsonResponse:
    response = JsonResponse(
        {"error": "unavailable", "reason": f"{what} is unavailable; try again shortly"},
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


class DatabaseUnavailableMiddleware:
    """Turns a database outage raised by a view into a 503 (see ``server_error`` for the
    same outage raised elsewhere, e.g. while saving the session)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, DATABASE_DOWN):
            log.warning("database unavailable on %s: %s", request.path, exc)
            return unavailable()
        if isinstance(exc, SessionStoreDown):
            log.warning("session cache unavailable on %s: %s", request.path, exc)
            return unavailable("the session store")
        return None


def too_large() -> JsonResponse:
    return JsonResponse({"error": TooLarge.code, "reason": TooLarge.reason}, status=413)


class BodyLimitMiddleware:
    """Refuses an oversized API body with a JSON 413, ahead of everything that would read
    it (the CSRF check reads form bodies, the parser JSON ones).

    With a Content-Length the body is not read at all.  Without one (a chunked body over
    ASGI) it is read through ``request.body``, which Django bounds by
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``; its length then becomes the Content-Length, so DRF
    parses it like any other body instead of taking it for an empty one.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _is_api(request):
            refused = self._refusal(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    @staticmethod
    def _refusal(request: HttpRequest) -> HttpResponse | None:
        if len(request.META.get("CONTENT_TYPE", "")) > MAX_CONTENT_TYPE:
            # DRF's 415 quotes the content type back, whatever its length.
            return JsonResponse(
                {"error": "unsupported_media_type", "reason": "send the body as application/json"},
                status=415,
            )
        given = request.META.get("CONTENT_LENGTH")
        if given:
            if not given.isascii() or not given.isdigit():
                return JsonResponse(
                    {"error": "bad_request", "reason": "Content-Length must be a number of bytes"},
                    status=400,
                )
            if int(given) > MAX_BODY_BYTES:
                return too_large()
        try:
            body = request.body
        except RequestDataTooBig:
            return too_large()
        except UnreadablePostError:
            return JsonResponse(
                {"error": "bad_request", "reason": "the body could not be read; send it again"},
                status=400,
            )
        if len(body) > MAX_BODY_BYTES:
            return too_large()
        if not given and body:
            request.META["CONTENT_LENGTH"] = str(len(body))
        return None

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        # Django's own limit, should a view read a body this middleware let through.
        if isinstance(exc, RequestDataTooBig) and _is_api(request):
            return too_large()
        return None


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's own 400s (a host not allowed, a malformed request) are JSON under /api/."""
    if _is_api(request):
        return JsonResponse(
            {
                "error": "bad_request",
                "reason": "the request is malformed: check its host, headers and body",
            },
            status=400,
        )
    from django.views.defaults import bad_request as html_bad_request

    return html_bad_request(request, exception)  # type: ignore[arg-type]


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"error": "not_found", "reason": "no such address in the API"}, status=404
        )
    from frontend.errors import page_not_found

    return page_not_found(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"error": "forbidden", "reason": "this is not open to you"}, status=403)
    from frontend.errors import permission_denied as html_permission_denied

    return html_permission_denied(request, exception)


def server_error(request: HttpRequest, *args: Any) -> HttpResponse:
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return unavailable()
    if isinstance(sys.exc_info()[1], SessionStoreDown):  # raised saving the session
        return unavailable("the session store")
    if _is_api(request):
        return JsonResponse(
            {"error": "server_error", "reason": "something broke on our side"}, status=500
        )
    from frontend.errors import server_error as html_server_error

    return html_server_error(request)
