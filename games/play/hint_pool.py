"""Hint searches in worker processes, so one player's hints cannot slow everyone else.

The solver is pure Python and CPU bound: run in a request's thread it holds the GIL, and
every other request and socket of the server process waits.  Here each search runs in a
small pool of worker processes (``HINT_WORKERS``), started on the first hint with
``forkserver`` (else ``spawn``): a plain fork of this threaded process could copy a lock
that another thread holds.  The request's thread only waits for the answer.

Per player, one search is in flight at a time: a newer hint cancels the older one and starts
once that one has stopped (a request overtaken meanwhile gets no search), and a player has
``HINT_SECONDS_PER_MINUTE`` of solver time a minute, counted here and, with ``REDIS_URL``,
in Redis for every process together (a Redis outage leaves the count local).  In all, at
most ``HINT_WORKERS + HINT_QUEUE`` searches are in flight.  When there is no search,
:func:`search` returns None and the caller answers with its plain heuristic at once.

Each search holds a slot in shared memory: a cancel byte the server sets (the engine's
``Budget`` polls it through ``hint_worker.SlotFlag``) and a busy byte the worker sets while it
searches.  A worker that dies breaks the pool: its searches answer None, and the next hint
starts a new pool.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings

from config import redis_client
from games.play.hint_worker import _search, _start_worker

log = logging.getLogger(__name__)

# What became of each hint request, per player.  Sent to a worker: "started", then one of
# "searched" (verdict or budget reached), "cancelled" (a move or a newer hint stopped it) or
# "failed" (the worker died, or the search waited too long to start).  Answered without
# a search: "superseded", "over_budget", "queue_full".
COUNTERS = ("started", "searched", "cancelled", "failed", "superseded", "over_budget",
            "queue_full")

# A search that waited this many budgets for a worker is no longer worth starting; the
# request waits that, its budget and the grace (a new worker's start-up) for its answer.
_QUEUE_BUDGETS = 1.0
_GRACE_SECONDS = 5.0


class _Pool:
    def __init__(self, workers: int, slots: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            ctx.set_forkserver_preload(["games.engine.solver", "games.play.hint_pool"])
        self.slots = slots
        self.cancel = ctx.RawArray("b", slots)
        self.busy = ctx.RawArray("b", slots)
        self.free = list(range(slots))
        self.broken = False
        self.watch, self.alive = ctx.Pipe(duplex=False)  # the workers watch for its end
        self.executor = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_start_worker,
                                            initargs=(self.cancel, self.busy, self.watch))

    def close(self, wait: bool) -> None:
        for slot in range(self.slots):
            self.cancel[slot] = 1
        self.executor.shutdown(wait=wait, cancel_futures=True)
        self.alive.close()  # a worker the shutdown missed exits too


@dataclass(eq=False)
class _Job:
    pool: _Pool
    slot: int
    session: str
    player: str
    future: Future[Any] | None = None
    over: bool = False  # under the lock: the slot is free again (maybe someone else's)
    stopped: threading.Event = field(default_factory=threading.Event)


@dataclass(eq=False)
class _Player:
    generation: int = 0  # hint requests so far: the newest one may search
    job: _Job | None = None
    window: int = 0
    used: float = 0.0  # solver seconds in ``window``
    peak: int = 0  # most searches of this player in flight at once
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))


_lock = threading.Lock()
_pool: _Pool | None = None
_pools_started = 0
_players: dict[str, _Player] = {}
_jobs: set[_Job] = set()
_sessions: dict[str, _Job] = {}


def search(game: Any, session_id: object, player_id: object) -> Any:
    """The engine's Hint for ``game`` searched in a worker, or None: no search for this
    request (see the module's docstring), answer it with a plain heuristic."""
    if settings.HINT_WORKERS <= 0:
        return None
    who, sid, budget = str(player_id), str(session_id), settings.HINT_BUDGET_SECONDS
    with _lock:
        p = _player(who)
        p.generation += 1
        mine, prior = p.generation, p.job
        if prior is not None:
            prior.pool.cancel[prior.slot] = 1  # the newer hint replaces it
    if prior is not None:
        prior.stopped.wait(budget * (1 + _QUEUE_BUDGETS) + _GRACE_SECONDS)
    why = "superseded" if p.generation != mine else "over_budget" if _over_budget(who) else ""
    old = None
    with _lock:
        if not why and (p.generation != mine or p.job is not None):
            why = "superseded"
        if not why:
            pool, old = _current_pool()
            why = "" if pool.free else "queue_full"
        if why:
            p.counts[why] += 1
        else:
            job = _Job(pool, pool.free.pop(), sid, who)
            pool.cancel[job.slot] = pool.busy[job.slot] = 0
            p.job = _sessions[sid] = job
            _jobs.add(job)
            p.peak = max(p.peak, sum(j.player == who for j in _jobs))
            p.counts["started"] += 1
    if old is not None:
        old.close(wait=False)
    if why:
        return None
    asked, patience = time.monotonic(), budget * _QUEUE_BUDGETS
    try:
        job.future = pool.executor.submit(_search, job.slot, game, budget, asked, patience)
    except Exception as exc:  # a pool broken since, or shut down
        log.warning("hint search not started: %r", exc)
        _stopped(job, "failed", 0.0, broken=True)
        return None
    job.future.add_done_callback(lambda f: _finished(job, f))
    try:
        found = job.future.result(timeout=patience + budget + _GRACE_SECONDS)
    except TimeoutError:
        with _lock:
            if not job.over:
                job.pool.cancel[job.slot] = 1
        _charge_shared(who, budget)  # it searched that long at most; the rest is waiting
        return None
    except Exception:  # counted and logged by _finished
        found = None
    # Waiters hear of an answer before its callbacks run: let the counts catch up first.
    job.stopped.wait(_GRACE_SECONDS)
    if found is not None:
        _charge_shared(who, found.seconds)
    return found


def cancel(session_id: object) -> None:
    """Stop the session's hint search, if one is running: its player has moved on."""
    key = str(session_id)
    job = _sessions.get(key)  # the usual case, nothing running: no lock taken
    if job is None:
        return
    with _lock:
        if _sessions.get(key) is job and not job.over:
            job.pool.cancel[job.slot] = 1


def stats(player_id: object = None) -> dict[str, Any]:
    """Counters: the player's (COUNTERS, ``in_flight``, ``searching`` -- busy in a worker
    now -- and ``peak``), or the pool's when no player is given."""
    with _lock:
        if player_id is None:
            return {"pools_started": _pools_started, "worker_pids": worker_pids(),
                    "in_flight": len(_jobs),
                    "searching": sum(j.pool.busy[j.slot] for j in _jobs)}
        who = str(player_id)
        p = _players.get(who) or _Player()
        mine = [j for j in _jobs if j.player == who]
        return {**p.counts, "in_flight": len(mine), "peak": p.peak,
                "searching": sum(j.pool.busy[j.slot] for j in mine)}


def worker_pids() -> list[int]:
    """The current pool's worker processes (to watch them, or to test a crash)."""
    pool = _pool
    processes = getattr(pool.executor, "_processes", None) if pool is not None else None
    try:
        return sorted(processes or ())
    except RuntimeError:  # the pool changed size while being read
        return []


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
        _players.clear()
        _sessions.clear()
        _jobs.clear()
        _redis_quiet_until[0] = 0.0
    if pool is not None:
        pool.close(wait=True)


def _player(who: str) -> _Player:
    p = _players.get(who)
    if p is None:
        if len(_players) > 10_000:  # players idle since a past minute are not needed again
            window = _window()
            for k in [k for k, q in _players.items() if q.job is None and q.window < window]:
                del _players[k]
        p = _players[who] = _Player()
    return p


def _current_pool() -> tuple[_Pool, _Pool | None]:
    """The pool to use, and a broken one it replaces (to shut down outside the lock)."""
    global _pool, _pools_started
    old = _pool
    if old is not None and not old.broken and not getattr(old.executor, "_broken", False):
        return old, None
    workers = settings.HINT_WORKERS
    _pool = _Pool(workers, workers + max(0, settings.HINT_QUEUE))
    _pools_started += 1
    return _pool, old


def _finished(job: _Job, future: Future[Any]) -> None:
    try:
        found = future.result()
    except Exception as exc:  # a dead worker breaks the pool; a search's own error does not
        log.warning("hint search failed: %r", exc)
        _stopped(job, "failed", 0.0, broken=isinstance(exc, BrokenProcessPool))
        return
    if found is None:
        _stopped(job, "cancelled" if job.pool.cancel[job.slot] else "failed", 0.0)
    else:
        _stopped(job, "cancelled" if found.cancelled else "searched", found.seconds)


def _stopped(job: _Job, outcome: str, seconds: float, broken: bool = False) -> None:
    with _lock:
        p = _players.get(job.player)
        if p is not None:
            p.counts[outcome] += 1
            if p.job is job:
                p.job = None
            window = _window()
            p.used = (p.used if p.window == window else 0.0) + seconds
            p.window = window
        if _sessions.get(job.session) is job:
            del _sessions[job.session]
        _jobs.discard(job)
        job.pool.free.append(job.slot)
        job.pool.broken = job.pool.broken or broken
        job.over = True
    job.stopped.set()


def _window() -> int:
    return int(time.time() // 60)


def _over_budget(who: str) -> bool:
    limit = settings.HINT_SECONDS_PER_MINUTE
    if limit <= 0:
        return False
    window = _window()
    with _lock:
        p = _players.get(who)
        used = p.used if p is not None and p.window == window else 0.0
    if used < limit:
        shared = _redis(lambda r: r.get(_key(who, window)))
        used = max(used, int(shared) / 1000 if shared is not None else 0.0)
    return used >= limit


def _charge_shared(who: str, seconds: float) -> None:
    key = _key(who, _window())

    def charge(r: redis.Redis) -> None:
        # One round trip, no MULTI: a lost EXPIRE only leaves a past minute's key behind.
        pipe = r.pipeline(transaction=False)
        pipe.incrby(key, int(seconds * 1000))
        pipe.expire(key, 61)
        pipe.execute()

    _redis(charge)


def _key(who: str, window: int) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:hint-ms:{who}:{window}"


_redis_quiet_until = [0.0]


def _redis(call: Any) -> Any:
    """``call(client)``, or None without Redis: after a failure Redis is left alone for a
    while, so an outage costs the hints no timeouts."""
    url = settings.REDIS_URL
    if not url or time.monotonic() < _redis_quiet_until[0]:
        return None
    try:
        return call(_client())
    except redis.RedisError as exc:
        _redis_quiet_until[0] = time.monotonic() + 10.0
        log.warning("hint budget counted in this process only, Redis unavailable: %s", exc)
        return None


def _client() -> redis.Redis:
    return redis_client.client(timeout=0.5)
