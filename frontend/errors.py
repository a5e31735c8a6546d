"""The site's own 404, 403 and 500 pages: in its layout and the player's language, with a
way back.  (The API's errors stay JSON: config/errors.py sends /api/ there first.)

A 500 page is drawn while something is broken, so it asks for nothing that could be: no
database, no session, no template beyond the layout; should even that fail, Django's plain
page answers instead.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .views import site_context

log = logging.getLogger(__name__)


def _error_page(request: HttpRequest, status: int, **context: object) -> HttpResponse:
    response = render(
        request, f"frontend/errors/{status}.html", site_context(request, **context), status=status
    )
    response.headers["Content-Language"] = request.LANGUAGE_CODE
    return response


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(request, 404, path=request.path)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(request, 403, csrf=False)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form posted without its token (a page open for days, cookies cleared): a 403
    that says to reload, not Django's page for developers."""
    return _error_page(request, 403, csrf=True)


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        return _error_page(request, 500)
    except Exception:  # the page itself failed: the plain one still answers
        log.exception("the styled 500 page failed; answering Django's plain one")
        from django.views.defaults import server_error as plain

        return plain(request)
