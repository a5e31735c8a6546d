"""A race of different searches in turns: how the FreeCell solver spends its budget.

First the short capped runs of a schedule, as in :func:`.search.portfolio`: most deals are
won by one of them within a few thousand states.  Then the race: a few searches of
different kinds take turns of a few thousand states each, every one going on from where
its last turn stopped, until one wins or one has seen every reachable position (a proof:
every search here only proves what it has exhausted).

Why a race rather than one search after another: each kind of search has its own rare
deals that cost it hundreds of thousands of states, and they are not the same deals.  Run
one after the other, a deal pays in full for every search that fails on it before the one
that wins; run in turns, it pays at most the winner's cost once per search in the race.
On Microsoft deals 1-10000 the slowest deal went from 1,006,000 states (eight best-first
runs one after the other, 100,000 states each) to 267,000, and the deals in all from 19.2
to 16.1 million states (bench/freecell_sweep.py).  A proof costs more: every search in the
race spends its share until one has seen everything (deal 11982: 94,000 states, against
71,000 before), which is why the search a proof waits for gets the larger share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .depth_first import DepthFirst
from .search import UNKNOWN, BestFirst, Budget, Domain, Result
from .typed import TypedBestFirst

BEST, TYPED, DEPTH = "best", "typed", "depth"
# (kind, weights, share of each turn)
Entry = tuple[str, Any, int]


def race(
    domain: Domain,
    budget: Budget,
    schedule: Sequence[tuple[Any, int]],
    entries: Sequence[Entry],
    turn: int = 2_000,
) -> Result:
    """The schedule's best-first runs, each up to its cap of states; then the ``entries``
    in turns of ``turn`` times their share of states until one decides.  An entry whose kind
    and weights ran in the schedule goes on from there.  ``budget.states`` caps the states
    of all the searches together."""
    if not entries:
        raise ValueError("a race needs at least one search")
    t0 = budget.clock()
    spent = 0
    runs: dict[tuple[str, Any], Any] = {}

    def advance(kind: str, weights: Any, more: int) -> Result | None:
        nonlocal spent
        left = budget.seconds - (budget.clock() - t0)
        if left <= 0 or spent >= budget.states:
            return Result(UNKNOWN, [], spent, budget.clock() - t0)
        domain.weights = weights  # type: ignore[attr-defined]
        search = runs.get((kind, weights))
        if search is None:
            search = runs[kind, weights] = _new(kind, domain)
        before = len(search.seen) if search.expansions else 0
        cap = before + min(more, budget.states - spent)
        r: Result = search.run(budget.sub(left, cap))
        spent += r.states - before
        if r.status != UNKNOWN or r.cancelled:
            r.states, r.seconds = spent, budget.clock() - t0
            return r
        return None

    for weights, cap in schedule:
        found = advance(BEST, weights, cap)
        if found is not None:
            return found
    while True:
        for kind, weights, share in entries:
            found = advance(kind, weights, turn * share)
            if found is not None:
                return found


def _new(kind: str, domain: Domain) -> Any:
    if kind == BEST:
        return BestFirst(domain)
    if kind == TYPED:
        return TypedBestFirst(domain)
    if kind == DEPTH:
        return DepthFirst(domain)
    raise ValueError(f"no search of kind {kind!r}")
