"""Which address and which browser an attempt came from, kept only as keyed hashes.

A linked attempt (games/fairplay/review.py) is an earlier attempt at the same deal by another player
from the same client address or the same browser.  The raw address and the browser's cookie
are never stored: each is reduced to HMAC-SHA256 under the server's secret, enough to tell
"the same" from "another" and nothing more.  The device cookie is a random id the browser
keeps for a year; a private window or a cleared cookie makes a new one, so it links the
careless, not the determined: the address does the rest.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from games.fairplay.ratelimit import client_address

DEVICE_COOKIE = "ds_device"
_YEAR = 365 * 24 * 3600


def _keyed(kind: str, value: str) -> str:
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"{kind}|{value}".encode(), hashlib.sha256).hexdigest()


def client_keys(request: HttpRequest) -> tuple[str, str]:
    """(address key, device key) of this request; a key is "" when there is nothing to
    hash (no device cookie yet: the first page sets one)."""
    device = request.COOKIES.get(DEVICE_COOKIE, "")
    return (
        _keyed("address", client_address(request.META)),
        _keyed("device", device) if device else "",
    )


class DeviceCookieMiddleware:
    """Gives a browser without one its device cookie (random, a year, HTTP only)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        give_device_cookie(request, response)
        return response


def give_device_cookie(request: HttpRequest, response: HttpResponseBase) -> None:
    """The device cookie set on ``response`` unless the browser sent a sound one."""
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    if not (16 <= len(value) <= 64 and value.isalnum()):
        response.set_cookie(
            DEVICE_COOKIE,
            secrets.token_hex(16),
            max_age=_YEAR,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
