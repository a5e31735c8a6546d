"""The one search framework every game's solver plugs into.

A game supplies a *domain*: a compact, hashable state, a canonical key for the
transposition table, the successors of a state (each edge is a short tuple of engine
moves: the move itself plus the safe automatic moves that follow it), a heuristic and a
win test.  The framework runs a greedy best-first search over it:

* best-first, because a good heuristic finds a winning line after a few hundred
  expansions where depth-first search wanders;
* every state enters the transposition table once, so when the frontier runs dry the
  whole reachable space has been seen and "unsolvable" is a proof -- provided the domain
  only prunes moves that provably cannot help (each domain says which it prunes, and why);
* the budget (seconds and states) and a cancel flag are checked at every expansion, so a
  player's move stops a hint search within a few milliseconds.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..piles import Move

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"

# How often (in expansions) the clock is read: reading it costs about as much as a
# cheap expansion, and 16 expansions take well under the 50 ms a cancel may wait.
_CLOCK_EVERY = 16

# The cyclic garbage collector, paused while any search runs in this process.  A search
# makes hundreds of thousands of tuples that form no cycle (a node points to its parent,
# never back), and the collector's passes over them, ever longer as the tables grow, took a
# tenth to a sixth of a search's time (compiled: deal 11982's proof 1.13-1.60 s with it,
# 0.98-1.32 without; deals 1-100 1.59-1.88 and 1.27-1.63).  Reference counting still frees
# everything a search drops.  Counted, so that searches in several threads at once leave
# the collector as they found it when the last one ends.
_paused = [0, False]  # searches running; whether the collector was on before the first
_paused_lock = threading.Lock()


def pause_collector() -> None:
    with _paused_lock:
        if _paused[0] == 0:
            _paused[1] = gc.isenabled()
            gc.disable()
        _paused[0] += 1


def resume_collector() -> None:
    with _paused_lock:
        _paused[0] -= 1
        if _paused[0] == 0 and _paused[1]:
            gc.enable()


def replay_tokens(
    game: Any, initial_moves: tuple[Move, ...], path: list[tuple[Move, ...]]
) -> list[str]:
    """The tokens of a found line: ``initial_moves`` then each edge of ``path``, played on a
    copy of ``game`` (a token is written on the table it is played from)."""
    g = game.copy()
    out: list[str] = []
    for edge in [initial_moves, *path]:
        for m in edge:
            out.append(g.notation(m))
            g.apply(m)
    return out


class Domain(Protocol):
    """What a game's solver provides to the framework."""

    def initial(self) -> Any: ...

    def key(self, state: Any) -> Hashable: ...

    def successors(self, state: Any) -> Sequence[tuple[tuple[Move, ...], Any]]: ...

    def heuristic(self, state: Any) -> int: ...

    def is_won(self, state: Any) -> bool: ...

    def tokens(self, path: list[tuple[Move, ...]]) -> list[str]: ...


class Cancelled(Exception):
    """Raised inside a search when its cancel flag is set."""


class CancelFlag(Protocol):
    """What stops a search: a ``threading.Event``, or a flag shared with another process
    (the site's hint pool)."""

    def is_set(self) -> bool: ...


@dataclass
class Budget:
    """Limits of one search: wall-clock seconds, states stored, and a cancel flag that
    another thread (the player's next move) may set at any time."""

    seconds: float = 10.0
    states: int = 3_000_000
    cancel: CancelFlag | None = None
    progress: Callable[[int, float], None] | None = None  # (states, seconds) now and then
    # The clock the seconds are counted on: wall time for players; a sweep on a shared
    # machine may count its own CPU time instead (time.process_time) to be fair to itself.
    clock: Callable[[], float] = time.monotonic

    def sub(self, seconds: float, states: int | None = None) -> Budget:
        """A budget for one part of a search: same cancel flag, progress and clock."""
        return Budget(
            max(seconds, 0.0),
            self.states if states is None else states,
            self.cancel,
            self.progress,
            self.clock,
        )

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()


@dataclass
class Result:
    status: str  # SOLVED, UNSOLVABLE or UNKNOWN
    moves: list[str] = field(default_factory=list)  # in the game's notation
    states: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    first: tuple[Move, ...] = ()  # the first edge of the line found (hints use it)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED


def opening(domain: Domain, start: Any) -> Result | None:
    """The verdict a search has before any expansion: won at the start, or the domain's own
    proof that the start is dead; None when the search must look."""
    if domain.is_won(start):
        return Result(SOLVED, domain.tokens([]), 1)
    if getattr(domain, "dead_at_start", False):  # a domain's own proof, first
        return Result(UNSOLVABLE, [], 1)
    return None


def again(final: Result, states: int) -> Result:
    """A verdict reached earlier, as a search run again after it gives it."""
    return Result(final.status, list(final.moves), states, 0.0, first=final.first)


def collector_paused(run: Callable[[Budget], Result], budget: Budget) -> Result:
    """``run(budget)`` with the cyclic collector paused (``pause_collector``).  Each search
    class calls this from its ``run`` (mypyc compiles the searches one module at a time, so
    they share functions rather than a base class)."""
    pause_collector()
    try:
        return run(budget)
    finally:
        resume_collector()


def best_first(domain: Domain, budget: Budget) -> Result:
    """Greedy best-first search with a transposition table on the canonical key."""
    return BestFirst(domain).run(budget)


class BestFirst:
    """A best-first search that stops when its budget runs out and may go on later from
    where it stopped (:meth:`run` again, with the domain's weights as they were), so a
    portfolio that comes back to a heuristic does not explore its first states twice.
    The states cap of a budget counts every state this search has stored so far."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self.start = start = domain.initial()
        # node = (state, parent node, edge that led here); the path is rebuilt from it.
        root: tuple[Any, Any, tuple[Move, ...]] = (start, None, ())
        self.seen: set[Hashable] = {domain.key(start)}
        self.heap: list[tuple[int, int, Any]] = [(domain.heuristic(start), 0, root)]
        self.counter = 0
        self.expansions = 0
        # A verdict reached: running again repeats it.
        self.final: Result | None = opening(domain, start)
        self.line: list[tuple[Move, ...]] = []  # the edges of the winning line, once found

    def run(self, budget: Budget) -> Result:
        if self.final is not None:
            return again(self.final, len(self.seen))
        return collector_paused(self._run, budget)

    def _run(self, budget: Budget) -> Result:
        clock = budget.clock
        t0 = clock()
        domain = self.domain
        deadline = t0 + budget.seconds
        seen, heap = self.seen, self.heap
        counter = self.counter
        expansions = self.expansions
        cancel = budget.cancel
        max_states = budget.states
        key, successors, heuristic, is_won = (
            domain.key,
            domain.successors,
            domain.heuristic,
            domain.is_won,
        )
        push, pop = heapq.heappush, heapq.heappop
        try:
            while heap:
                expansions += 1
                if cancel is not None and cancel.is_set():
                    return Result(UNKNOWN, [], len(seen), clock() - t0, cancelled=True)
                if expansions % _CLOCK_EVERY == 0:
                    now = clock()
                    if now > deadline or len(seen) > max_states:
                        return Result(UNKNOWN, [], len(seen), now - t0)
                    if budget.progress is not None and expansions % 4096 == 0:
                        budget.progress(len(seen), now - t0)
                node = pop(heap)[2]
                for edge, child in successors(node[0]):
                    k = key(child)
                    if k in seen:
                        continue
                    seen.add(k)
                    cnode = (child, node, edge)
                    if is_won(child):
                        path = self.line = _path(cnode)
                        self.final = Result(SOLVED, domain.tokens(path), len(seen), first=path[0])
                        return Result(
                            SOLVED, list(self.final.moves), len(seen), clock() - t0, first=path[0]
                        )
                    counter -= 1  # ties go to the newest node: a dive, not a sweep
                    push(heap, (heuristic(child), counter, cnode))
        finally:
            self.counter, self.expansions = counter, expansions
        self.final = Result(UNSOLVABLE, [], len(seen))
        return Result(UNSOLVABLE, [], len(seen), clock() - t0)


def _path(node: Any) -> list[tuple[Move, ...]]:
    edges: list[tuple[Move, ...]] = []
    while node[1] is not None:
        edges.append(node[2])
        node = node[1]
    edges.reverse()
    return edges


def portfolio(domain: Domain, budget: Budget, schedule: Sequence[tuple[Any, int]]) -> Result:
    """Best-first runs with different heuristic weights, each stopped after its cap of
    states, then a last run with the first weights and the whole budget left.

    One heuristic solves most deals in a few thousand states but now and then dives into a
    hopeless region for a million; another set of weights rarely fails on the same deal.
    Short restarts cut that tail.  A capped run that exhausts the space before its cap is
    a proof like any other, so small lost positions are still proven at once.  A run whose
    weights come again later is kept and goes on from where it stopped.
    """
    t0 = budget.clock()
    states = 0
    kept: dict[Any, BestFirst] = {}
    for n, (w, cap) in enumerate(schedule):
        left = budget.seconds - (budget.clock() - t0)
        if left <= 0:
            break
        domain.weights = w  # type: ignore[attr-defined]
        search = kept.pop(w) if w in kept else BestFirst(domain)
        before = len(search.seen) if search.expansions else 0
        r = search.run(budget.sub(left, min(cap, budget.states)))
        states += r.states - before
        if r.status != UNKNOWN or r.cancelled:
            r.states, r.seconds = states, budget.clock() - t0
            return r
        if n == 0 or any(w == w2 for w2, _ in schedule[n + 1 :]):
            kept[w] = search
    w = schedule[0][0]
    domain.weights = w  # type: ignore[attr-defined]
    search = kept.pop(w) if w in kept else BestFirst(domain)
    kept.clear()
    before = len(search.seen) if search.expansions else 0
    left = max(budget.seconds - (budget.clock() - t0), 0.0)
    r = search.run(budget.sub(left))
    r.states, r.seconds = r.states - before + states, budget.clock() - t0
    return r


def disorder(column: bytes) -> int:
    """Cards lying above a lower card of the same column: each must move before the lower
    one can go up (a heuristic term shared by every game's solver)."""
    low = 99
    n = 0
    for x in column:
        r = x >> 2
        if r > low:
            n += 1
        elif r < low:
            low = r
    return n
