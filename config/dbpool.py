"""The PostgreSQL pool's health check, skipped for a connection used a moment ago.

The pool checks a connection as it hands it out (an empty statement, one round trip), so
one that died with a database restart is replaced rather than failing a request.  A
connection given back less than ``DB_CHECK_AFTER_SECONDS`` ago was working then: checking
it again costs every request a round trip for almost nothing.  A connection that died in
that moment fails its request as a check found out too late would (503, the client tries
again, docs/operations.md) and is not handed out again.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from django.conf import settings
from psycopg import pq
from psycopg_pool import ConnectionPool

_returned: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def returned(conn: Any) -> None:
    """The pool's ``reset``: the connection came back in working order."""
    _returned[conn] = time.monotonic()


def check(conn: Any) -> None:
    """The pool's ``check``: quiet when the connection works, else raises."""
    last = _returned.get(conn)
    fresh = last is not None and time.monotonic() - last < settings.DB_CHECK_AFTER_SECONDS
    if fresh and not conn.closed and conn.pgconn.status == pq.ConnStatus.OK:
        return
    ConnectionPool.check_connection(conn)
