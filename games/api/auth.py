"""Session authentication that checks CSRF for guests too.

DRF's own SessionAuthentication only checks CSRF for signed-in users, but here guests play
with real stakes (a ranked daily), so every unsafe request must carry the CSRF token.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request


class CsrfSessionAuthentication(SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        self.enforce_csrf(request)
        user = getattr(request._request, "user", None)
        if user is None or not user.is_active:
            return None
        return (user, None)


class CsrfSessionAuthenticationScheme(OpenApiAuthenticationExtension):
    """Documents the cookie session (and its CSRF header) in /api/schema/."""

    target_class = "games.api.auth.CsrfSessionAuthentication"
    name = "cookieAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": "sessionid",
            "description": "Session cookie from GET /api/me/; writes also send X-CSRFToken.",
        }
