"""Health answers for the load balancer, the orchestrator and the on-call person.

- ``/healthz``: the process is up and its event loop answers.  No database, no Redis, no
  Django: it is answered in front of Django (``HealthRoutes`` in config/asgi.py), so it is
  fast and true even with PostgreSQL stopped, the thread pool busy or the host name not in
  ``ALLOWED_HOSTS``.  A load balancer routes by it.
- ``/readyz``: the process can serve: PostgreSQL and Redis answer (``?worker=1``: the
  Celery broker too, with the queue's length), each part with its latency in ms, and with
  DEBUG off the pages can name their collected static files (``static``: without
  ``collectstatic`` every page is a 500).  ``503`` naming the failing parts when one is
  down, and what to do when it is the static files.  Also in front of Django, so neither a host
  check nor an HTTPS redirect turns a probe into a 400 or a 301.

Both are also Django views (config/urls.py) for a process served some other way.

Beat's heartbeat: the beat process writes a Redis key with a time-to-live as its scheduler
ticks (``config.celery.HeartbeatScheduler``); ``manage.py beat_alive`` reads it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.http import HttpRequest, JsonResponse

from config.static import NotCollected, check_collected

log = logging.getLogger(__name__)

Check = dict[str, Any]
RETRY_AFTER_SECONDS = 5


def _timed(name: str, probe: Callable[[], dict[str, Any] | None]) -> Check:
    start = time.perf_counter()
    try:
        extra = probe() or {}
        ok, error = True, None
    except NotCollected as exc:  # no secret in it: says what to run
        extra, ok, error = {"reason": str(exc)}, False, "NotCollected"
        log.error("readiness: %s", exc)
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready", named below
        extra, ok, error = {}, False, type(exc).__name__
        # The details (host, port, the driver's words) go to the log, not to the world.
        log.warning("readiness: %s is unavailable: %s", name, exc)
    out: Check = {"ok": ok, "ms": round((time.perf_counter() - start) * 1000, 1), **extra}
    if error:
        out["error"] = error
    return out


def _timeout() -> float:
    return float(settings.HEALTH_TIMEOUT_SECONDS)


DJANGO_ONLY = {"pool", "isolation_level", "assume_role", "server_side_binding"}


def _database() -> None:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("postgresql"):
        import psycopg
        from psycopg import sql

        # A connection of its own, not one from the process's pool: the pool waits up to
        # its timeout for a connection while the database is down, and a probe must answer
        # within its own.
        seconds = _timeout()
        # The URL's own connection options (sslmode, certificates) apply; Django's do not.
        extra = {k: v for k, v in db.get("OPTIONS", {}).items() if k not in DJANGO_ONLY}
        with psycopg.connect(
            dbname=db["NAME"],
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
            **{**extra, "connect_timeout": max(1, round(seconds)), "autocommit": True},
        ) as conn:
            # The time limit for this one transaction, sent with it (one round trip): not
            # a startup parameter, which PgBouncer refuses, and nothing left on a server
            # connection that a pooler hands to another client next.
            conn.execute(
                sql.SQL("BEGIN; SET LOCAL statement_timeout = {}; SELECT 1; COMMIT").format(
                    int(seconds * 1000)
                )
            )
        return
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # this thread's connection, opened for the probe alone


def _redis() -> dict[str, Any] | None:
    if not settings.REDIS_URL:
        return {"configured": False}  # a local run: in-memory channels, nothing to reach
    from config import redis_client

    # A client of its own (through Sentinel when the site's Redis is): the process's may be
    # busy, and a probe must answer within its own time.
    client = redis_client.new_client(_timeout())
    try:
        client.ping()
    finally:
        client.close()
    return None


def _broker() -> dict[str, Any]:
    from kombu.connection import Connection

    seconds = _timeout()
    options = {
        **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        "socket_timeout": seconds,
        "socket_connect_timeout": seconds,
    }
    with Connection(
        settings.CELERY_BROKER_URL, connect_timeout=seconds, transport_options=options
    ) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=seconds)
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        _, waiting, _ = conn.default_channel.queue_declare(queue=queue, passive=False)
    return {"queue": queue, "waiting": waiting}


def _static() -> None:
    check_collected()


PARTS: dict[str, Callable[[], dict[str, Any] | None]] = {
    "database": _database,
    "redis": _redis,
    "broker": _broker,
    "static": _static,
}

_cache: dict[tuple[str, ...], tuple[float, int, dict[str, Any]]] = {}
_lock = threading.Lock()


def readiness(worker: bool = False) -> tuple[int, dict[str, Any]]:
    """(status, body).  Kept for ``HEALTH_CACHE_SECONDS``, one check at a time per process,
    so a flood of probes costs the database one connection a second, not one each."""
    parts = ("database", "redis", "broker", "static") if worker else ("database", "redis", "static")
    with _lock:
        cached = _cache.get(parts)
        if cached and time.monotonic() - cached[0] < float(settings.HEALTH_CACHE_SECONDS):
            return cached[1], cached[2]
        checks = {name: _timed(name, PARTS[name]) for name in parts}
        failing = [name for name, check in checks.items() if not check["ok"]]
        body: dict[str, Any]
        if failing:
            status = 503
            fixes = [checks[name]["reason"] for name in failing if "reason" in checks[name]]
            body = {
                "status": "unavailable",
                "error": "unavailable",
                "reason": "; ".join([f"not ready: {', '.join(failing)} unavailable", *fixes]),
                "failing": failing,
                "checks": checks,
            }
        else:
            status, body = 200, {"status": "ready", "checks": checks}
        _cache[parts] = (time.monotonic(), status, body)
        return status, body


def reset() -> None:
    with _lock:
        _cache.clear()


class BadQuery(ValueError):
    pass


def worker_flag(values: list[str]) -> bool:
    if not values:
        return False
    if len(values) > 1 or values[0] not in ("0", "1"):
        raise BadQuery("worker must be 0 or 1, given once")
    return values[0] == "1"


LIVE = {"status": "ok"}


# Django views (config/urls.py), for a process that is not served through config/asgi.py.


def healthz(request: HttpRequest) -> JsonResponse:
    if request.method not in ("GET", "HEAD"):
        return _not_allowed_view()
    return _no_store(JsonResponse(LIVE))


def readyz(request: HttpRequest) -> JsonResponse:
    if request.method not in ("GET", "HEAD"):
        return _not_allowed_view()
    try:
        worker = worker_flag(request.GET.getlist("worker"))
    except BadQuery as exc:
        return _no_store(JsonResponse({"error": "bad_request", "reason": str(exc)}, status=400))
    status, body = readiness(worker)
    response = _no_store(JsonResponse(body, status=status))
    if status == 503:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _no_store(response: JsonResponse) -> JsonResponse:
    response["Cache-Control"] = "no-store"
    return response


def _not_allowed_view() -> JsonResponse:
    response = JsonResponse({"error": "method_not_allowed", "reason": "use GET"}, status=405)
    response["Allow"] = "GET, HEAD"
    return response


# In front of Django (config/asgi.py).


class HealthRoutes:
    """Answers ``/healthz`` and ``/readyz`` before the request reaches Django; everything
    else (and every websocket) goes on to ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "http" and scope["path"] in ("/healthz", "/readyz"):
            return await self._answer(scope, send)
        return await self.inner(scope, receive, send)

    async def _answer(self, scope: dict[str, Any], send: Any) -> None:
        headers = [(b"cache-control", b"no-store")]
        if scope["method"] not in ("GET", "HEAD"):
            status, body = 405, {"error": "method_not_allowed", "reason": "use GET"}
            headers.append((b"allow", b"GET, HEAD"))
        elif scope["path"] == "/healthz":
            status, body = 200, LIVE
        else:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            try:
                worker = worker_flag(query.get("worker", []))
            except BadQuery as exc:
                status, body = 400, {"error": "bad_request", "reason": str(exc)}
            else:
                status, body = await asyncio.to_thread(readiness, worker)
                if status == 503:
                    headers.append((b"retry-after", str(RETRY_AFTER_SECONDS).encode()))
        payload = json.dumps(body).encode()
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else payload}
        )


# Beat's heartbeat.


def heartbeat_key() -> str:
    return f"{settings.REDIS_KEY_PREFIX}:beat:heartbeat"


def write_heartbeat(client: Any) -> None:
    beat = {"at": time.time(), "host": socket.gethostname(), "pid": os.getpid()}
    client.set(heartbeat_key(), json.dumps(beat), ex=int(settings.BEAT_HEARTBEAT_MAX_AGE))


def read_heartbeat(client: Any) -> dict[str, Any] | None:
    raw = client.get(heartbeat_key())
    return json.loads(raw) if raw else None
