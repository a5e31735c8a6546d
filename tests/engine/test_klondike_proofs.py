"""Property: the Klondike solver's proofs of a lost deal are proofs.

Small positions (most cards already home, the rest dealt at random into the columns, face
down or up, and the stock) are searched to the end twice: with the full search's move
filters and the blocked-position check, and with neither.  The verdicts must agree, and
every win found must replay as a win through the engine.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, new_game
from games.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, Budget
from games.engine.solver.klondike import KlondikeDomain
from games.engine.solver.klondike_dead import lost
from games.engine.solver.search import best_first


def small_position(key: str, salt: int, left: int) -> Game:
    """``left`` cards off the foundations, laid out at random: face down in the columns
    under one face-up card each, and in the stock."""
    rng = random.Random(salt)
    g = new_game(key, 1)
    found = [13, 13, 13, 13]
    while 52 - sum(found) < left:
        su = rng.randrange(4)
        if found[su]:
            found[su] -= 1
    cards = [r * 4 + su for su in range(4) for r in range(found[su], 13)]
    rng.shuffle(cards)
    tab: list[list[int]] = [[] for _ in range(7)]
    k = rng.randint(len(cards) // 2, len(cards))  # mostly in the columns: more blocks
    for x in cards[:k]:
        tab[rng.randrange(7)].append(x)
    g.tab, g.found = tab, found
    g.down = [max(len(p) - 1, 0) for p in tab]  # a face-up part is an ordered run
    g.stock, g.waste, g.redeals_used = cards[k:], [], 0
    return g


def full_verdict(g: Game, prune: bool) -> tuple[str, list[str]]:
    dom = KlondikeDomain(g)
    dom.prune = prune
    if not prune:
        dom.initial()
        dom.dead_at_start = False
    r = best_first(dom, Budget(20, 150_000))
    return r.status, r.moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(["klondike", "klondike-draw3"]), salt=st.integers(0, 2**32),
       left=st.integers(8, 20))
def test_pruned_and_unpruned_full_searches_agree(key: str, salt: int, left: int) -> None:
    g = small_position(key, salt, left)
    pruned, moves = full_verdict(g, True)
    plain, _ = full_verdict(g, False)
    if UNKNOWN in (pruned, plain):
        return  # too big to settle both ways: nothing to compare
    assert pruned == plain
    if lost([bytes(p) for p in g.tab], g.down, g.found, g.foundation_back):
        assert plain == UNSOLVABLE
    if pruned == SOLVED:
        h = g.copy()
        for m in moves:
            h.apply(h.parse(m))
        assert h.won
