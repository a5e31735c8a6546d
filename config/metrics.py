"""Prometheus metrics: ``GET /metrics`` in the text format (prometheus-client).

Per process, not shared: each web process counts what it serves itself and answers
``/metrics`` with its own figures, and Prometheus scrapes every web process directly (it
adds the ``instance`` label and sums across them).  That needs nothing shared between
processes (prometheus-client's multiprocess mode needs one folder for every process, which
separate containers do not have, and it cannot tell a killed process's gauges from a live
one's), and a process that dies takes only its own series with it.  Through the balancer a
scrape would reach any one process, so the balancer refuses ``/metrics`` from outside
(deploy/haproxy.cfg); HAProxy's own figures are on its stats port.

Celery's task outcomes are the exception: tasks run in worker processes, which serve no
HTTP, so each outcome is counted in a Redis hash by the process that ran the task, and every
web process reports those site-wide counts (``solitaire_celery_tasks_total``: take the max
across instances, not the sum).

``/metrics`` is answered ahead of Django (as ``/healthz`` is, config/health.py), only to a
client whose address is in ``METRICS_ALLOWED_NETWORKS`` (loopback by default); anyone else
gets a 404, as if there were nothing there.  Behind the balancer (``--proxy-headers``) the
address is the forwarded one, which only the balancer can set.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections.abc import Iterator
from typing import Any

import redis
from django.conf import settings
from django.utils.deprecation import MiddlewareMixin
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import REGISTRY, CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from config import redis_client

log = logging.getLogger(__name__)

REQUESTS = Counter(
    "solitaire_http_requests",
    "HTTP requests answered by Django, by view and status",
    ["view", "status"],
)
SOCKET_MOVES = Counter(
    "solitaire_socket_moves",
    "Moves sent over play sockets, by game and outcome (stored, or the error's code)",
    ["game", "outcome"],
)
PLAY_SOCKETS = Gauge("solitaire_play_sockets_open", "Play sockets open in this process")
BATCH_SIZE = Histogram(
    "solitaire_move_store_batch_size",
    "Socket moves per statement of the move store (games/live/driver.py)",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 200),
)
BATCH_SECONDS = Histogram(
    "solitaire_move_store_seconds",
    "Time of one statement of the move store, from sending it to its rows",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5),
)


def _allowed() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in settings.METRICS_ALLOWED_NETWORKS]


def allowed(address: str | None) -> bool:
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == n.version and ip in n for n in _allowed())


# Celery's task outcomes, site-wide, in Redis.


def _client() -> redis.Redis:
    return redis_client.client(timeout=1)


def _tasks_key() -> str:
    return f"{settings.REDIS_KEY_PREFIX}:metrics:tasks"


def count_task(task: str, outcome: str) -> None:
    """One task ended with ``outcome`` (success, failure, retry, rejected, revoked)."""
    if not settings.REDIS_URL:
        return
    try:
        _client().hincrby(_tasks_key(), f"{task}|{outcome}", 1)
    except redis.RedisError:
        log.warning("metrics: could not count task %s %s", task, outcome)


class _Sitewide(Collector):
    """What is read at scrape time: the task outcomes (Redis) and the hint pool's queue."""

    def describe(self) -> list[Any]:
        # Nothing to describe ahead: without this the registry would collect once when it
        # is registered, at import, reading Redis and the settings before they may exist.
        return []

    def collect(self) -> Iterator[Any]:
        hints = GaugeMetricFamily(
            "solitaire_hint_searches",
            "Hint searches of this process: waiting for a worker, or searching",
            labels=["state"],
        )
        from games.play import hint_pool

        pool = hint_pool.stats()
        hints.add_metric(["waiting"], pool["in_flight"] - pool["searching"])
        hints.add_metric(["searching"], pool["searching"])
        yield hints
        tasks = CounterMetricFamily(
            "solitaire_celery_tasks",
            "Celery tasks ended, site-wide, by task and outcome",
            labels=["task", "outcome"],
        )
        if settings.REDIS_URL:
            try:
                counts = _client().hgetall(_tasks_key())
            except redis.RedisError:
                counts = {}
            for field, value in sorted(counts.items()):  # type: ignore[union-attr]
                task, _, outcome = field.decode().rpartition("|")
                tasks.add_metric([task, outcome], int(value))
        yield tasks


REGISTRY.register(_Sitewide())


def connect_celery() -> None:
    """Count every task's outcome (called once, from config/celery.py)."""
    from celery import signals

    def name(sender: Any) -> str:
        return str(getattr(sender, "name", sender))

    signals.task_success.connect(
        lambda sender=None, **kw: count_task(name(sender), "success"), weak=False
    )
    signals.task_failure.connect(
        lambda sender=None, **kw: count_task(name(sender), "failure"), weak=False
    )
    signals.task_retry.connect(
        lambda sender=None, request=None, **kw: count_task(
            str(getattr(request, "task", None) or name(sender)), "retry"
        ),
        weak=False,
    )
    signals.task_revoked.connect(
        lambda sender=None, request=None, **kw: count_task(
            str(getattr(request, "task", None) or name(sender)), "revoked"
        ),
        weak=False,
    )
    signals.task_rejected.connect(
        lambda sender=None, message=None, **kw: count_task("unknown", "rejected"), weak=False
    )


# Requests, by view.


class RequestMetricsMiddleware(MiddlewareMixin):
    """Counts every answer of Django by the view's URL name and the status.  Sync and async
    capable (Django's mixin), as the middleware above the last one must be, so the chain
    still runs in one thread (config/settings/, MIDDLEWARE)."""

    def process_response(self, request: Any, response: Any) -> Any:
        match = getattr(request, "resolver_match", None)
        view = (match.view_name or match._func_path) if match is not None else "unresolved"
        REQUESTS.labels(view, str(response.status_code)).inc()
        return response


# The route.


class MetricsRoute:
    """Answers ``/metrics`` before the request reaches Django; everything else goes on."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "http" and scope["path"] == "/metrics":
            return await self._answer(scope, send)
        return await self.inner(scope, receive, send)

    async def _answer(self, scope: dict[str, Any], send: Any) -> None:
        client = scope.get("client") or (None, None)
        if not allowed(client[0]):
            status, body, kind = (
                404,
                b'{"error": "not_found", "reason": "no such page"}',
                b"application/json",
            )
        elif scope["method"] not in ("GET", "HEAD"):
            status, body, kind = (
                405,
                b'{"error": "method_not_allowed", "reason": "use GET"}',
                b"application/json",
            )
        else:
            start = time.perf_counter()
            body = await asyncio.to_thread(generate_latest, REGISTRY)
            status, kind = 200, CONTENT_TYPE_LATEST.encode()
            log.debug(
                "metrics: %d bytes in %.1f ms", len(body), (time.perf_counter() - start) * 1000
            )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", kind),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )
