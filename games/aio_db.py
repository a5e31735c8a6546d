"""A few asyncio PostgreSQL connections per event loop, for the socket's move statement.

A move over a socket is one short statement (``unlocked.SQL``).  Run on an asyncio
connection it needs no thread: no hand-over to a pool thread and back, no contention for
the interpreter lock, which on a busy server cost more than the move itself.  Everything
else (the locked path, hints, reads) still goes through Django in a pool thread.

Connections are opened on first use with Django's connection settings (so tests reach the
test database), in autocommit, and closed when a statement fails: a database that restarted
leaves no broken connection behind, and the caller answers "unavailable".
"""

from __future__ import annotations

import asyncio
import os
import weakref
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections

SIZE = int(os.environ.get("WS_DB_CONNECTIONS", "8"))
APPLICATION_NAME = "solitaire socket moves"  # how these connections show in pg_stat_activity


class _Pool:
    def __init__(self) -> None:
        self.free: list[psycopg.AsyncConnection[Any]] = []
        self.slots = asyncio.Semaphore(SIZE)

    async def fetchone(self, sql: str, params: list[Any]) -> tuple[Any, ...] | None:
        async with self.slots:
            while True:
                fresh = not self.free
                conn = self.free.pop() if self.free else await _connect()
                try:
                    async with conn.cursor() as cursor:
                        await cursor.execute(sql, params, prepare=True, binary=True)
                        row = await cursor.fetchone()
                except psycopg.OperationalError:
                    await _close(conn)
                    if fresh:
                        raise
                    # An idle connection the server dropped (it restarted): once more on a
                    # new one.  Should the first attempt have been stored after all, the
                    # statement's own seq check turns the second into a no-op.
                    continue
                except BaseException:
                    await _close(conn)
                    raise
                self.free.append(conn)
                return row


async def _connect() -> psycopg.AsyncConnection[Any]:
    s = connections[DEFAULT_DB_ALIAS].settings_dict
    conn = await psycopg.AsyncConnection.connect(
        dbname=s["NAME"], user=s["USER"] or None, password=s["PASSWORD"] or None,
        host=s["HOST"] or None, port=str(s["PORT"]) if s["PORT"] else None,
        # Times come back in UTC, as on Django's connections.
        options="-c TimeZone=UTC", autocommit=True, connect_timeout=5,
        application_name=APPLICATION_NAME,
    )
    _open.add(conn)
    return conn


async def _close(conn: psycopg.AsyncConnection[Any]) -> None:
    _open.discard(conn)
    try:
        await conn.close()
    except psycopg.Error:
        pass


_open: set[psycopg.AsyncConnection[Any]] = set()  # every connection not closed yet
_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Pool] = (
    weakref.WeakKeyDictionary()
)


def usable() -> bool:
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


async def fetchone(sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """Run one statement in autocommit and return its first row."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = _Pool()
    return await pool.fetchone(sql, params)


def close_all() -> None:
    """Close every connection now, from any thread, whatever loop it belongs to (tests call
    it between tests, so no connection outlives the test database)."""
    for pool in list(_pools.values()):
        pool.free.clear()
    while _open:
        _open.pop().pgconn.finish()
