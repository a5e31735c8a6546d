"""A few asyncio PostgreSQL connections per event loop, for the socket's move statement.

A move over a socket is stored by one short statement (``games.play.optimistic.sql()``).  Run on an
asyncio connection it needs no thread: no hand-over to a pool thread and back, no contention
for the interpreter lock, which on a busy server cost more than the move itself.  Everything
else (the locked path, hints, reads) still goes through Django in a pool thread.

Moves are batched (``batched``): while a statement is out, the moves that arrive wait and
go together in the next one.  A busy server then pays the driver's and PostgreSQL's cost per
statement (and one commit) once for many moves; an idle one sends each move at once.

Connections are opened on first use with Django's connection settings (so tests reach the
test database), in autocommit, and closed when a statement fails: a database that restarted
leaves no broken connection behind, and the caller answers "unavailable".
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
import weakref
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections

from config.metrics import BATCH_SECONDS, BATCH_SIZE
from games.play.optimistic import rows_param

SIZE = int(os.environ.get("WS_DB_CONNECTIONS", "8"))
# Statements of one batch kind out at once per process: while one is out the next fills up.
# Two keep PostgreSQL busy while this process prepares the next; more only split batches.
IN_FLIGHT = int(os.environ.get("WS_DB_BATCHES", "2"))
BATCH_LIMIT = 200  # moves per statement at most
APPLICATION_NAME = "solitaire socket moves"  # how these connections show in pg_stat_activity


class _Pool:
    def __init__(self) -> None:
        self.free: list[psycopg.AsyncConnection[Any]] = []
        self.slots = asyncio.Semaphore(SIZE)

    async def fetchall(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        async with self.slots:
            while True:
                fresh = not self.free
                conn = self.free.pop() if self.free else await _connect()
                try:
                    async with conn.cursor() as cursor:
                        # Prepared as the connection says (its prepare_threshold).
                        await cursor.execute(sql, params, prepare=None, binary=True)
                        rows = await cursor.fetchall()
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
                return rows


class _Batch:
    """Calls of ``batched`` with one statement, gathered: see the module's docstring."""

    def __init__(self, pool: _Pool, sql: str) -> None:
        self.pool, self.sql = pool, sql
        self.waiting: list[tuple[Any, Hashable, asyncio.Future[Any]]] = []
        self.out = 0
        self.tasks: set[asyncio.Task[None]] = set()  # held so none is collected mid-way

    def submit(self, row: Any, key: Hashable) -> asyncio.Future[Any]:
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((row, key, future))
        if self.out < IN_FLIGHT:
            self.out += 1
            task = asyncio.ensure_future(self._send())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return future

    async def _send(self) -> None:
        try:
            while self.waiting:
                batch = self.waiting[:BATCH_LIMIT]
                del self.waiting[:BATCH_LIMIT]
                started = time.perf_counter()  # for /metrics
                try:
                    rows = await self.pool.fetchall(self.sql, rows_param([r for r, _, _ in batch]))
                except BaseException as exc:  # every move of the batch: "unavailable"
                    # The original's name kept in the text, for the log line of each move.
                    failed = f"{type(exc).__name__}: {exc}"
                    for _, _, future in batch:
                        if not future.done():
                            future.set_exception(psycopg.OperationalError(failed))
                    if not isinstance(exc, Exception):
                        for _, _, future in self.waiting:
                            future.cancel()
                        raise  # cancelled: the loop is closing
                    continue
                SENT["statements"] += 1
                SENT["rows"] += len(batch)
                BATCH_SIZE.observe(len(batch))
                BATCH_SECONDS.observe(time.perf_counter() - started)
                found = {r[0]: r[1:] for r in rows}
                for _, key, future in batch:
                    if not future.done():  # its socket may have gone meanwhile
                        future.set_result(found.get(key))
        finally:
            self.out -= 1


async def _connect() -> psycopg.AsyncConnection[Any]:
    s = connections[DEFAULT_DB_ALIAS].settings_dict
    conn = await psycopg.AsyncConnection.connect(
        dbname=s["NAME"],
        user=s["USER"] or None,
        password=s["PASSWORD"] or None,
        host=s["HOST"] or None,
        port=str(s["PORT"]) if s["PORT"] else None,
        autocommit=True,
        connect_timeout=5,
        application_name=APPLICATION_NAME,
        # Statements prepared on the server as on Django's connections, or never
        # (DB_SERVER_BINDING, DB_TRANSACTION_POOLING in config/settings/services.py).
        prepare_threshold=s["OPTIONS"].get("prepare_threshold"),
    )
    # Times come back in UTC, as on Django's connections.  Set once the connection is open,
    # not sent as a startup option, which PgBouncer refuses; a pooler keeps the time zone
    # with its client (one of the parameters it tracks), whichever server runs the statement.
    await conn.execute("SET TIME ZONE 'UTC'")
    _open.add(conn)
    return conn


async def _close(conn: psycopg.AsyncConnection[Any]) -> None:
    _open.discard(conn)
    try:
        await conn.close()
    except psycopg.Error:
        pass


_open: set[psycopg.AsyncConnection[Any]] = set()  # every connection not closed yet
_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Pool] = weakref.WeakKeyDictionary()
_batches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Batch]] = (
    weakref.WeakKeyDictionary()
)
# Batched statements sent by this process and the calls they carried (rows / statements is
# the mean batch size).
SENT: Counter[str] = Counter()


@functools.cache  # the settings, so the vendor, are fixed for the process
def usable() -> bool:
    return bool(connections[DEFAULT_DB_ALIAS].vendor == "postgresql")


def _pool() -> _Pool:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = _Pool()
    return pool


async def batched(sql: str, row: Any, key: Hashable) -> tuple[Any, ...] | None:
    """Run ``sql`` for ``row`` together with the other calls waiting for the same statement.

    The statement gets one parameter, the calls' rows as a JSON array, and returns a row per
    call it served, the call's ``key`` first; this call's row comes back
    without its key, or None when the statement returned none for it.  A failed statement
    fails every call it carried with ``psycopg.OperationalError``."""
    loop = asyncio.get_running_loop()
    kinds = _batches.get(loop)
    if kinds is None:
        kinds = _batches[loop] = {}
    batch = kinds.get(sql)
    if batch is None:
        batch = kinds[sql] = _Batch(_pool(), sql)
    result: tuple[Any, ...] | None = await batch.submit(row, key)
    return result


async def fetchall(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """``sql`` on its own (not batched) on one of this loop's connections, in autocommit.
    An idle connection the server dropped is replaced and the statement sent once more, so
    it must be one that a second run after an unanswered first would not repeat wrongly."""
    return await _pool().fetchall(sql, params)


def close_all() -> None:
    """Close every connection now, from any thread, whatever loop it belongs to (tests call
    it between tests, so no connection outlives the test database)."""
    for pool in list(_pools.values()):
        pool.free.clear()
    _batches.clear()
    while _open:
        _open.pop().pgconn.finish()
