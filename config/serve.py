"""Daphne on uvloop's event loop: ``python -m config.serve`` takes Daphne's own arguments.

    python -m config.serve -b 127.0.0.1 -p 8000 config.asgi:application

Daphne runs Twisted on an asyncio loop that it makes when its server module is imported
(``daphne.server``: ``asyncio.new_event_loop()``), before any application code runs, so
the loop is chosen here, ahead of that import, by the event loop policy.  uvloop's loop
(libuv, in C) does the polling, timers and callbacks that asyncio's selector loop does in
Python: about a tenth of a play socket's move (bench/server.py: 0.31-0.34 ms of server
CPU a move on asyncio's loop, 0.27-0.28 on uvloop's).  Twisted still reads and writes the
sockets itself, through the loop's ``add_reader``/``add_writer``, so Daphne, Channels and
the websocket protocol are unchanged.

Where uvloop cannot be imported (it has no Windows build), or with ``SERVE_LOOP=asyncio``,
Daphne keeps asyncio's own loop, and says so.

The listening socket's backlog: Daphne's ``-b``/``-p`` become a Twisted endpoint with
Twisted's default backlog of 50 connections waiting to be accepted.  A burst of players
(the daily's release, every tab reconnecting after a deploy) overflows that: the kernel
drops the extra handshakes and the clients retry after 1, 3, 7... seconds.  Opening 19,800
play sockets from 800 at a time, 73-108 failed that way and the kernel counted over
200,000 listen-queue overflows (bench/idle_sockets.py).  ``LISTEN_BACKLOG`` (default 2048,
uvicorn's; the kernel caps it at ``net.core.somaxconn``) is added to the endpoints built
from ``-b``/``-p`` and ``-u``; an endpoint given whole with ``-e`` keeps what it says.

SIGTERM drains the process before it exits (config/drain.py): it stops accepting, tells its
websockets to reconnect elsewhere, finishes what it is serving, then exits.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any


def choose_loop() -> str:
    """Install uvloop's policy unless told not to; the loop's name."""
    if os.environ.get("SERVE_LOOP", "uvloop") == "asyncio":
        return "asyncio"
    try:
        import uvloop
    except ImportError:
        print(
            "config.serve: uvloop is not installed; Daphne runs on asyncio's loop",
            file=sys.stderr,
            flush=True,
        )
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def backlog() -> int:
    raw = os.environ.get("LISTEN_BACKLOG", "2048")
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise SystemExit(
            f"LISTEN_BACKLOG must be a whole number of connections, 1 or more "
            f"(got {raw!r}); leave it unset for 2048"
        )
    return value


def with_backlog(endpoints: list[str], size: int) -> list[str]:
    """Daphne's endpoint strings with ``size`` as the listen backlog of each TCP or Unix
    socket (an adopted file descriptor is listening already)."""
    return [f"{e}:backlog={size}" if e.startswith(("tcp:", "unix:")) else e for e in endpoints]


def quiet_health_checks() -> None:
    """No access-log line for ``/healthz``: the balancer asks every process every second,
    which would bury the requests of players."""
    from daphne import access

    log = access.AccessLogGenerator.__call__

    def call(self: Any, protocol: str, action: str, details: dict[str, Any]) -> None:
        if not (protocol == "http" and details.get("path") == "/healthz"):
            log(self, protocol, action, details)

    access.AccessLogGenerator.__call__ = call


def main() -> None:
    if "daphne.server" in sys.modules:  # its loop exists already: too late to choose
        raise SystemExit("config.serve must run before daphne.server is imported")
    size = backlog()
    choose_loop()
    from daphne import cli

    from config import drain

    cli.CommandLineInterface.server_class = drain.server_class()  # SIGTERM drains first
    quiet_health_checks()
    build = cli.build_endpoint_description_strings
    cli.build_endpoint_description_strings = lambda *a, **k: with_backlog(build(*a, **k), size)
    cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
