"""Answers for requests that never reach a view's own error handling.

- An unknown address under ``/api/`` is a JSON 404 like every other API answer, not an HTML
  page.
- While the database is unreachable (restart, failover) every request gets a clear
  ``503 Service Unavailable`` with ``Retry-After`` instead of a bare 500: clients retry, and
  nothing half-done was stored, because every move is written in one transaction.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)

DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def unavailable() -> JsonResponse:
    response = JsonResponse(
        {"error": "unavailable", "reason": "the database is unavailable; try again shortly"},
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
        return None


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"error": "not_found", "reason": "no such address in the API"},
                            status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest, *args: Any) -> HttpResponse:
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return unavailable()
    if _is_api(request):
        return JsonResponse({"error": "server_error", "reason": "something broke on our side"},
                            status=500)
    from django.views.defaults import server_error as html_server_error

    return html_server_error(request)
