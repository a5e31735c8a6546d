"""Every API error is JSON with an ``error`` code and a human ``reason``."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler


def error(kind: str, reason: str, http_status: int, **extra: Any) -> Response:
    return Response({"error": kind, "reason": reason, **extra}, status=http_status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ParseError):
        code = "bad_json"
    elif isinstance(exc, (exceptions.NotAuthenticated, exceptions.PermissionDenied)):
        code = "forbidden"
    elif isinstance(exc, exceptions.NotFound):
        code = "not_found"
    elif isinstance(exc, exceptions.MethodNotAllowed):
        code = "method_not_allowed"
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        code = "unsupported_media_type"
    elif isinstance(exc, exceptions.Throttled):
        code = "rate_limited"  # DRF has set Retry-After
    elif response.status_code == status.HTTP_400_BAD_REQUEST:
        code = "bad_request"
    else:
        code = "error"
    detail = response.data.get("detail") if isinstance(response.data, dict) else None
    reason = str(detail) if detail is not None else str(response.data)
    response.data = {"error": code, "reason": reason}
    return response
