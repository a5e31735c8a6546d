"""Memory given back once many sockets have closed.

A closed socket's objects were part of reference cycles, which only the collector frees;
in a process that has gone quiet nothing triggers a full collection, so thousands of
closed sockets' memory stayed taken (bench/idle_sockets.py).  config/patches/autobahn.py now
breaks the cycles of autobahn's and Twisted's objects, so most go at the close; what is
left in cycles (an exception's traceback, a request's) still waits for a collection.  And
glibc keeps freed memory for the process rather than giving it back to the system.  So after ``RELEASE_AFTER`` closes, once no socket has closed
for ``RELEASE_DELAY`` seconds, one full collection runs and ``malloc_trim`` returns the
free pages.  The collection pauses the event loop (tens of milliseconds for thousands of
sockets: ``gc.freeze`` in config/asgi.py keeps the code's own objects out of it), which is
why it waits for a burst to end and never runs more than once per burst.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

RELEASE_AFTER = 1000
RELEASE_DELAY = 2.0

_closed = [0]
_timer: list[asyncio.TimerHandle | None] = [None]
_trim: Any = None
try:
    _trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
except (OSError, AttributeError):  # not glibc: the collection alone
    pass


def socket_closed() -> None:
    """Count a closed socket (on the event loop)."""
    _closed[0] += 1
    if _closed[0] < RELEASE_AFTER:
        return
    if _timer[0] is not None:
        _timer[0].cancel()  # the burst goes on: wait for its end
    _timer[0] = asyncio.get_running_loop().call_later(RELEASE_DELAY, release)


def release() -> None:
    _timer[0], count, _closed[0] = None, _closed[0], 0
    started = time.perf_counter()
    found = gc.collect()
    if _trim is not None:
        _trim(0)
    log.info(
        "memory released after %d closed sockets: %d objects, %.0f ms",
        count,
        found,
        (time.perf_counter() - started) * 1000,
    )
