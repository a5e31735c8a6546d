"""How the full-knowledge Klondike solver spends its budget: which searches, in what order.

Wins are heavy-tailed: one search order finds a deal's win in a few hundred states where
another wanders for a million, and which order suits which deal is not known in advance.
So the budget goes to many short runs rather than one long one:

* first the fixed narrow runs of :attr:`KlondikeDomain.schedule`, which settle most deals;
* then *restarts*: narrow runs with weights jittered around a few good sets and a little
  random noise added to the heuristic, each capped at a number of states that follows the
  Luby sequence (1 1 2 1 1 2 4 ...) times a unit, so that short runs are many and long
  ones still come now and then;
* last the full search with what is left, the only run that may prove a deal lost.

The random choices come from a generator seeded by the deal itself, and the caps count
states, not seconds, so a deal gets the same runs -- and the same answer, budget
permitting -- every time.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

from .search import SOLVED, UNKNOWN, UNSOLVABLE, BestFirst, Budget, Result, best_first

if TYPE_CHECKING:
    from .klondike import KlondikeDomain

# (restricted, eager, weights, noise, states): one best-first run.
Run = tuple[bool, bool, tuple[int, ...], int, int]

# Drawing three: the fixed narrow runs (eager, weights, states) that come first.
DRAW3_SCHEDULE = (
    (False, (5, 2, 1), 8_000),
    (True, (2, 1, 1), 50_000),
    (False, (5, 2, 1, 0, 3, 1), 50_000),
    (True, (5, 2, 1, 0, 3, 1), 40_000),
)

# Weight sets the restarts jitter around (see KlondikeDomain.heuristic for the terms).
_BASES: tuple[tuple[int, ...], ...] = (
    (5, 2, 1, 0, 0, 0, 0),
    (2, 1, 1, 0, 0, 0, 0),
    (5, 2, 1, 0, 3, 1, 0),
    (4, 1, 2, 1, 2, 1, 0),
    (6, 3, 1, 0, 1, 2, 0),
    (5, 2, 1, 0, 2, 1, 1),
    (3, 1, 1, 0, 1, 0, 1),
)


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    k = i.bit_length()
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


def deal_rng(state: Any) -> random.Random:
    """A generator seeded by the position (not by Python's salted ``hash``)."""
    cols, downs, talon = state[0], state[1], state[2]
    return random.Random(zlib.crc32(b"|".join((*cols, bytes(downs), talon))))


def restarts(rng: random.Random, unit: int, full: float) -> Iterator[Run]:
    """Runs with jittered weights and noise, capped by ``unit`` times Luby's terms; a
    share ``full`` of them in the full space (some wins split a run or take a card back
    down), the others narrow, half of those eager."""
    i = 0
    while True:
        i += 1
        base = rng.choice(_BASES)
        w = tuple(max(0, x + rng.choice((-1, 0, 0, 1))) for x in base)
        if not w[0]:
            w = (1, *w[1:])  # face-down cards always count: turning them is the game
        mode = rng.random()
        narrow = mode >= full
        eager = narrow and mode < full + (1 - full) / 2
        yield narrow, eager, w, rng.choice((0, 8, 24)), unit * luby(i)


def run(domain: KlondikeDomain, budget: Budget) -> Result:
    """The narrow searches of ``domain.schedule``, then restarts until the narrow share of
    the budget is spent, then the full search with what is left (only it can prove a
    deal lost)."""
    d = domain
    t0 = budget.clock()
    states = 0
    fixed = ((True, e, w, 0, cap) for e, w, cap in d.schedule)
    rng = deal_rng(d.initial())
    if d.dead_at_start:  # blocked for good (see :mod:`.klondike_dead`)
        return Result(UNSOLVABLE, [], 1, budget.clock() - t0)
    runs = chain(fixed, restarts(rng, d.restart_unit, d.restart_full))
    dry: set[bool] = set()  # eager or not: narrow spaces a run has exhausted
    proof: BestFirst | None = None  # the one full search, resumed in its turns
    try:
        # The narrow searches leave the full one a part of the budget for its proofs.
        narrow_end = budget.seconds * (1 - d.full_share)
        for restricted, eager, w, noise, cap in runs:
            left = narrow_end - (budget.clock() - t0)
            if left <= 0 or len(dry) == 2:
                break
            if restricted and eager in dry:  # other weights: the same space again
                continue
            if not restricted:
                # A restart's turn in the full space goes to the one full search, which
                # goes on from where it stopped: the only way a lost deal's whole space
                # is ever seen within the budget.
                d.set_full()
                proof = proof or BestFirst(d)
                before = len(proof.seen)
                r = proof.run(budget.sub(left, min(before + cap, budget.states)))
                states += r.states - before
                if r.status != UNKNOWN or r.cancelled:
                    r.states, r.seconds = states, budget.clock() - t0
                    return r
                continue
            d.restricted, d.eager, d.weights = restricted, eager, w
            d.noise, d._rand = noise, random.Random(rng.getrandbits(32)).random
            r = best_first(d, budget.sub(left, min(cap, budget.states)))
            states += r.states
            if r.status == SOLVED or r.cancelled:
                r.states, r.seconds = states, budget.clock() - t0
                return r
            if r.status == UNSOLVABLE:
                dry.add(eager)
    finally:
        d.set_full()
    proof = proof or BestFirst(d)
    before = len(proof.seen)
    left = budget.seconds - (budget.clock() - t0)
    full = proof.run(budget.sub(left))
    full.states += states - before
    full.seconds = budget.clock() - t0
    return full
