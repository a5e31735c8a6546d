"""Every hint is searched in worker processes, shared fairly between players, so one
player's hints cannot slow or starve anyone else.

The solver is pure Python and CPU bound: run in a request's thread it holds the GIL, and
every other request and socket of the server process waits.  So every hint -- a search,
and the heuristic move a search falls back to -- runs in a small pool of worker processes
(``HINT_WORKERS``), started on the first hint with ``forkserver`` (else ``spawn``): a plain
fork of this threaded process could copy a lock that another thread holds.  The request
only waits for the answer (a thread over HTTP, a coroutine on the socket).

Fair shares.  A search starts at once when a worker is free; otherwise it waits, with at
most ``HINT_QUEUE`` others, and each worker that comes free takes the waiting search of
the player who has used the least solver time this minute (each request counting for a
little too; then the oldest): a player who has asked for little goes ahead of any flood.  A queue that is full makes room for
such a player by dropping the waiting search of the player who has used the most.  Per
player, one hint is in flight at a time: asked again for the same session, the request
joins the search already running (and gets its answer); asked for another session, it is
refused.  Each player has ``HINT_SECONDS_PER_MINUTE`` of solver time a minute, counted
here and, with ``REDIS_URL``, in Redis for every process together (a Redis outage leaves
the count local).

A hint that cannot run is refused with a clear answer (``HintUnavailable``): 429
``hint_budget`` (this minute's solver time is spent), 429 ``hint_pending`` (another hint of
the player's is in flight), 503 ``hints_busy`` (the queue is full of players who used
less, or the search waited too long), 503 ``hints_off`` (no workers), 409
``hint_cancelled`` (the player moved on while it was searched).  Every refusal but the
last is answered after ``HINT_REFUSED_WAIT`` seconds: a client that asks again at once
still asks only about once a second, so a loop of refused hints costs the server little.

Each search holds a slot in shared memory: a cancel byte the server sets (the engine's
``Budget`` polls it through ``hint_worker.SlotFlag``) and a busy byte the worker sets while
it searches.  A worker that dies breaks the pool: its searches are refused (503), and the
next hint starts a new pool.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games.errors import HintUnavailable
from games.play import hint_budget
from games.play.hint_jobs import Job, PlayerHints
from games.play.hint_worker import WorkerPool, _search

log = logging.getLogger(__name__)

# A search that waited this many budgets for a worker is no longer worth starting; the
# request waits that, its budget and the grace (a new worker's start-up) for its answer.
_QUEUE_BUDGETS = 2.0
_GRACE_SECONDS = 5.0
_ASK_COST = 0.05  # seconds of solver time a request counts for, in the queue's order


_lock = threading.Lock()
_pool: WorkerPool | None = None
_pools_started = 0
_players: dict[str, PlayerHints] = {}
_waiting: list[Job] = []
_running: set[Job] = set()
_sessions: dict[str, Job] = {}


def admit(session_id: object, player_id: object) -> tuple[Job, bool]:
    """A place for this request's hint, before anything is counted or read: the job and
    whether it joined one already asked for (else ``start`` gives the new one its table,
    or ``abandon`` frees it); raises ``HintUnavailable``."""
    if settings.HINT_WORKERS <= 0:
        raise HintUnavailable("hints_off", "hints are turned off on this server", 60)
    who, sid = str(player_id), str(session_id)
    over = hint_budget.left(who)
    with _lock:
        p = _player(who)
        window = hint_budget.window()
        p.asks = (p.asks if p.window == window else 0) + 1
        p.window = window
        job = p.job
        if job is not None and not job.over and not job.cancelled:
            if job.session == sid:
                p.counts["joined"] += 1
                return job, True
            p.counts["pending"] += 1
            raise HintUnavailable(
                "hint_pending",
                "another hint of yours is being looked for: wait for it, then ask again",
                1,
            )
        if over is not None:
            p.counts["over_budget"] += 1
            raise HintUnavailable(
                "hint_budget",
                f"you have used this minute's hint search time: ask again in {over} s",
                over,
            )
        job = Job(sid, who)
        if not _room_for(job):
            p.counts["queue_full"] += 1
            raise HintUnavailable(
                "hints_busy", "every hint worker is busy: ask again in a moment", 2
            )
        # Known by its session only once ``start`` has it, after the session's owner was
        # checked: a request for someone else's session must not stand for theirs.
        p.job = job
        _waiting.append(job)
    return job, False


def start(job: Job, game: Any, lines: list[list[str]]) -> None:
    """Give an admitted job its table (``game``, ours alone) and the winning lines the
    engine may follow; it runs as soon as a worker is free and its turn comes."""
    with _lock:
        if job.game is not None or job.over:
            return  # a joined job, already given its table; or dropped meanwhile
        job.game, job.lines = game, lines
        _sessions[job.session] = job
    _dispatch()


def abandon(job: Job) -> None:
    """The request could not go on (its session was refused): free the place it held."""
    with _lock:
        if job.game is None and not job.over:
            _end(job, None, "cancelled")


def wait(job: Job) -> Any:
    """The job's Hint, waiting in this thread; raises ``HintUnavailable``."""
    budget = settings.HINT_BUDGET_SECONDS
    try:
        return job.answer.result(timeout=budget * (1 + _QUEUE_BUDGETS) + _GRACE_SECONDS)
    except TimeoutError:
        cancel(job.session)
        raise HintUnavailable("hints_busy", "the hint took too long: ask again", 2) from None


async def wait_async(job: Job) -> Any:
    """``wait`` for an event loop: no thread is held while the search runs."""
    budget = settings.HINT_BUDGET_SECONDS
    try:
        return await asyncio.wait_for(
            asyncio.wrap_future(job.answer), budget * (1 + _QUEUE_BUDGETS) + _GRACE_SECONDS
        )
    except TimeoutError:
        cancel(job.session)
        raise HintUnavailable("hints_busy", "the hint took too long: ask again", 2) from None


def cancel(session_id: object) -> None:
    """Stop the session's hint, waiting or running: its player has moved on."""
    key = str(session_id)
    job = _sessions.get(key)  # the usual case, nothing in flight: no lock taken
    if job is None:
        return
    with _lock:
        if _sessions.get(key) is not job or job.over:
            return
        job.cancelled = True
        if job.running and job.pool is not None:
            job.pool.cancel[job.slot] = 1
        elif not job.running:
            _end(
                job,
                HintUnavailable("hint_cancelled", "you moved on: ask again for this position", 1),
                "cancelled",
            )


def stats(player_id: object = None) -> dict[str, Any]:
    """Counters: the player's (COUNTERS, ``in_flight``, ``searching`` -- busy in a worker
    now -- and ``peak``), or the pool's when no player is given."""
    with _lock:
        if player_id is None:
            return {
                "pools_started": _pools_started,
                "worker_pids": worker_pids(),
                "in_flight": len(_running) + len(_waiting),
                "waiting": len(_waiting),
                "searching": sum(j.pool.busy[j.slot] for j in _running if j.pool),
            }
        who = str(player_id)
        p = _players.get(who) or PlayerHints()
        mine = [j for j in (*_running, *_waiting) if j.player == who]
        return {
            **p.counts,
            "in_flight": len(mine),
            "peak": p.peak,
            "searching": sum(j.pool.busy[j.slot] for j in mine if j.running and j.pool),
        }


def worker_pids() -> list[int]:
    """The current pool's worker processes (to watch them, or to test a crash)."""
    pool = _pool
    return pool.pids() if pool is not None else []


def warm(timeout: float = 60.0) -> list[int]:
    """Start every worker now rather than on the first hints, which would otherwise spend
    part of their budget waiting for a worker to start; the workers' pids."""
    if settings.HINT_WORKERS <= 0:
        return []
    with _lock:
        pool, old = _current_pool()
    if old is not None:
        old.close(wait=False)
    # Sent together, each finds every worker busy, so each starts one.
    calls = [pool.executor.submit(time.sleep, 0.2) for _ in range(settings.HINT_WORKERS)]
    for call in calls:
        call.result(timeout=timeout)
    return worker_pids()


def reset() -> None:
    """Stop the pool and forget every count (settings changed; tests)."""
    global _pool, _pools_started
    with _lock:
        pool, _pool, _pools_started = _pool, None, 0
        for job in (*_running, *_waiting):
            if not job.answer.done():
                job.answer.set_exception(
                    HintUnavailable("hints_busy", "the hint workers restarted: ask again", 1)
                )
        _players.clear()
        _sessions.clear()
        _waiting.clear()
        _running.clear()
        hint_budget.reset()
    if pool is not None:
        pool.close(wait=True)


# -- under the lock --------------------------------------------------------------------------


def _player(who: str) -> PlayerHints:
    p = _players.get(who)
    if p is None:
        if len(_players) > 10_000:  # players with nothing in flight: counters only
            for k in [k for k, q in _players.items() if q.job is None]:
                del _players[k]
        p = _players[who] = PlayerHints()
    return p


def _used(who: str) -> float:
    """What the player has taken this minute: its solver seconds, and a twentieth of a
    second per request (so among players who have not searched yet, the one asking over
    and over is the one who waits)."""
    p = _players.get(who)
    asks = p.asks if p is not None and p.window == hint_budget.window() else 0
    return hint_budget.used(who) + _ASK_COST * max(0, asks - 1)


def _room_for(job: Job) -> bool:
    """Is there a place for ``job``?  A worker or a queue place free; or a waiting job of
    a player who used more than this one's, dropped to make room."""
    workers = max(1, settings.HINT_WORKERS)
    if len(_running) + len(_waiting) < workers + max(0, settings.HINT_QUEUE):
        return True
    mine = _used(job.player)
    heavy = max(_waiting, key=lambda j: (_used(j.player), j.asked), default=None)
    if heavy is None or _used(heavy.player) <= mine:
        return False
    _players[heavy.player].counts["dropped"] += 1
    _end(
        heavy,
        HintUnavailable("hints_busy", "every hint worker is busy: ask again in a moment", 2),
        "",
    )
    return True


def _current_pool() -> tuple[WorkerPool, WorkerPool | None]:
    """The pool to use, and a broken one it replaces (to shut down outside the lock)."""
    global _pool, _pools_started
    old = _pool
    if old is not None and not old.broken and not getattr(old.executor, "_broken", False):
        return old, None
    workers = max(1, settings.HINT_WORKERS)
    _pool = WorkerPool(workers, workers)
    _pools_started += 1
    return _pool, old


def _end(job: Job, result: Any, outcome: str) -> None:
    """The job is over: its answer (a Hint, or the HintUnavailable its requests get)."""
    job.over = True
    p = _players.get(job.player)
    if p is not None:
        if outcome:
            p.counts[outcome] += 1
        if p.job is job:
            p.job = None
    if _sessions.get(job.session) is job:
        del _sessions[job.session]
    _running.discard(job)
    if job in _waiting:
        _waiting.remove(job)
    if job.pool is not None and job.slot >= 0:
        job.pool.free.append(job.slot)
        job.slot = -1
    if not job.answer.done():
        if isinstance(result, Exception) or result is None:
            job.answer.set_exception(
                result
                or HintUnavailable("hints_busy", "the hint could not be searched: ask again", 2)
            )
        else:
            job.answer.set_result(result)


def _dispatch() -> None:
    """Start waiting jobs while workers are free: the least-used player's first."""
    old = None
    while True:
        with _lock:
            ready = [j for j in _waiting if j.game is not None]
            if not ready:
                break
            pool, broken = _current_pool()
            old = old or broken
            if not pool.free:
                break
            job = min(ready, key=lambda j: (_used(j.player), j.asked))
            patience = settings.HINT_BUDGET_SECONDS * _QUEUE_BUDGETS
            if time.monotonic() - job.asked > patience:
                _end(
                    job,
                    HintUnavailable("hints_busy", "every hint worker was busy: ask again", 2),
                    "expired",
                )
                continue
            _waiting.remove(job)
            job.pool, job.slot, job.running = pool, pool.free.pop(), True
            pool.cancel[job.slot] = pool.busy[job.slot] = 0
            _running.add(job)
            p = _player(job.player)
            p.counts["started"] += 1
            p.peak = max(p.peak, sum(j.player == job.player for j in _running))
            game, lines = job.game, job.lines
            job.game = None  # the table goes to the worker; nothing here needs it again
        try:
            future = pool.executor.submit(
                _search, job.slot, game, lines, settings.HINT_BUDGET_SECONDS
            )
        except Exception as exc:  # a pool broken since, or shut down
            log.warning("hint search not started: %r", exc)
            with _lock:
                pool.broken = True
                _end(job, None, "failed")
            continue
        future.add_done_callback(functools.partial(_finished, job))
    if old is not None:
        old.close(wait=False)


def _finished(job: Job, future: Future[Any]) -> None:
    seconds = 0.0
    try:
        found = future.result()
    except Exception as exc:  # a dead worker breaks the pool; a search's own error does not
        log.warning("hint search failed: %r", exc)
        with _lock:
            if job.pool is not None:
                job.pool.broken = job.pool.broken or isinstance(exc, BrokenProcessPool)
            _end(job, None, "failed")
    else:
        # Charged before the answer is given: a player who asks again the moment it arrives
        # must find this search already counted.
        seconds = found.seconds if found is not None else 0.0
        if seconds:
            hint_budget.charge(job.player, seconds)
        with _lock:
            if found is None or found.cancelled or job.cancelled:
                _end(
                    job,
                    HintUnavailable(
                        "hint_cancelled", "you moved on: ask again for this position", 1
                    ),
                    "cancelled",
                )
            else:
                _end(job, found, "searched")
    _dispatch()
