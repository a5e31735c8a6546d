"""The PostgreSQL pool's health check, skipped for a connection checked a moment ago.

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
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from django.conf import settings
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
