"""Depth-first search, one of the searches of a race (:func:`.search.portfolio`), and the
shortening of the lines it finds.

Best-first searches fail on some deals for the same reason: their heuristic ranks the
winning line's positions below a large region that leads nowhere.  A depth-first search
fails elsewhere: it follows the best-looking child all the way down and only backs up from
a dead end, so it is not held back by a bad region it has already entered, and a deal
with many winning lines is won on the first dive.  On FreeCell deal 1464 it needs 765
states where the best-first searches need 200,000 or more.  Children are tried best
heuristic first.

Every position enters the table once and is expanded once, so a stack that runs dry has
seen every reachable position: a proof, as in :class:`.search.BestFirst`.

A depth-first line wanders (deal 6182: 809 moves, against 181 for the best-first line),
and a line is a hint and a deal's par, so a won line is shortened before it is given:
wherever a position of the line reaches a later one of the line in fewer moves than the
line takes, the line takes the short way (:func:`shorten`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
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

# node: (state, parent node, edge that led here)
Node = tuple[Any, Any, Any]
# How many moves a shortcut may take: two find almost all of what three find (deal 6182:
# 809 moves to 233 with two, 172 with three) at a fifth of the cost.
REACH: Final = 2


class DepthFirst:
    """Depth-first with one table of positions seen; children best heuristic first."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self.start = start = domain.initial()
        self.seen: set[Hashable] = {domain.key(start)}
        # The children of each position on the current line not tried yet, best last.
        self.stack: list[list[Node]] = [[(start, None, ())]]
        self.expansions = 0
        self.final: Result | None = opening(domain, start)  # see search.BestFirst
        self.line: list[Any] = []  # the edges of the winning line, once found

    def run(self, budget: Budget) -> Result:
        if self.final is not None:
            return again(self.final, len(self.seen))
        return collector_paused(self._run, budget)

    def _run(self, budget: Budget) -> Result:
        clock = budget.clock
        t0 = clock()
        domain = self.domain
        deadline = t0 + budget.seconds
        seen, stack = self.seen, self.stack
        key, successors, heuristic, is_won = (
            domain.key,
            domain.successors,
            domain.heuristic,
            domain.is_won,
        )
        while stack:
            todo = stack[-1]
            if not todo:
                stack.pop()
                continue
            if budget.cancel is not None and budget.cancel.is_set():
                return Result(UNKNOWN, [], len(seen), clock() - t0, cancelled=True)
            self.expansions += 1
            if self.expansions % _CLOCK_EVERY == 0:
                now = clock()
                if now > deadline or len(seen) > budget.states:
                    return Result(UNKNOWN, [], len(seen), now - t0)
            node = todo.pop()
            children: list[tuple[int, int, Node]] = []
            for edge, child in successors(node[0]):
                k = key(child)
                if k in seen:
                    continue
                seen.add(k)
                cnode = (child, node, edge)
                if is_won(child):
                    path = self.line = shorten(domain, self.start, _path(cnode))
                    self.final = Result(SOLVED, domain.tokens(path), len(seen), first=path[0])
                    return Result(
                        SOLVED, list(self.final.moves), len(seen), clock() - t0, first=path[0]
                    )
                children.append((heuristic(child), len(children), cnode))
            # Best last, so it is popped first; among equals the first generated.
            children.sort(key=_worst_first)
            stack.append([c[2] for c in children])
        self.final = Result(UNSOLVABLE, [], len(seen))
        return Result(UNSOLVABLE, [], len(seen), clock() - t0)


def _worst_first(c: tuple[int, int, Node]) -> tuple[int, int]:
    return (-c[0], -c[1])


def _path(node: Node) -> list[Any]:
    edges: list[Any] = []
    while node[1] is not None:
        edges.append(node[2])
        node = node[1]
    edges.reverse()
    return edges


def shorten(domain: Domain, start: Any, path: Sequence[Any]) -> list[Any]:
    """``path`` (edges from ``start``) with every detour that a shortcut of up to
    :data:`REACH` moves skips taken out, until none is left.

    A shortcut must land on a later position of the line exactly (not only one the table
    counts as the same, such as the same columns in another order), so the rest of the
    line's edges still apply from it.  The line ends where it ended: won."""
    states = [start]
    for edge in path:
        states.append(next(c for e, c in domain.successors(states[-1]) if e == edge))
    edges = list(path)
    changed = True
    while changed:
        changed = False
        at = {s: i for i, s in enumerate(states)}
        new_states: list[Any] = [start]
        new_edges: list[Any] = []
        i, last = 0, len(states) - 1
        while i < last:
            # By default the line's own move: no gain, to the next position, by that edge.
            gain, to, via = 0, i + 1, [edges[i]]
            mid: list[Any] = []  # the positions a shortcut passes on its way
            for e1, c1 in domain.successors(states[i]):
                k = at.get(c1, -1)
                if k - i - 1 > gain:
                    gain, to, via, mid = k - i - 1, k, [e1], []
                if REACH > 1:
                    for e2, c2 in domain.successors(c1):
                        k = at.get(c2, -1)
                        if k - i - 2 > gain:
                            gain, to, via, mid = k - i - 2, k, [e1, e2], [c1]
            if gain:
                changed = True
            new_edges.extend(via)
            new_states.extend(mid)
            new_states.append(states[to])
            i = to
        states, edges = new_states, new_edges
    return edges
