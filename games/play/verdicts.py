"""Dead-end verdicts the socket's event loop had no time for.

A socket move's answer gives its dead-end verdict only if it takes at most
``DEAD_END_LOOP_MS`` (``answer.state``'s ``within``).  The verdicts carried from move to move
fit in that, but a fresh search can take a hundred milliseconds, and on the loop it would
stall every socket of the process.  Those are settled here, in worker processes (the search
is pure Python and holds the GIL: in a thread of the server it would stall the loop all the
same), started on the first such verdict with ``forkserver`` (else ``spawn``), like the hint
pool's.  The consumer tells the player when the verdict is a dead end (docs/api.md, the
``verdict`` message), and the table kept for the next move learns what the search found,
so the next move's verdict is usually carried at once.

A worker that dies breaks the pool: the verdict it was settling is given in a thread
instead (late, but never lost), and the next one starts a new pool.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games.engine import Game, endgame
from games.play import analysis_cache
from games.play.hint_worker import watch_server

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: tuple[ProcessPoolExecutor, Any] | None = None  # the executor and the workers' pipe


def settle_after() -> float:
    """How long a position must stay the session's before its verdict is searched for: a
    player who moves on sooner makes the search moot, and it is then never sent."""
    return settings.DEAD_END_SETTLE_MS / 1000


def loop_seconds() -> float | None:
    """What a verdict may take on the loop (None: all it needs, with no workers to hand
    the rest to)."""
    return settings.DEAD_END_LOOP_MS / 1000 if settings.DEAD_END_WORKERS > 0 else None


def detached(game: Game) -> Game:
    """A copy of the table to send to a worker, its history and memo left behind: the search
    needs neither, they are most of what pickling would cost, and ``tables.remember``
    carries back what the worker finds."""
    g = game.copy()
    g.history = []
    g.dead_end_memo = None
    return g


async def settle(
    game: Game, daily: analysis_cache.Daily | None = None
) -> tuple[bool, endgame.Kept]:
    """``endgame.settle`` of ``game`` (a ``detached`` copy) in a worker process.  On a
    daily, a verdict another table of that deal settled is taken instead (Redis, in a
    thread: the loop never waits on it), and the worker's is kept for the next."""
    loop = asyncio.get_running_loop()
    if daily is not None:
        known = await loop.run_in_executor(_redis, analysis_cache.dead_end, daily, game)
        if known is not None:
            return known
    try:
        found = await loop.run_in_executor(_executor(), endgame.settle, game)
    except BrokenProcessPool as exc:
        log.warning("dead-end verdict settled in a thread, the worker pool broke: %r", exc)
        found = await loop.run_in_executor(None, endgame.settle, game)
    if daily is not None:
        _redis.submit(analysis_cache.keep_dead_end, daily, game, *found)
    return found


# Redis calls of the settling, off the loop; few, as most verdicts never get here.
_redis = ThreadPoolExecutor(max_workers=2, thread_name_prefix="verdict-cache")


_warm = False


def warm() -> None:
    """Start the workers now, in the caller's thread (a socket's first trip to the pool):
    the first job sent to a pool starts its process right there, and on the event loop
    that would stall every socket for as long."""
    global _warm
    if _warm or settings.DEAD_END_WORKERS <= 0:
        return
    _warm = True
    _executor().submit(int)


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        old = _pool
        if old is not None and not getattr(old[0], "_broken", False):
            return old[0]
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            # Not this module: what it imports for the server's side (Redis's client, the
            # cache) is no use to a worker and would slow every worker's start.
            ctx.set_forkserver_preload(["games.engine", "games.play.hint_worker"])
        watch, alive = ctx.Pipe(duplex=False)  # the workers watch for its end
        executor = ProcessPoolExecutor(
            settings.DEAD_END_WORKERS, mp_context=ctx, initializer=watch_server, initargs=(watch,)
        )
        _pool = (executor, alive)
    if old is not None:
        old[0].shutdown(wait=False, cancel_futures=True)
        old[1].close()
    return executor


def reset() -> None:
    """Stop the workers (settings changed; tests)."""
    global _pool, _warm
    with _lock:
        old, _pool, _warm = _pool, None, False
    if old is not None:
        old[0].shutdown(wait=True, cancel_futures=True)
        old[1].close()
