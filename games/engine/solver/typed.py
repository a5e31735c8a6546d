"""Best-first search with type-based exploration, one of the searches of a race
(:func:`.search.portfolio`).

A greedy best-first search sometimes meets a region where its heuristic says nothing
useful: the positions it must go through to win all score worse than thousands of
positions that lead nowhere, and it expands every one of those first.  On FreeCell deal
8436 the best-first search with the first weights needs 206,000 states, because the
winning line climbs 20 points above its best score before it comes down.

Type-based exploration (Xie, Mueller, Holte and Imai, "Type-Based Exploration with
Multiple Search Queues for Satisficing Planning", AAAI 2014) spends every other expansion
elsewhere: it groups the open positions by type -- here the pair (heuristic, depth) -- and
expands a random position of a random type.  Types the heuristic ranks badly are visited
as often as the good ones, so a line through a bad region is followed a little at a time
instead of only after the whole good region is exhausted.  Half of the expansions still go
to the best position.

Every position still enters the table once and is expanded once, so a frontier that runs
dry is a proof exactly as in :class:`.search.BestFirst`.  The random choices come from a
generator seeded per search, and the nth choice is the same however the search is cut
into runs, so a search is the same whether it runs at once or in turns.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Hashable
from typing import Any, Final

from .search import (
    _CLOCK_EVERY,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    Budget,
    Domain,
    Result,
    again,
    collector_paused,
    opening,
)

# node: [state, parent node, edge that led here, depth, expanded]
_STATE: Final = 0
_PARENT: Final = 1
_EDGE: Final = 2
_DEPTH: Final = 3
_DONE: Final = 4
# A type's int: the heuristic above the depth (no line is 2**20 moves long; a negative
# heuristic keeps the pair apart all the same).
_DEPTH_BITS: Final = 20


class TypedBestFirst:
    """Best-first, and every other expansion a random position of a random type."""

    def __init__(self, domain: Domain, seed: int = 0) -> None:
        self.domain = domain
        start = domain.initial()
        root: list[Any] = [start, None, (), 0, False]
        self.seen: set[Hashable] = {domain.key(start)}
        self.heap: list[tuple[int, int, list[Any]]] = [(domain.heuristic(start), 0, root)]
        # A type is one int, heuristic and depth together (an int hashes faster than a
        # pair): the types with open positions, in a list to draw from at random.
        self.types: list[int] = []
        self.buckets: dict[int, list[list[Any]]] = {}
        self.random = random.Random(seed)
        self.counter = 0
        self.expansions = 0
        self.picks = 0  # positions taken so far: every other one comes from a type
        self.final: Result | None = opening(domain, start)  # see search.BestFirst
        self.line: list[Any] = []  # the edges of the winning line, once found

    def _typed(self) -> list[Any] | None:
        """A random open position of a random type (positions expanded meanwhile from the
        heap are dropped as they are met)."""
        types, buckets, rnd = self.types, self.buckets, self.random.random
        while types:
            i = int(rnd() * len(types))  # randrange's checks cost more than the draw
            t = types[i]
            bucket = buckets[t]
            while bucket:
                j = int(rnd() * len(bucket))
                bucket[j], bucket[-1] = bucket[-1], bucket[j]
                node = bucket.pop()
                if not node[_DONE]:
                    if not bucket:
                        self._drop_type(i, t)
                    return node
            self._drop_type(i, t)
        return None

    def _drop_type(self, i: int, t: int) -> None:
        types = self.types
        types[i] = types[-1]
        types.pop()
        del self.buckets[t]

    def _best(self) -> list[Any] | None:
        heap = self.heap
        while heap:
            node = heapq.heappop(heap)[2]
            if not node[_DONE]:
                return node
        return None

    def run(self, budget: Budget) -> Result:
        if self.final is not None:
            return again(self.final, len(self.seen))
        return collector_paused(self._run, budget)

    def _run(self, budget: Budget) -> Result:
        clock = budget.clock
        t0 = clock()
        domain = self.domain
        deadline = t0 + budget.seconds
        seen, heap, buckets, types = self.seen, self.heap, self.buckets, self.types
        key, successors, heuristic, is_won = (
            domain.key,
            domain.successors,
            domain.heuristic,
            domain.is_won,
        )
        push = heapq.heappush
        while True:
            if budget.cancel is not None and budget.cancel.is_set():
                return Result(UNKNOWN, [], len(seen), clock() - t0, cancelled=True)
            self.expansions += 1
            if self.expansions % _CLOCK_EVERY == 0:
                now = clock()
                if now > deadline or len(seen) > budget.states:
                    return Result(UNKNOWN, [], len(seen), now - t0)
            self.picks += 1
            node = self._typed() if self.picks % 2 == 0 else None
            if node is None:
                node = self._best()
            if node is None:
                break
            node[_DONE] = True
            depth = node[_DEPTH] + 1
            for edge, child in successors(node[_STATE]):
                k = key(child)
                if k in seen:
                    continue
                seen.add(k)
                cnode: list[Any] = [child, node, edge, depth, False]
                if is_won(child):
                    path = self.line = _path(cnode)
                    self.final = Result(SOLVED, domain.tokens(path), len(seen), first=path[0])
                    return Result(
                        SOLVED, list(self.final.moves), len(seen), clock() - t0, first=path[0]
                    )
                self.counter -= 1  # ties go to the newest node, as in BestFirst
                h = heuristic(child)
                push(heap, (h, self.counter, cnode))
                t = (h << _DEPTH_BITS) | depth
                bucket = buckets.get(t)
                if bucket is None:
                    buckets[t] = [cnode]
                    types.append(t)
                else:
                    bucket.append(cnode)
        self.final = Result(UNSOLVABLE, [], len(seen))
        return Result(UNSOLVABLE, [], len(seen), clock() - t0)


def _path(node: list[Any]) -> list[Any]:
    edges: list[Any] = []
    while node[_PARENT] is not None:
        edges.append(node[_EDGE])
        node = node[_PARENT]
    edges.reverse()
    return edges
