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
"""

from __future__ import annotations

import asyncio
import os
import sys


def choose_loop() -> str:
    """Install uvloop's policy unless told not to; the loop's name."""
    if os.environ.get("SERVE_LOOP", "uvloop") == "asyncio":
        return "asyncio"
    try:
        import uvloop
    except ImportError:
        print("config.serve: uvloop is not installed; Daphne runs on asyncio's loop",
              file=sys.stderr, flush=True)
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def main() -> None:
    if "daphne.server" in sys.modules:  # its loop exists already: too late to choose
        raise SystemExit("config.serve must run before daphne.server is imported")
    choose_loop()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
