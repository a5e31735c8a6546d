"""The dead-end verdict given within a time bound (``endgame.dead_end_within``), settled
elsewhere when the bound was not enough (``settle``, ``remember``): always the verdict a
fresh ``no_move_matters`` gives, along games that play the stock as often as any move."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import dead_ends, endgame, new_game
from games.engine.bakers_dozen import BakersDozen
from games.engine.cards import RANK
from games.engine.klondike import Klondike, KlondikeOnePass

GAMES = ["klondike", "klondike-draw3", "klondike-1-pass", "whitehorse", "bakers-dozen", "freecell"]


def exact(g):
    fresh = g.copy()
    fresh.dead_end_memo = None
    return endgame.no_move_matters(fresh)


def detached(g):
    copy = g.copy()
    copy.history, copy.dead_end_memo = [], None
    return copy


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(GAMES),
    seed=st.integers(1, 10_000),
    salt=st.integers(0, 2**32 - 1),
    # 0: every verdict that needs any work is deferred; the others defer the long ones.
    bound=st.sampled_from([0.0, 1e-5, 2e-4, 5e-4]),
    settled=st.booleans(),  # whether the worker's findings come back before the next move
)
def test_a_bounded_verdict_is_the_exact_one_or_none_and_settling_gives_the_exact_one(
    key, seed, salt, bound, settled
):
    rng = random.Random(salt)
    g = new_game(key, seed)
    deferred = 0
    for _ in range(150):
        want = exact(g)
        got = endgame.dead_end_within(g, None, bound)
        if got is None:
            deferred += 1
            dead, kept = endgame.settle(detached(g))
            assert dead == want, (key, seed, g.moves)
            if settled:
                endgame.remember(g, kept)
                # What is left on the table gives the same verdict when asked again.
                assert endgame.dead_end_within(g, None, 0.0) in (None, want)
        else:
            assert got == want, (key, seed, g.moves)
        if g.history and rng.random() < 0.1:
            g.undo()
            continue
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        g.apply(rng.choice(moves))  # the stock as likely as any other move
    event(f"deferred {min(deferred, 3)}+" if deferred else "none deferred")


def test_a_search_that_does_not_fit_the_bound_is_deferred_then_settled() -> None:
    # 5H shuttles between 6S and 6C: only a search of those positions shows it is dead.
    g = KlondikeOnePass.setup([["9D", "6S", "5H"], ["6C"], ["AS", "QD"]], down=[1, 0, 1])
    g.apply(g.parse("23"))  # a history entry, for the memo to name
    assert endgame.dead_end_within(g, None, 0.0) is None
    assert g.dead_end_memo is None
    dead, kept = endgame.settle(detached(g))
    assert dead is True
    assert kept == (True, ())
    endgame.remember(g, kept)
    assert endgame.dead_end_within(g, None, 0.0) is True  # carried now, in no time


def test_with_no_bound_the_verdict_is_always_given() -> None:
    g = new_game("klondike", 25)
    rng = random.Random(25)
    for _ in range(150):
        assert endgame.dead_end_within(g) is not None
        g.apply(rng.choice(list(g.legal_moves())))


def _passes_reference(game) -> bool:
    """Baker's Dozen's quick proof as first written: every column again until nothing
    changes (the fixed point ``cannot_progress`` now reaches by a work list)."""
    tab = game.tab
    where = {c: (i, k) for i, p in enumerate(tab) for k, c in enumerate(p)}
    exposed = [len(p) - 1 for p in tab]

    def can_top(c):
        i, k = where[c]
        return k >= exposed[i]

    changed = True
    while changed:
        changed = False
        for i, p in enumerate(tab):
            while exposed[i] > 0:
                k = exposed[i]
                up = RANK[p[k]] + 1
                if up > 12 or not any(
                    z in where and can_top(z) and (where[z][0] != i or where[z][1] > k)
                    for z in range(up * 4, up * 4 + 4)
                ):
                    break
                exposed[i] = k - 1
                changed = True
    found = game.found
    return not any(
        found[s] < 13 and can_top(found[s] * 4 + s) for s in range(4) if found[s] * 4 + s in where
    )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(1, 10**6), salt=st.integers(0, 2**32 - 1))
def test_bakers_dozen_quick_proof_reaches_the_same_fixed_point(seed, salt):
    rng = random.Random(salt)
    g = new_game("bakers-dozen", seed)
    assert isinstance(g, BakersDozen)
    for _ in range(120):
        assert g.cannot_progress() == _passes_reference(g), (seed, g.moves)
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        g.apply(rng.choice(moves))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["klondike", "klondike-draw3", "whitehorse"]),
    seed=st.integers(1, 10_000),
    salt=st.integers(0, 2**32 - 1),
)
def test_a_shortened_path_still_leads_to_progress_and_is_no_longer(key, seed, salt):
    """The path a search keeps is a witness the next move replays: shortened, it must still
    send a card up or turn one from the position it was found at."""
    rng = random.Random(salt)
    g = new_game(key, seed)
    checked = 0
    for _ in range(150):
        copy = detached(g)
        dead, kept = endgame.settle(copy)
        if kept is not None and not kept[0]:
            kept_as_found = dead_ends._SHORT_PATH
            dead_ends._SHORT_PATH = 10**9  # the search's own path, not shortened
            try:
                long = dead_ends._search(detached(g), None)[1]
            finally:
                dead_ends._SHORT_PATH = kept_as_found
            assert long is not None
            short = dead_ends._shortened(g, long[1])
            assert len(short) <= len(long[1])
            assert dead_ends._leads_up(g, short, None) is True, (key, seed, g.moves)
            checked += 1
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        g.apply(rng.choice(moves))
    event(f"checked {min(checked, 5)}+")


def test_a_table_back_in_a_position_it_was_in_has_its_verdict_without_a_search() -> None:
    # Dead as above, with a stock whose cards never play: turning it comes back here.
    g = Klondike.setup(
        [["9D", "6S", "5H"], ["6C"], ["AS", "QD"]], down=[1, 0, 1], stock=["2D", "TH"]
    )
    g.apply(g.parse("12"))
    assert endgame.dead_end_within(g, None, 0.0) is None
    dead, kept = endgame.settle(detached(g))
    endgame.remember(g, kept)
    for token in ["s", "s", "r"]:  # a whole turn of the stock, back to the same position
        g.apply(g.parse(token))
    g.dead_end_memo = None  # what the last search left names another position now
    assert dead is True
    assert endgame.dead_end_within(g, None, 0.0) is True
    assert g.copy().dead_end_known is None  # a copy searches afresh
