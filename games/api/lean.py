"""``GET /api/me/`` without DRF's view machinery: every page load asks it first.

DRF's dispatch (its request wrapper, the authentication and throttle classes, content
negotiation, the renderer) cost about as much CPU as the rest of the request together
(bench/http_cost.py).  For a GET none of it decides anything here: authentication is the
session middleware's user, the view has no rate-limit scope, the one renderer is JSON.  So
this answers a plain GET itself with the same body, status and headers, and hands anything
else (PATCH, HEAD, OPTIONS, ``?format=``, an ``Accept`` with parameters such as
``indent``) to the DRF view, which also stays the one the OpenAPI schema describes.
"""

from __future__ import annotations

import functools
from typing import Any

import orjson
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from games.accounts import players
from games.errors import answer_for

_JSON_ANY = frozenset({"*/*", "application/*", "application/json"})


def json_response(body: Any, status: int = 200) -> HttpResponse:
    """What DRF's JSONRenderer makes of ``body``: compact UTF-8, U+2028/2029 escaped."""
    data = orjson.dumps(body).replace(b"\xe2\x80\xa8", b"\\u2028").replace(
        b"\xe2\x80\xa9", b"\\u2029")
    return HttpResponse(data, status=status, content_type="application/json")


def _plain(request: HttpRequest) -> bool:
    """A GET the DRF view would answer with its JSON renderer and no options."""
    return request.method == "GET" and "format" not in request.GET and json_accepted(request)


def json_accepted(request: HttpRequest) -> bool:
    """The request's ``Accept`` is answered by DRF's JSON renderer with no options."""
    accept = request.headers.get("Accept")
    if not accept:
        return True
    return ";" not in accept and any(t.strip() in _JSON_ANY for t in accept.split(","))


def lean_get(drf_view: Any, answer: Any) -> Any:
    """``drf_view`` (an ``as_view()``), with plain GETs answered by ``answer(request, player)``
    (a JSON-able body).  The wrapper keeps the DRF view's attributes (``cls``, ``initkwargs``,
    ``csrf_exempt``) so URL resolution, CSRF and drf-spectacular see the DRF view."""
    probe = drf_view.cls(**drf_view.view_initkwargs)
    if hasattr(probe, "get") and not hasattr(probe, "head"):
        probe.head = probe.get  # as Django's View.setup does, so Allow names HEAD too
    allow = ", ".join(probe.allowed_methods)

    @functools.wraps(drf_view)
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not _plain(request):
            drf_response: HttpResponseBase = drf_view(request, *args, **kwargs)
            return drf_response
        user = request.user
        if not user.is_active:  # as DRF's session authentication (games/api/auth.py)
            request.user = AnonymousUser()
        try:
            response = json_response(answer(request, players.current_player(request)))
        except Exception as exc:
            known = answer_for(exc)  # the DRF view's errors (PlayerAPIView.handle_exception)
            if known is None:
                raise
            response = json_response(known[1], known[0])
            if "retry_after" in known[1]:
                response["Retry-After"] = str(known[1]["retry_after"])
        response["Allow"] = allow
        return response

    return view
