"""The Content-Security-Policy (django-csp; the policy itself is in settings.py).

Two things the settings cannot say, added per request:

- the site's own websocket origin in ``connect-src``: ``'self'`` covers ``ws:`` and
  ``wss:`` in CSP 3 browsers, but older Safari releases match it against the page's own
  scheme only, and the table page plays over its socket;
- inline styles in the operators' admin, whose templates (Django's own change list, the
  replay page) carry a few.  Scripts stay as strict there as everywhere.

Building the header took about a tenth of the CPU of a small API answer (django-csp builds
both policies from the settings on every response).  Without a nonce or a view's own
``@csp_update``/``@csp_replace``, the header depends only on the settings and on what is
added above, so those are built once and kept (a few, by socket origin), the settings'
changes clearing them.
"""

from __future__ import annotations

import http.client
from dataclasses import asdict
from functools import lru_cache
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY, UNSAFE_INLINE
from csp.middleware import CheckableLazyObject, PolicyParts
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.signals import setting_changed
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class CSPMiddleware(BaseCSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
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

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, a) for a in _PER_VIEW)
            or (settings.DEBUG and response.status_code in _DEBUG_PAGES)
        ):
            return super().process_response(request, response)  # as it comes
        for report_only, header, exempt, setting in _HEADERS:
            parts = self.get_policy_parts(request, response, report_only)
            policy = _policy(
                report_only,
                tuple(  # the values are lists (above)
                    (k, tuple(v)) for k, v in sorted((parts.update or {}).items())
                ),
            )
            if (
                policy
                and header not in response
                and not getattr(response, exempt, False)
                and not request.path_info.startswith(
                    tuple(
                        (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
                    )
                )
            ):
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


# What django-csp's own process_response does beside building the policies.
_PER_VIEW = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
_DEBUG_PAGES = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)
_HEADERS = (
    (False, HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
    (True, HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
)


@lru_cache(maxsize=32)  # a few socket origins (ALLOWED_HOSTS), the admin's
def _policy(report_only: bool, update: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    parts = PolicyParts(update={k: list(v) for k, v in update})
    return build_policy(**asdict(parts), report_only=report_only)


def _settings_changed(setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _policy.cache_clear()


setting_changed.connect(_settings_changed)
