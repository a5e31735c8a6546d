"""Session authentication that checks CSRF for guests too.

DRF's own SessionAuthentication only checks CSRF for signed-in users, but here guests play
with real stakes (a ranked daily), so every unsafe request must carry the CSRF token.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request


class CsrfSessionAuthentication(SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        self.enforce_csrf(request)
        user = getattr(request._request, "user", None)
        if user is None or not user.is_active:
            return None
        return (user, None)
