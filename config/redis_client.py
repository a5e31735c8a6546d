"""The site's one way to Redis.  Every user of it gets its client, or its connection
settings, here: Django's cache (config/patches/django.py), the channel layer and Celery's broker
(config/settings/), rate limits, the hint pool's budget, the analysis cache, the race,
presence, the rank index, readiness and beat's heartbeat.

``REDIS_URL`` names one server.  With ``REDIS_SENTINELS`` (``host:port,...``) and
``REDIS_SENTINEL_MASTER``, the server is whichever one those Sentinels call the primary of
that name: every new connection asks them, and a connection to a primary that died or was
demoted fails and is made again to the one they name next, so a failover needs no restart
and no change of setting.  ``REDIS_URL`` then gives only the database number and the
password (``redis://:password@/0``; its host is not used).

The functions above the line take their inputs as arguments, for config/settings/; the
clients below read the settings when called.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis.sentinel import Sentinel


def parse_sentinels(value: list[str]) -> list[tuple[str, int]]:
    """``["host:port", ...]`` (``REDIS_SENTINELS`` split at commas) as (host, port) pairs."""
    out = []
    for item in value:
        host, sep, port = item.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(
                f"REDIS_SENTINELS: {item!r} is not host:port "
                "(e.g. REDIS_SENTINELS=10.0.0.5:26379,10.0.0.6:26379)"
            )
        out.append((host.strip("[]"), int(port)))
    return out


def server_options(url: str) -> dict[str, Any]:
    """What ``REDIS_URL`` says beside its address: the database and the credentials."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    options: dict[str, Any] = {"db": int(path) if path.isdigit() else 0}
    if parts.password:
        options["password"] = unquote(parts.password)
    if parts.username:
        options["username"] = unquote(parts.username)
    return options


# The Sentinels themselves answer at once or not at all: one that does not is skipped for
# the next one.
SENTINEL_TIMEOUTS = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0}


def channel_hosts(url: str, sentinels: list[tuple[str, int]], master: str) -> list[Any]:
    """The channel layer's ``hosts`` (channels_redis speaks to Sentinel itself)."""
    if not sentinels:
        return [url]
    return [
        {
            "sentinels": sentinels,
            "master_name": master,
            "sentinel_kwargs": dict(SENTINEL_TIMEOUTS),
            **server_options(url),
        }
    ]


def broker(
    url: str, sentinels: list[tuple[str, int]], master: str, prefix: str
) -> tuple[str, dict[str, Any]]:
    """Celery's broker URL and the transport options it adds to the site's own: kombu's
    ``sentinel://`` transport, and every key of Celery's under the site's prefix."""
    options: dict[str, Any] = {"global_keyprefix": f"{prefix}:celery:"}
    if not sentinels:
        return url, options
    server = server_options(url)
    auth = f":{server['password']}@" if "password" in server else ""
    broker_url = ";".join(
        f"sentinel://{auth}{host}:{port}/{server['db']}" for host, port in sentinels
    )
    options.update(master_name=master, sentinel_kwargs=dict(SENTINEL_TIMEOUTS))
    return broker_url, options


# ---------------------------------------------------------------------------------------


def client(timeout: float | None = None) -> redis.Redis:
    """This process's client for the site's Redis, shared by every thread: each command
    waits at most ``timeout`` seconds for an answer (None: as long as it takes; a
    connection is given up after 5 s)."""
    from django.conf import settings

    return _client(
        settings.REDIS_URL, tuple(settings.REDIS_SENTINELS), settings.REDIS_SENTINEL_MASTER, timeout
    )


def new_client(timeout: float) -> redis.Redis:
    """A client of its own with its own connections, for a probe that must not wait behind
    the process's (readiness, ``beat_alive``).  Close it after use."""
    from django.conf import settings

    return _make(
        settings.REDIS_URL, tuple(settings.REDIS_SENTINELS), settings.REDIS_SENTINEL_MASTER, timeout
    )


@lru_cache(maxsize=16)  # by the settings too: a test may point them elsewhere
def _client(
    url: str, sentinels: tuple[str, ...], master: str, timeout: float | None
) -> redis.Redis:
    return _make(url, sentinels, master, timeout)


def _make(url: str, sentinels: tuple[str, ...], master: str, timeout: float | None) -> redis.Redis:
    timeouts = {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout if timeout is not None else 5.0,
    }
    if not sentinels:
        return redis.Redis.from_url(url, **timeouts)
    client: redis.Redis = _sentinel(sentinels).master_for(master, **timeouts, **server_options(url))
    return client


def async_sentinel(sentinels: tuple[str, ...]) -> Any:
    """The Sentinels as an event loop's client asks them (config/redis_async.py): each
    answer names the primary it connects to."""
    from redis.asyncio.sentinel import Sentinel as AsyncSentinel

    return AsyncSentinel(parse_sentinels(list(sentinels)), sentinel_kwargs=dict(SENTINEL_TIMEOUTS))


@lru_cache(maxsize=4)
def _sentinel(sentinels: tuple[str, ...]) -> Sentinel:
    return Sentinel(parse_sentinels(list(sentinels)), sentinel_kwargs=dict(SENTINEL_TIMEOUTS))
