"""Log lines and error reports.

Every line carries its time (UTC), level, logger and the id of the request (or Celery task)
it belongs to, so one player's trouble can be followed across web processes, workers and
the load balancer.  ``LOG_FORMAT=json`` writes one JSON object a line for a log collector;
``SENTRY_DSN`` sends errors to Sentry.  Settings wire these in (``LOGGING``).
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # settings import this module: nothing of Django's at import time
    from django.http import HttpRequest, HttpResponse

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)

HEADER = "X-Request-ID"
# What a client or proxy may pass: a uuid, a hex digest, a trace id.  Anything else (too
# short, too long, spaces or control characters that could forge a log line) is replaced.
_SANE = re.compile(r"[A-Za-z0-9._:-]{8,128}")


def clean_request_id(given: str | None) -> str:
    if given and _SANE.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get() or "-"
        return True


def _utc(record: logging.LogRecord) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + (
        f".{int(record.msecs):03d}Z"
    )


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return _utc(record)

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "request_id"):  # a handler set up without the filter
            record.request_id = request_id_var.get() or "-"
        return super().format(record)


# Attributes every LogRecord has; anything else on a record came from ``extra=`` and is
# written as a field of its own.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _utc(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": request_id_var.get(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class RequestIdMiddleware:
    """Gives each request an id: the client's or proxy's ``X-Request-ID`` when it looks
    sane, a new one otherwise.  It is in every log line of the request, in the answer's
    ``X-Request-ID`` header, and in every JSON error body as ``request_id``, so a player's
    report of an error points at its log lines.  First in MIDDLEWARE: the answers other
    middleware make (503 in a database outage, 413) get it too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        from django.core.signals import request_finished

        self.get_response = get_response
        request_finished.connect(_forget, dispatch_uid="config.logs.forget_request_id")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = clean_request_id(request.headers.get(HEADER))
        # Not reset on the way out: Django logs a 4xx/5xx after the middleware has returned,
        # and that line belongs to this request.  The end of the request forgets it.
        request_id_var.set(rid)
        request.request_id = rid  # type: ignore[attr-defined]
        response = self.get_response(request)
        response[HEADER] = rid
        if response.status_code >= 400:
            _add_to_error_body(response, rid)
        return response


def _forget(**kwargs: Any) -> None:
    request_id_var.set(None)


def _add_to_error_body(response: HttpResponse, rid: str) -> None:
    """Every API error body is built in one of a few places (games/errors.py, the API's
    exception handler, config/errors.py); the field is added here, once, for all of them."""
    if getattr(response, "streaming", False):
        return
    if not response.get("Content-Type", "").startswith("application/json"):
        return
    try:
        body = json.loads(response.content)
    except ValueError:
        return
    if not isinstance(body, dict) or "error" not in body or "request_id" in body:
        return
    body["request_id"] = rid
    response.content = json.dumps(body, ensure_ascii=False).encode()
    if response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))


def socket_request_id(scope: dict[str, Any]) -> str:
    """The id of a websocket connection, from its handshake's header like a request's."""
    for name, value in scope.get("headers", []):
        if name.lower() == HEADER.lower().encode():
            return clean_request_id(value.decode("latin-1"))
    return clean_request_id(None)


def init_sentry(
    dsn: str, *, environment: str, release: str | None, traces_sample_rate: float
) -> None:
    """Error reports to Sentry: Django's views, Celery's tasks and the websockets (wrapped
    in config/asgi.py).  No personal data: no cookies, addresses or bodies leave."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    def tag_request(event: Any, hint: Any) -> Any:
        rid = request_id_var.get()
        if rid:
            event.setdefault("tags", {})["request_id"] = rid
        return event

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,
        before_send=tag_request,
    )
