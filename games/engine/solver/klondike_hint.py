"""Klondike-family hints that never depend on a card the player has not seen.

The player knows the face-up cards, the waste, the foundations and how many cards are
face down and in the stock -- not which ones, nor their order.  So the hint is searched
on *samples*: the unseen cards dealt again at random into the face-down places and the
stock.  The random generator is seeded from the visible table only, and each sample's
search is bounded by a number of states rather than by the clock, so two tables that look
the same get the same hint whatever lies under them.  The move that wins in most samples
is the hint; with no win in any sample, the heuristic's favourite move.

A sample's win is no proof about the real deal, so these hints never claim a winning line
while cards are hidden.  Once nothing is hidden the position is solved for real.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter

from .. import seen
from ..cards import Card
from ..game import Game
from ..piles import FOUNDATION, Move
from .hinting import Hint, NoUndoAtRoot, heuristic_move, previous_move
from .klondike import KlondikeDomain
from .search import SOLVED, UNKNOWN, UNSOLVABLE, Budget, best_first

SAMPLES = 6
# States per sample.  With the full search's move filters a sample finds nearly as many
# wins in 1200 states as it did in 3000 (on 40 positions from random play: 134 samples
# won of 240, against 141), and the hint answers in well under 200 ms.
SAMPLE_STATES = 1200


def visible_fingerprint(game: Game) -> int:
    """A number from what the player can see: the seed of the samples."""
    view = seen.view(game)
    view["down"] = list(game.down)
    view["redeals_used"] = game.redeals_used
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def hidden_cards(game: Game) -> list[Card]:
    cards = [c for i, p in enumerate(game.tab) for c in p[: game.down[i]]]
    return sorted(cards + list(game.stock))


def sample(game: Game, rng: random.Random) -> Game:
    """``game`` with its unseen cards dealt again at random."""
    g = game.copy()
    cards = hidden_cards(game)
    rng.shuffle(cards)
    k = 0
    for i, p in enumerate(g.tab):
        d = g.down[i]
        p[:d] = cards[k : k + d]
        k += d
    g.stock = cards[k:]
    return g


def klondike_hint(game: Game, budget: Budget) -> Hint:
    t0 = time.monotonic()
    game = game.copy()
    prev = previous_move(game)
    if game.won:
        return Hint(None, SOLVED)
    if not hidden_cards(game):  # nothing unseen: the real position may be searched
        dom = NoUndoAtRoot(_domain(game, prev), game, prev)
        r = best_first(dom, budget)
        if r.status == SOLVED and r.moves:
            return Hint(r.moves[0], SOLVED, r.moves, time.monotonic() - t0)
        if r.status == UNSOLVABLE and not dom.filtered:
            return Hint(None, UNSOLVABLE, [], time.monotonic() - t0)
        return Hint(heuristic_move(dom), UNKNOWN, [], time.monotonic() - t0, r.cancelled)

    rng = random.Random(visible_fingerprint(game))
    votes: Counter[str] = Counter()
    first_dom = None
    cancelled = False
    for done in range(SAMPLES):
        if _decided(votes, SAMPLES - done):
            break  # the samples left could not change the answer: the same hint, sooner
        if budget.cancelled():
            cancelled = True
            break
        if time.monotonic() - t0 > budget.seconds:
            break
        g = sample(game, rng)
        kd = _domain(g, prev)
        # A sample's search proves nothing about the real deal, and in 1200 states it
        # rarely meets a block or a position again with its columns in another order:
        # the check at every position and the sorted key would only add to its cost.
        kd.dead_each = kd.canonical = False
        dom = NoUndoAtRoot(kd, g, prev)
        first_dom = first_dom or dom
        left = budget.seconds - (time.monotonic() - t0)
        r = best_first(dom, Budget(max(left, 0.0), SAMPLE_STATES, budget.cancel))
        if r.status == SOLVED and r.moves:
            votes[r.moves[0]] += 1
    move: str | None
    if votes:
        move = min(votes, key=lambda m: (-votes[m], m))  # most votes, then a fixed order
    else:
        move = heuristic_move(first_dom) if first_dom else None
    return Hint(move, UNKNOWN, [], time.monotonic() - t0, cancelled)


def _decided(votes: Counter[str], left: int) -> bool:
    """Would the hint stay the same whatever ``left`` more samples vote?  The leader must
    stay ahead of every move with votes and of any move with none yet, the fixed order
    breaking a tie as it does at the end.  So stopping here never changes a hint."""
    if not votes:
        return False
    lead = min(votes, key=lambda m: (-votes[m], m))
    n = votes[lead]
    if left >= n:  # a move with no vote yet could still reach the leader
        return False
    return all(votes[m] + left < n or (votes[m] + left == n and lead < m)
               for m in votes if m != lead)


def _domain(game: Game, prev: Move | None) -> KlondikeDomain:
    dom = KlondikeDomain(game)
    # A card just taken down from a foundation would be "safe" to send straight back up;
    # that would only undo the player's move, so nothing goes up by itself at the root.
    if prev is not None and FOUNDATION <= prev[0] < FOUNDATION + 4:
        dom.root_autoplay = False
    return dom


__all__ = ["hidden_cards", "klondike_hint", "sample", "visible_fingerprint"]
