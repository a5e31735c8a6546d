"""The site's Redis for code that runs on an event loop, as ``config.redis_client`` gives
it to threads: the same server (``REDIS_URL``, or the primary that ``REDIS_SENTINELS`` name
under ``REDIS_SENTINEL_MASTER``), the same database and credentials.

One connection per loop, its commands written as they come and its replies matched to
them in order (Redis answers a connection's commands in order), parsed by hiredis, the C
parser redis-py uses.  ``redis.asyncio`` spent several times the CPU of the threaded
client on each command (its pool's lock, its connection's checks, its parser's layers);
this spends less than the threaded one, and concurrent callers share the connection's
round trips.  A connection that fails, a command not answered within the timeout, or a
server that says it is a replica now (``READONLY``: demoted by a failover) closes the
connection and fails what waits on it; the next command connects again, asking the
Sentinels (redis.asyncio's Sentinel) which server is the primary now, so a failover needs
no restart.

``usable()`` says whether the settings are ones this client speaks: a plain ``redis://``
TCP address (TLS or a Unix socket: the callers keep to their threaded path).
"""

from __future__ import annotations

import asyncio
import collections
import weakref
from typing import Any
from urllib.parse import urlsplit

import hiredis
import redis

from config.redis_client import async_sentinel, server_options


def usable() -> bool:
    from django.conf import settings

    return bool(settings.REDIS_URL) and urlsplit(settings.REDIS_URL).scheme == "redis"


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            future = self.waiting.popleft()
            if future.done():  # given up on (its timeout): its reply is skipped
                continue
            if isinstance(reply, hiredis.ReplyError):
                if str(reply).startswith("READONLY"):  # a replica now: ask the Sentinels again
                    future.set_exception(redis.ReadOnlyError(str(reply)))
                    self.close()
                    return
                future.set_exception(redis.ResponseError(str(reply)))
            else:
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(redis.ConnectionError(f"connection lost: {exc}"))

    def close(self) -> None:
        if self.transport is not None and not self.lost:
            self.transport.close()
        self.connection_lost(None)


class Client:
    def __init__(self, url: str, sentinels: tuple[str, ...], master: str, timeout: float) -> None:
        self.url, self.master, self.timeout = url, master, timeout
        self.options = server_options(url)
        self.sentinel = async_sentinel(sentinels) if sentinels else None
        self.proto: _Protocol | None = None
        self.connecting = asyncio.Lock()

    async def call(self, *args: Any) -> Any:
        """One command's reply (bytes, an int, a list...); ``redis.RedisError`` when the
        server cannot be reached in time or refuses it."""
        return (await self.calls(args))[0]

    async def calls(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Commands sent together, their replies in order (a pipeline, no MULTI)."""
        proto = self.proto
        if proto is None or proto.lost:
            proto = await self._connect()
        return await self._send(proto, commands)

    async def _send(self, proto: _Protocol, commands: tuple[tuple[Any, ...], ...]) -> list[Any]:
        assert proto.transport is not None
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in commands]
        proto.waiting.extend(futures)
        proto.transport.write(b"".join(hiredis.pack_command(c) for c in commands))
        try:
            async with asyncio.timeout(self.timeout):
                return [await f for f in futures]
        except TimeoutError:
            proto.close()  # its replies, if they ever come, belong to no one now
            raise redis.TimeoutError("Redis did not answer in time") from None

    async def _connect(self) -> _Protocol:
        async with self.connecting:
            if self.proto is not None and not self.proto.lost:
                return self.proto
            proto = None
            try:
                async with asyncio.timeout(self.timeout):
                    host, port = await self._address()
                    _, proto = await asyncio.get_running_loop().create_connection(
                        _Protocol, host, port
                    )
                    hello: list[tuple[Any, ...]] = []
                    if "password" in self.options:
                        hello.append(
                            (
                                "AUTH",
                                *([self.options["username"]] if "username" in self.options else []),
                                self.options["password"],
                            )
                        )
                    if self.options["db"]:
                        hello.append(("SELECT", self.options["db"]))
                    if hello:
                        await self._send(proto, tuple(hello))
            except (OSError, TimeoutError, redis.RedisError) as exc:
                if proto is not None:
                    proto.close()
                if isinstance(exc, redis.RedisError):
                    raise
                raise redis.ConnectionError(f"Redis unreachable: {exc!r}") from exc
            # Only now others may send on it: after its AUTH and SELECT.
            self.proto = proto
            return proto

    async def _address(self) -> tuple[str, int]:
        if self.sentinel is not None:
            found: tuple[str, int] = await self.sentinel.discover_master(self.master)
            return found
        parts = urlsplit(self.url)
        return parts.hostname or "localhost", parts.port or 6379

    def close(self) -> None:
        if self.proto is not None:
            self.proto.close()


_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, Client]] = (
    weakref.WeakKeyDictionary()
)


def client(timeout: float) -> Client:
    """This loop's client: each command (and a new connection) waits at most ``timeout``
    seconds."""
    from django.conf import settings

    key = (
        settings.REDIS_URL,
        tuple(settings.REDIS_SENTINELS),
        settings.REDIS_SENTINEL_MASTER,
        timeout,
    )
    mine = _clients.setdefault(asyncio.get_running_loop(), {})
    found = mine.get(key)
    if found is None:
        found = mine[key] = Client(*key)
    return found


async def close_all() -> None:
    """Close this loop's connections (a test's loop, before it ends)."""
    for found in _clients.pop(asyncio.get_running_loop(), {}).values():
        found.close()
