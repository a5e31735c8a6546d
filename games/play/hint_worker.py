"""The worker side of the hint pool (``hint_pool``): the worker processes, and what runs in
each.  Nothing here imports Django; the pool hands each worker its shared cancel and busy
bytes and a pipe that ends with the server."""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games.engine.solver import Budget, hint

_cancel: Any = None
_busy: Any = None


class SlotFlag:
    """The engine's cancel flag (``is_set``), read from a byte another process writes."""

    __slots__ = ("array", "slot")

    def __init__(self, array: Any, slot: int) -> None:
        self.array, self.slot = array, slot

    def is_set(self) -> bool:
        return bool(self.array[self.slot])


class WorkerPool:
    """The worker processes and their slots in shared memory: per slot, a cancel byte the
    server sets and a busy byte the worker sets while it searches."""

    def __init__(self, workers: int, slots: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            ctx.set_forkserver_preload(["games.engine.solver", "games.play.hint_worker"])
        self.workers, self.slots = workers, slots
        self.cancel = ctx.RawArray("b", slots)
        self.busy = ctx.RawArray("b", slots)
        self.free = list(range(slots))
        self.broken = False
        self.watch, self.alive = ctx.Pipe(duplex=False)  # the workers watch for its end
        self.executor = ProcessPoolExecutor(
            workers,
            mp_context=ctx,
            initializer=_start_worker,
            initargs=(self.cancel, self.busy, self.watch),
        )

    def close(self, wait: bool) -> None:
        for slot in range(self.slots):
            self.cancel[slot] = 1
        self.executor.shutdown(wait=wait, cancel_futures=True)
        self.alive.close()  # a worker the shutdown missed exits too

    def pids(self) -> list[int]:
        """The worker processes started so far."""
        processes = getattr(self.executor, "_processes", None)
        try:
            return sorted(processes or ())
        except RuntimeError:  # the pool changed size while being read
            return []


def _start_worker(cancel: Any, busy: Any, server: Any) -> None:
    global _cancel, _busy
    _cancel, _busy = cancel, busy
    if hasattr(os, "nice"):
        # The server, PostgreSQL and Redis may share these cores: a search is the work
        # that can best wait.
        os.nice(10)
    threading.Thread(target=_exit_with_server, args=(server,), daemon=True).start()


def watch_server(server: Any) -> None:
    """A worker's start (the dead-end verdicts' pool too): it leaves with the server."""
    threading.Thread(target=_exit_with_server, args=(server,), daemon=True).start()


def _exit_with_server(server: Any) -> None:
    # The pool stops its workers when it shuts down; a server killed outright cannot, and
    # its workers would wait for work forever.  Nothing is ever sent on this pipe: it ends
    # when the server's end closes, with the server.  (Not the parent's pid: under
    # forkserver the parent is the fork server, which lives as long as its children.)
    try:
        server.recv()
    except (EOFError, OSError):
        pass
    os._exit(0)


def _search(slot: int, game: Any, lines: list[list[str]], seconds: float) -> Any:
    """One hint: the engine's Hint (only that goes back, never the table), or None when it
    was cancelled before it began."""
    flag = SlotFlag(_cancel, slot)
    if flag.is_set():
        return None
    _busy[slot] = 1
    try:
        return hint(game, Budget(seconds, cancel=flag), lines)
    finally:
        _busy[slot] = 0
