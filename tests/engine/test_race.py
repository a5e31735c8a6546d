"""The searches of the FreeCell race (games/engine/solver/race.py): each wins with lines that
replay, each proves only what it has exhausted, a search cut into turns is the search run
at once, and a depth-first line is shortened without leaving the line's positions."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import new_game, replay
from games.engine.piles import FOUNDATION
from games.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, Budget, domain_for, solve
from games.engine.solver.depth_first import DepthFirst, shorten
from games.engine.solver.freecell import RACE, SCHEDULE
from games.engine.solver.hinting import AvoidPath, path
from games.engine.solver.race import race
from games.engine.solver.search import BestFirst
from games.engine.solver.typed import TypedBestFirst

from .test_solver_properties import random_position

KINDS = [BestFirst, TypedBestFirst, DepthFirst]


def cpu(seconds: float, states: int = 3_000_000) -> Budget:
    return Budget(seconds, states, clock=time.process_time)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
@pytest.mark.parametrize("deal", [1, 2, 617, 1464])
def test_each_search_alone_wins_with_a_line_that_replays(kind: Any, deal: int) -> None:
    r = kind(domain_for(new_game("freecell", deal))).run(cpu(30))
    assert r.status == SOLVED
    assert replay("freecell", deal, r.moves).won


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_each_search_alone_proves_11982_by_seeing_every_position(kind: Any) -> None:
    # Every reachable position enters the table once, whatever the order: the proof is
    # the same 61,643 positions for each kind of search.
    r = kind(domain_for(new_game("freecell", 11982))).run(cpu(60))
    assert (r.status, r.states, r.moves) == (UNSOLVABLE, 61_643, [])


# Positions after a few random moves that are lost, with their reachable positions: small
# spaces where every search must reach the same verdict through the same positions.
LOST = [(63, 10, 62, 1527), (267, 34, 266, 4044), (153, 10, 152, 409), (296, 33, 295, 332)]


@pytest.mark.parametrize(("seed", "plies", "salt", "size"), LOST)
def test_every_search_proves_a_lost_position_through_the_same_positions(
    seed: int, plies: int, salt: int, size: int
) -> None:
    g, _ = random_position("freecell", seed, plies, salt)
    for kind in KINDS:
        r = kind(domain_for(g)).run(cpu(30))
        assert (r.status, r.states) == (UNSOLVABLE, size), kind.__name__
    r = solve(g, cpu(30))
    assert r.status == UNSOLVABLE


def _in_turns(kind: Any, game: Any, turn: int) -> tuple[str, int, list[str]]:
    search = kind(domain_for(game))
    while True:
        r = search.run(cpu(60, len(search.seen) + turn))
        if r.status != UNKNOWN:
            return r.status, r.states, r.moves


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), deal=st.integers(1, 32000), turn=st.integers(50, 3000))
def test_a_search_cut_into_turns_is_the_search_run_at_once(kind: Any, deal: int, turn: int) -> None:
    game = new_game("freecell", deal)
    whole = kind(domain_for(game)).run(cpu(60, 200_000))
    if whole.status == UNKNOWN:
        return
    assert _in_turns(kind, game, turn) == (whole.status, whole.states, whole.moves)


def _detour(domain: Any, state: Any) -> tuple[Any, Any] | None:
    """Two moves from ``state`` that come back to exactly ``state`` (a card to a free cell
    and back onto the card it lay on), if there are any."""
    for e1, c1 in domain.successors(state):
        for e2, c2 in domain.successors(c1):
            if c2 == state:
                return e1, e2
    return None


@pytest.mark.parametrize("deal", [1, 5, 617])
def test_a_line_with_detours_is_shortened_back_and_still_wins(deal: int) -> None:
    domain = domain_for(new_game("freecell", deal))
    search = BestFirst(domain)
    r = search.run(cpu(20))
    assert r.status == SOLVED
    path = search.line
    states = [search.start]
    for edge in path:
        states.append(next(c for e, c in domain.successors(states[-1]) if e == edge))
    long: list[Any] = []
    added = 0
    for i, edge in enumerate(path):
        bounce = _detour(domain, states[i]) if i % 7 == 3 else None
        if bounce is not None:
            long.extend(bounce)
            added += 2
        long.append(edge)
    assert added >= 4
    short = shorten(domain, search.start, long)
    assert len(short) <= len(path)
    assert replay("freecell", deal, domain.tokens(short)).won


def test_a_depth_first_line_is_shortened() -> None:
    # Deal 6182's first dive wins in 809 moves; the line given is the shortened one.
    domain = domain_for(new_game("freecell", 6182))
    domain.weights = RACE[1][1]
    r = DepthFirst(domain).run(cpu(60))
    assert r.status == SOLVED
    assert len(r.moves) < 300
    assert replay("freecell", 6182, r.moves).won


def test_the_race_needs_a_search_and_knows_its_kinds() -> None:
    domain = domain_for(new_game("freecell", 1))
    with pytest.raises(ValueError, match="at least one"):
        race(domain, cpu(5), SCHEDULE, ())
    with pytest.raises(ValueError, match="no search of kind"):
        race(domain_for(new_game("freecell", 8436)), cpu(5), (), (("sideways", (1,) * 5, 1),))


def test_the_race_keeps_to_the_states_of_its_budget() -> None:
    # Deal 8436 takes the race about 20,000 states: a budget of 5,000 is spent and said.
    r = race(domain_for(new_game("freecell", 8436)), cpu(30, 5_000), SCHEDULE, RACE)
    assert r.status == UNKNOWN
    assert 5_000 <= r.states < 5_000 + 2_000
    assert solve(new_game("freecell", 8436), cpu(30)).status == SOLVED


def test_a_cancelled_race_stops_and_says_so() -> None:
    class Now:
        def is_set(self) -> bool:
            return True

    r = race(domain_for(new_game("freecell", 8436)), Budget(30, cancel=Now()), SCHEDULE, RACE)
    assert r.status == UNKNOWN
    assert r.cancelled


def test_a_hint_domain_leaves_out_the_way_back_from_every_search_start() -> None:
    # Every search of a race asks the domain for its own start, so the start a search
    # expands is equal to the domain's root but not always the same object.  Deal 27: eight
    # of its first moves can be taken back by the next (a card from one of two equal places).
    start = new_game("freecell", 27)
    checked = 0
    for m in [m for m in start.legal_moves() if m[1] < FOUNDATION]:
        g = start.copy()
        g.push(m)
        dom = AvoidPath(domain_for(g), g, path(g))
        first = dom.initial()
        dom.initial()  # a second search's start
        back = [e for e, _ in dom.inner.successors(first) if not dom.allowed(e)]
        if dom.inner.initial_moves or not back:
            continue  # nothing to leave out (the card cannot go back where it was)
        kept = [e for e, _ in dom.successors(first)]
        assert kept
        assert not any(e in back for e in kept)
        checked += 1
    assert checked >= 4


class _Watching:
    """A domain that notes whether the cyclic collector was on at each heuristic call."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.seen_on = inner, set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def heuristic(self, s: Any) -> int:
        import gc

        self.seen_on.add(gc.isenabled())
        return int(self.inner.heuristic(s))


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_a_search_pauses_the_collector_and_leaves_it_as_it_found_it(kind: Any) -> None:
    import gc

    for before in (True, False):
        (gc.enable if before else gc.disable)()
        try:
            dom = _Watching(domain_for(new_game("freecell", 2)))
            search = kind(dom)
            dom.seen_on.clear()  # the start's heuristic, before the search runs
            assert search.run(cpu(20)).status == SOLVED
            assert dom.seen_on == {False}
            assert gc.isenabled() is before
        finally:
            gc.enable()


def test_searches_in_threads_at_once_turn_the_collector_back_on_after_the_last() -> None:
    import gc
    import threading

    gc.enable()
    started, release = threading.Barrier(3), threading.Event()

    class Slow(_Watching):
        calls = 0

        def heuristic(self, s: Any) -> int:
            self.calls += 1
            # The first call is the search's construction; from the second on it runs.
            if self.calls == 2:
                started.wait(10)  # both searches are running before either ends
                release.wait(10)
            return super().heuristic(s)

    results: list[str] = []
    threads = [
        threading.Thread(
            target=lambda d=d: results.append(
                BestFirst(Slow(domain_for(new_game("freecell", d)))).run(cpu(20)).status
            )
        )
        for d in (1, 2)
    ]
    for t in threads:
        t.start()
    started.wait()
    assert not gc.isenabled()
    release.set()
    for t in threads:
        t.join()
    assert results == [SOLVED, SOLVED]
    assert gc.isenabled()
