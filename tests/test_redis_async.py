"""The event loop's Redis client (config/redis_async.py): the site's server, database and
prefix as the threaded client's; replies matched to their commands when many wait at once;
a server that does not answer fails the command in time and the next one connects again;
through Sentinel, a failover is followed without a restart."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import pytest
import redis
from django.conf import settings

from config import redis_async, redis_client


def _run(coro: Any) -> Any:
    async def go() -> Any:
        try:
            return await coro
        finally:
            await redis_async.close_all()

    return asyncio.run(go())


def test_the_same_database_as_the_threaded_client():
    key = f"{settings.REDIS_KEY_PREFIX}:test:redis_async"
    redis_client.client().delete(key + ":n")
    redis_client.client().set(key, b"from a thread", ex=30)

    async def go() -> Any:
        c = redis_async.client(0.5)
        # Many commands at once on the one connection, each answered with its own reply.
        got = await asyncio.gather(*(c.call("INCRBY", key + ":n", 1) for _ in range(50)))
        pair = await c.calls(("GET", key), ("TTL", key))
        with pytest.raises(redis.ResponseError):
            await c.call("INCRBY", key, 1)  # not a number: refused, the connection goes on
        return got, pair, await c.call("GET", key)

    got, pair, again = _run(go())
    assert again == b"from a thread"
    assert sorted(got) == list(range(1, 51))
    assert pair[0] == b"from a thread"
    assert 0 < pair[1] <= 30
    redis_client.client().delete(key, key + ":n")


def test_a_silent_server_fails_the_command_in_time_and_the_next_connects_again(settings):
    silent = socket.socket()  # accepts, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    settings.REDIS_URL = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"

    async def go() -> Any:
        c = redis_async.client(0.3)
        started = time.monotonic()
        with pytest.raises(redis.TimeoutError):
            await c.call("GET", "x")
        took = time.monotonic() - started
        assert c.proto is None or c.proto.lost  # given up: the next command connects anew
        silent.close()
        with pytest.raises(redis.ConnectionError):  # nothing listens now
            await c.call("GET", "x")
        return took

    assert _run(go()) < 2


@pytest.mark.slow
def test_through_sentinel_a_failover_is_followed(settings):
    import shutil

    if shutil.which("redis-sentinel") is None:
        pytest.skip("redis-sentinel is not installed")
    from tests.reliability.sentinel import MASTER, SentinelGroup

    group = SentinelGroup()
    try:
        group.start()
        settings.REDIS_URL = "redis://:@/3"
        settings.REDIS_SENTINELS = group.sentinels.split(",")
        settings.REDIS_SENTINEL_MASTER = MASTER

        async def go() -> Any:
            c = redis_async.client(0.5)
            assert await c.call("SET", "k", "before") == b"OK"
            first = group.primary_port()
            group.kill("primary")
            deadline = time.monotonic() + 60
            while True:  # fails while the Sentinels elect the replica, then works
                try:
                    if await c.call("SET", "k", "after") == b"OK":
                        break
                except redis.RedisError:
                    pass
                assert time.monotonic() < deadline, "the client never reached the new primary"
                await asyncio.sleep(0.2)
            assert group.primary_port() != first
            return await c.call("GET", "k")

        assert _run(go()) == b"after"
    finally:
        group.close()
