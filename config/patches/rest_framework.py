"""Django REST framework: its dispatch skipped where it decides nothing (patch ``lean_views``).

``GET /api/me/``, without DRF's view machinery: every page load asks it first.  DRF's
dispatch (its request wrapper, the authentication and throttle classes, content
negotiation, the renderer) cost about as much CPU as the rest of the request together
(bench/http_cost.py).  For a GET none of it decides anything here: authentication is the
session middleware's user, the view has no rate-limit scope, the one renderer is JSON.  So
``lean_get`` answers a plain GET itself with the same body, status and headers, and hands
anything else (PATCH, HEAD, OPTIONS, ``?format=``, an ``Accept`` with parameters such as
``indent``) to the DRF view, which also stays the one the OpenAPI schema describes.

The same switch turns off ``games.api.starts.LeanStartMiddleware``, a guest's
``POST /api/sessions/`` answered ahead of the rest of the middleware and DRF's view (its
docstring says how); it answers with the games' operations, so it stays beside them, and
reads ``json_accepted`` from here.

Patches: nothing of DRF is replaced; its behaviour is copied: ``JSONRenderer.render``'s
bytes (``json_response``), ``DefaultContentNegotiation``'s choice of that renderer
(``json_accepted``), ``SessionAuthentication``'s inactive user and ``APIView``'s ``Allow``
header (``lean_get``).
Written for: djangorestframework 3.18.3 (config/tripwires.json).
Tripwires: ``djangorestframework`` (``JSONRenderer.render``, ``DefaultContentNegotiation.
select_renderer``, ``APIView.allowed_methods`` and ``dispatch``, ``SessionAuthentication``'s
``authenticate`` and ``enforce_csrf``).
Off (``FRAMEWORK_PATCHES_OFF=lean_views``): every request through DRF's view.
Tested: tests/games/test_me_answers.py, tests/games/test_lean_start.py (the answers beside
the DRF view's).
"""

from __future__ import annotations

import functools
from typing import Any

import orjson
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from config import patches

_JSON_ANY = frozenset({"*/*", "application/*", "application/json"})


def json_response(body: Any, status: int = 200) -> HttpResponse:
    """What DRF's JSONRenderer makes of ``body``: compact UTF-8, U+2028/2029 escaped."""
    data = (
        orjson.dumps(body).replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    )
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


def lean_get(drf_view: Any, answer: Any, player: Any, errors: Any) -> Any:
    """``drf_view`` (an ``as_view()``), with plain GETs answered by
    ``answer(request, player(request))`` (a JSON-able body); ``errors(exc)`` is the view's
    ``(status, body)`` for an exception it answers, None for one it does not.  The wrapper
    keeps the DRF view's attributes (``cls``, ``initkwargs``, ``csrf_exempt``) so URL
    resolution, CSRF and drf-spectacular see the DRF view.  With the patch off,
    ``drf_view`` itself."""
    if not patches.on("lean_views"):
        return drf_view
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
            response = json_response(answer(request, player(request)))
        except Exception as exc:
            known = errors(exc)  # the DRF view's errors (PlayerAPIView.handle_exception)
            if known is None:
                raise
            response = json_response(known[1], known[0])
            if "retry_after" in known[1]:
                response["Retry-After"] = str(known[1]["retry_after"])
        response["Allow"] = allow
        return response

    return view
