"""Hints for a game that hides cards, while a card is hidden: Monte-Carlo sampling with
hindsight, blind to every card the player has not seen.

The player knows the face-up cards, the waste, the foundations, how many cards are face
down and in the stock, and every stock card turned before (it lay on the waste: the stock
keeps its order, so where it lies is known too) -- not the others.  So the hint deals the
unseen cards again at random into their places (a *sample*), searches each sample with
every card known (the game's own solver domain, a few hundred positions), and advises the
first move that wins in the most samples; when the samples do not settle it, the move
whose searches got furthest.  The random generator is seeded from what the player sees
and the searches are bounded by positions, not by the clock, so two tables that look the
same, on the same path, get the same hint whatever lies under them.

A sample's win is no proof about the real deal, so these hints never claim a winning line
while cards are hidden.  Once nothing is hidden the position is solved for real
(:mod:`.hint`).  Like every hint, a move back to a position of the game's path is never
advised (:mod:`.hinting`): the samples' first steps leave those out.
"""

from __future__ import annotations

import hashlib
import heapq
import random
from collections import Counter
from typing import Any

from ..cards import Card
from ..game import Game
from ..piles import FOUNDATION
from .hinting import AvoidPath, Hint, best_first_step, plain_move, seen_key
from .registry import solver_for
from .search import UNKNOWN, Budget, pause_collector, resume_collector

SAMPLES = 8  # at most; fewer when the first ones settle the hint
SAMPLE_STATES = 600  # positions each sample's search may store


def hidden_cards(game: Game, known: set[Card] | frozenset[Card] = frozenset()) -> list[Card]:
    """The cards the player has not seen (face down, or in the stock and not in
    ``known``), sorted: a list that says nothing of where they lie."""
    cards = [c for i, p in enumerate(game.tab) for c in p[: game.down[i]]]
    return sorted(cards + [c for c in game.stock if c not in known])


def sample(
    game: Game, rng: random.Random, known: set[Card] | frozenset[Card] = frozenset()
) -> Game:
    """``game`` with its unseen cards dealt again at random into their places (stock cards
    in ``known`` stay where they are)."""
    g = game.copy()
    cards = hidden_cards(game, known)
    rng.shuffle(cards)
    k = 0
    for i, p in enumerate(g.tab):
        d = g.down[i]
        p[:d] = cards[k : k + d]
        k += d
    for j, c in enumerate(g.stock):
        if c not in known:
            g.stock[j] = cards[k]
            k += 1
    return g


def visible_fingerprint(game: Game, known: set[Card] | frozenset[Card] = frozenset()) -> int:
    """A number from what the player can see (the seed of the samples)."""
    stock = bytes(c if c in known else 52 for c in game.stock)
    digest = hashlib.sha256(seen_key(game) + b"|" + stock).digest()
    return int.from_bytes(digest[:8], "big")


def sampled_hint(game: Game, budget: Budget, seen: set[bytes], known: set[Card]) -> Hint:
    """The hint from samples: ``seen`` is the path (``hinting.walk_back``), ``known`` the
    stock cards turned before."""
    clock = budget.clock
    t0 = clock()
    rng = random.Random(visible_fingerprint(game, known))
    wins: Counter[str] = Counter()
    reach: Counter[str] = Counter()  # samples with no win: whose searches got furthest
    checked: dict[tuple[str, ...], bool] = {}
    first: AvoidPath | None = None
    cancelled = False
    pause_collector()
    try:
        for done in range(SAMPLES):
            if _decided(wins, SAMPLES - done):
                break  # the samples left could not change the answer: the same hint, sooner
            if budget.cancelled():
                cancelled = True
                break
            if clock() - t0 > budget.seconds:
                break
            dom = _domain(sample(game, rng, known), seen, checked)
            first = first or dom
            won, best = _search(dom, SAMPLE_STATES, t0 + budget.seconds, budget)
            if won is not None:
                wins[won] += 1
            else:
                for token in best:
                    reach[token] += 1
    finally:
        resume_collector()
    move: str | None
    if wins or reach:
        move = min(set(wins) | set(reach), key=lambda m: (-wins[m], -reach[m], m))
    else:
        move = (best_first_step(first) if first is not None else None) or plain_move(game, seen)
    return Hint(move, UNKNOWN, [], clock() - t0, cancelled)


def _domain(g: Game, seen: set[bytes], checked: dict[tuple[str, ...], bool]) -> AvoidPath:
    inner = solver_for(g).domain(g)
    # A sample's search proves nothing about the real deal, and in a few hundred positions
    # it rarely meets a block or a position again with its columns in another order: the
    # check at every position and the sorted key would only add to its cost.
    for name in ("dead_each", "canonical"):
        if hasattr(inner, name):
            setattr(inner, name, False)
    prev = g.history[-1][0] if g.history else None
    # A card just taken down from a foundation would be "safe" to send straight back.
    if (
        prev is not None
        and FOUNDATION <= prev[0] < FOUNDATION + 4
        and hasattr(inner, "root_autoplay")
    ):
        inner.root_autoplay = False
    dom = AvoidPath(inner, g, seen)
    # Whether a step stays off the path depends on its moves only, not on the sample: a
    # stock card it turns was either seen before (in its place in every sample) or never
    # (so its position is new in every sample).  One check serves every sample.
    dom._checked = checked
    return dom


def _search(
    dom: AvoidPath, states: int, deadline: float, budget: Budget
) -> tuple[str | None, list[str]]:
    """A best-first search of one sample that remembers which first move each position
    came from: (the first move of a win, or None; the first moves whose positions scored
    best when nothing won)."""
    start = dom.initial()
    clock = budget.clock
    heuristic, key = dom.inner.heuristic, dom.inner.key
    root_tokens: list[str] = []
    heap: list[tuple[int, int, Any, int]] = []
    seen_keys = {key(start)}
    best: dict[int, int] = {}
    counter = 0
    for edge, child in dom.successors(start):
        token = dom.inner.tokens([edge])[0]
        i = len(root_tokens)
        root_tokens.append(token)
        if dom.inner.is_won(child):
            return token, []
        seen_keys.add(key(child))
        h = heuristic(child)
        best[i] = h
        counter -= 1
        heapq.heappush(heap, (h, counter, child, i))
    successors, is_won, push, pop = (
        dom.inner.successors,
        dom.inner.is_won,
        heapq.heappush,
        heapq.heappop,
    )
    expansions = 0
    while heap and len(seen_keys) < states:
        expansions += 1
        if expansions % 16 == 0 and (clock() > deadline or budget.cancelled()):
            break
        _, _, s, i = pop(heap)
        for _, child in successors(s):
            k = key(child)
            if k in seen_keys:
                continue
            seen_keys.add(k)
            if is_won(child):
                return root_tokens[i], []
            h = heuristic(child)
            if h < best[i]:
                best[i] = h
            counter -= 1
            push(heap, (h, counter, child, i))
    if not best:
        return None, []
    low = min(best.values())
    return None, sorted({root_tokens[i] for i, h in best.items() if h == low})


def _decided(votes: Counter[str], left: int) -> bool:
    """Would the hint stay the same whatever ``left`` more samples do?  The leader must
    stay strictly ahead of every move with wins and of any move with none yet (a tie
    would go to how far the searches got).  So stopping here never changes a hint."""
    if not votes:
        return False
    lead = min(votes, key=lambda m: (-votes[m], m))
    n = votes[lead]
    if left >= n:  # a move with no win yet could still reach the leader
        return False
    return all(votes[m] + left < n for m in votes if m != lead)


__all__ = [
    "SAMPLES",
    "SAMPLE_STATES",
    "hidden_cards",
    "sample",
    "sampled_hint",
    "visible_fingerprint",
]
