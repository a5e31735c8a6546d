"""The Klondike solver's restarts: reproducible, sound, and winning lines that replay."""

from __future__ import annotations

import time
from itertools import islice

from games.engine import new_game, replay
from games.engine.solver.klondike import KlondikeDomain
from games.engine.solver.klondike_schedule import deal_rng, luby, restarts
from games.engine.solver.search import SOLVED, UNSOLVABLE, Budget


def cpu(seconds: float) -> Budget:
    return Budget(seconds, 3_000_000, clock=time.process_time)


def test_restart_caps_follow_the_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    runs = list(
        islice(restarts(deal_rng(KlondikeDomain(new_game("klondike", 3)).initial()), 100, 0.2), 7)
    )
    assert [r[4] for r in runs] == [100, 100, 200, 100, 100, 200, 400]


def test_a_deal_gets_the_same_restarts_every_time_and_another_deal_other_ones() -> None:
    def first_runs(seed: int) -> list[tuple[object, ...]]:
        rng = deal_rng(KlondikeDomain(new_game("klondike", seed)).initial())
        return list(islice(restarts(rng, 100, 0.2), 20))

    assert first_runs(5) == first_runs(5)
    assert first_runs(5) != first_runs(6)
    # Narrow runs drop moves, so some runs must search the full space.
    assert any(not narrow for narrow, *_ in first_runs(5))


def test_wins_found_by_restarts_replay_and_are_found_again() -> None:
    for game in ("klondike", "klondike-draw3"):
        lines = []
        for _ in range(2):
            d = KlondikeDomain(new_game(game, 4))
            d.schedule = ()  # restarts only, with noise
            d.restart_unit = 300
            r = d.search(cpu(20))
            assert r.status == SOLVED
            assert replay(game, 4, r.moves).won
            lines.append(r.moves)
        assert lines[0] == lines[1]


def test_a_restart_that_exhausts_the_full_space_proves_the_deal_lost() -> None:
    d = KlondikeDomain(new_game("klondike-draw3", 22))
    d.schedule = ()
    d.restart_full = 1.0  # every restart searches the full space, in its own order
    d.full_share = 0.0  # nothing left for a last full search: the proof is a restart's
    r = d.search(cpu(20))
    assert r.status == UNSOLVABLE
    assert not d.restricted
    assert not d.noise
