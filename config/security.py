"""The Content-Security-Policy (django-csp; the policy itself is in settings.py).

Two things the settings cannot say, added per request:

- the site's own websocket origin in ``connect-src``: ``'self'`` covers ``ws:`` and
  ``wss:`` in CSP 3 browsers, but older Safari releases match it against the page's own
  scheme only, and the table page plays over its socket;
- inline styles in the operators' admin, whose templates (Django's own change list, the
  replay page) carry a few.  Scripts stay as strict there as everywhere.
"""

from __future__ import annotations

from csp.constants import UNSAFE_INLINE
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.middleware import PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class CSPMiddleware(BaseCSPMiddleware):
    def get_policy_parts(self, request: HttpRequest, response: HttpResponseBase,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        update = dict(parts.update or {})
        try:
            host = request.get_host()
        except DisallowedHost:  # answered 400 already; the policy needs no socket then
            host = None
        if host:
            scheme = "wss" if request.is_secure() else "ws"
            update["connect-src"] = [*update.get("connect-src", []), f"{scheme}://{host}"]
        if request.path_info.startswith("/admin/"):
            update["style-src"] = [*update.get("style-src", []), UNSAFE_INLINE]
        parts.update = update
        return parts
