"""psycopg_pool: the PostgreSQL pool's health check, skipped for a connection checked a
moment ago (patch ``pool_check``).

The pool checks a connection as it hands it out (an empty statement, one round trip), so
one that died with a database restart is replaced rather than failing a request.  A
connection that passed its check less than ``DB_CHECK_AFTER_SECONDS`` ago was working
then, and came back in working order since (the pool drops one given back broken, and
Django closes one whose request met a database error): checking it again costs every
request a round trip for almost nothing.  A connection that died in that moment fails its
request as a check found out too late would (503, the client tries again,
docs/operations.md) and is not handed out again.

The time is noted by the check itself, not by a ``reset`` callback when the connection
comes back: with a ``reset`` the pool gives every returned connection to one of its
worker threads, a hand-over a quarter of the busy samples of a ``POST /api/sessions/``
sat in (py-spy), though the rate did not move measurably without it (bench/http_cost.py);
without one it goes back to the pool in the request's own thread.

Django hands the pool either psycopg's own check or none (``CONN_HEALTH_CHECKS``) and
refuses another in the pool's options, so ``DatabaseWrapper`` (the backend
``config.postgresql`` names) sets ``check`` on the pool Django made, once.

Patches: the private ``_check`` of the ``psycopg_pool.ConnectionPool`` Django's backend
makes (``DatabaseWrapper.pool``), and calls the pool's ``check_connection``.
Written for: psycopg-pool 3.3.3, psycopg 3.3.9, Django 5.2.19 (config/tripwires.json).
Tripwires: ``psycopg-pool`` (``ConnectionPool.__init__``, ``_check_connection``,
``check_connection``), ``Django`` (``DatabaseWrapper.pool``).
Off (``FRAMEWORK_PATCHES_OFF=pool_check``): Django's own backend, the pool checking every
connection it hands out (a round trip a request).
Tested: tests/reliability/test_dbpool_check.py.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from django.conf import settings
from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import ConnectionPool

_checked: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def check(conn: Any) -> None:
    """The pool's ``check``: quiet when the connection works, else raises."""
    now = time.monotonic()
    last = _checked.get(conn)
    fresh = last is not None and now - last < settings.DB_CHECK_AFTER_SECONDS
    if not (fresh and not conn.closed and conn.pgconn.status == pq.ConnStatus.OK):
        ConnectionPool.check_connection(conn)
        _checked[conn] = now  # only a check that ran counts: a skipped one proves nothing


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool  # type: ignore[misc]  # not in the type stubs
        if pool is not None and getattr(pool, "_check", None) is not check:
            moved = "psycopg_pool keeps its callbacks elsewhere now, or Django sets a reset"
            assert hasattr(pool, "_check"), moved
            assert getattr(pool, "_reset", 0) is None, moved
            pool._check = check
        return pool
