"""Property: a Klondike position called blocked (:mod:`games.engine.solver.klondike_dead`)
is lost.

Small positions, dealt at random and played on at random (which builds face-up runs and
moves them about), are searched to the end by the plain search -- no move filters, no safe
cards sent up, no blocked check at the start or on the way -- whenever the check calls
them lost: it must not find a win.  Every position on the winning lines of solved deals
must not be called lost either.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine import Game, new_game
from games.engine.record import positions
from games.engine.solver import SOLVED, UNSOLVABLE, Budget, solve
from games.engine.solver.klondike import KlondikeDomain
from games.engine.solver.klondike_dead import lost
from games.engine.solver.search import best_first

from .test_klondike_proofs import PlainDomain, played_on, small_position


def blocked(g: Game) -> bool:
    talon = bytes(g.waste) + bytes(g.stock[::-1])
    return lost([bytes(p) for p in g.tab], g.down, g.found, g.foundation_back, talon)


def plain_verdict(g: Game, states: int = 10_000) -> str:
    return best_first(PlainDomain(g), Budget(20, states)).status


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["klondike", "klondike-draw3", "klondike-1-pass"]),
    salt=st.integers(0, 2**32),
    left=st.integers(10, 30),
    moves=st.integers(0, 80),
)
# Blocks the check first missed: runs that wait on each other after they have been moved
# (a run carried off by the card under it uncovers nothing), a talon card that would hold
# another only once it has a place of its own.  The plain search proves each lost.
@example(key="klondike", salt=9, left=24, moves=78)
@example(key="klondike", salt=64, left=25, moves=15)
@example(key="klondike", salt=732, left=13, moves=49)
@example(key="klondike", salt=751, left=26, moves=14)
def test_a_position_called_blocked_has_no_win(key: str, salt: int, left: int, moves: int) -> None:
    g = played_on(small_position(key, salt, left), salt, moves)
    if g.won or not blocked(g):
        return
    assert plain_verdict(g) != SOLVED


def test_the_blocks_first_missed_are_found_and_are_lost() -> None:
    for salt, left, moves in ((9, 24, 78), (64, 25, 15), (732, 13, 49), (751, 26, 14)):
        g = played_on(small_position("klondike", salt, left), salt, moves)
        assert blocked(g)
        assert plain_verdict(g, 100_000) == UNSOLVABLE


def test_no_position_on_a_winning_line_is_called_blocked() -> None:
    won = 0
    for seed in range(30):
        r = solve(new_game("klondike", seed), Budget(0.3, clock=time.process_time))
        if r.status != SOLVED:
            continue
        won += 1
        for g in positions("klondike", seed, r.moves):
            assert not blocked(g), seed
    assert won >= 20


def test_a_tuning_deal_once_searched_to_its_end_is_blocked_at_the_start() -> None:
    # Seed 6: the full search proved it lost in 59k states; the runs it builds wait on
    # each other wherever they go, which the check now sees in the deal itself.
    assert KlondikeDomain(new_game("klondike", 6)).search(Budget(5)).states == 1
