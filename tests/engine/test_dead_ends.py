""" "No more moves" (docs/rules.md, Dead ends): said once no move can change the outcome,
never earlier."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import endgame, new_game, seen
from games.engine.bakers_dozen import BakersDozen
from games.engine.freecell import FreeCell
from games.engine.klondike import Klondike, KlondikeOnePass
from games.engine.piles import FOUNDATION, STOCK
from games.engine.solver import SOLVED, Budget, solve


def test_a_run_that_can_only_shuttle_between_two_piles_is_a_dead_end() -> None:
    # 5H may go from 6S to 6C and back forever; nothing ever goes up or turns over.
    g = KlondikeOnePass.setup([["9D", "6S", "5H"], ["6C"], ["AS", "QD"]], down=[1, 0, 1])
    assert not endgame.no_legal_move(g)
    assert endgame.no_move_matters(g)
    assert seen.state(g)["no_legal_move"] is True


def test_a_foundation_card_taken_down_and_put_back_changes_nothing() -> None:
    # The stock is spent; 5H shuttles between 6S and 6C, and 4S may come down from its
    # foundation onto 5H and go back up: nothing can ever go higher or turn over.
    g = KlondikeOnePass.setup(
        [["9D", "6S", "5H"], ["6C"], ["2D", "QD"]], down=[1, 0, 1], foundations={"S": 4}
    )
    assert {g.notation(m) for m in g.legal_moves()} >= {"fs1", "12"}
    assert seen.state(g)["no_legal_move"] is True


def test_it_is_not_a_dead_end_while_a_move_can_turn_a_card_over() -> None:
    # QD may go onto the king, turning the ace under it.
    g = KlondikeOnePass.setup([["9D", "6S", "5H"], ["6C"], ["AS", "QD"], ["KS"]], down=[1, 0, 1, 0])
    assert not endgame.no_move_matters(g)


def test_a_stock_card_that_opens_a_line_keeps_the_game_alive() -> None:
    useless = Klondike.setup(
        [["9D", "6S", "5H"], ["6C"], ["AS", "QD"]], down=[1, 0, 1], stock=["2H", "2D"]
    )
    helpful = Klondike.setup(
        [["9D", "6S", "5H"], ["6C"], ["AS", "QD"]], down=[1, 0, 1], stock=["KC", "2D"]
    )
    assert endgame.no_move_matters(useless)
    assert not endgame.no_move_matters(helpful)


def test_bakers_dozen_cards_shuttling_between_columns_is_a_dead_end() -> None:
    g = BakersDozen.setup([["9C", "8H"], ["9D"], ["5S", "3C"]], foundations={"C": 1})
    assert endgame.no_move_matters(g)
    alive = BakersDozen.setup([["9C", "8H"], ["9D"], ["5S", "2C"]], foundations={"C": 1})
    assert not endgame.no_move_matters(alive)


def test_freecell_announces_a_dead_end_only_with_no_legal_move_at_all() -> None:
    g = FreeCell.setup([["KS", "QH"], ["5C"]])
    assert not endgame.no_move_matters(g)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["klondike-1-pass", "klondike-draw3", "bakers-dozen", "whitehorse"]),
    seed=st.integers(1, 5000),
    plies=st.integers(20, 250),
    salt=st.integers(0, 2**32),
)
def test_no_dead_end_is_announced_where_the_solver_wins(key, seed, plies, salt) -> None:
    g = new_game(key, seed)
    rng = random.Random(salt)
    for _ in range(plies):
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        g.apply(rng.choice(moves))
    if endgame.no_move_matters(g):
        assert solve(g, Budget(0.5, 200_000)).status != SOLVED


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(
        ["klondike", "klondike-draw3", "klondike-1-pass", "whitehorse", "bakers-dozen"]
    ),
    seed=st.integers(0, 10_000),
    salt=st.integers(0, 2**32 - 1),
)
def test_the_verdict_kept_on_the_table_is_the_verdict_a_fresh_search_gives(key, seed, salt):
    """Along a game with moves, undos and repeated questions, the verdict carried from the
    last search (endgame._remembered) always equals a search from scratch."""
    rng = random.Random(salt)
    g = new_game(key, seed)
    for _ in range(120):
        kept = endgame.no_move_matters(g)
        fresh = g.copy()
        fresh.dead_end_memo = None
        assert kept == endgame.no_move_matters(fresh), (key, seed, g.moves)
        if rng.random() < 0.1:
            continue  # asked again at the same position
        if g.history and rng.random() < 0.15:
            g.undo()
            continue
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        g.apply(rng.choice(moves))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["klondike", "klondike-draw3", "klondike-3-passes", "whitehorse"]),
    seed=st.integers(0, 10_000),
    salt=st.integers(0, 2**32 - 1),
)
def test_finish_is_offered_exactly_where_playing_its_moves_wins(key, seed, salt):
    """can_finish answers without playing the moves; along games that send cards up
    eagerly (so that many positions can finish) it agrees with playing them wherever no
    card is face down."""
    rng = random.Random(salt)
    g = new_game(key, seed)
    for _ in range(600):
        played = g.copy()
        for move in endgame.finish_moves(g):
            played.apply(move)
        # With face-down cards it is never offered: that would tell what they are; nor
        # while the stock holds cards (docs/rules.md, Finish).
        wins = played.won and not g.won and not any(g.down) and not g.stock
        assert endgame.can_finish(g) == wins, (key, seed, g.moves)
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        up = [m for m in moves if FOUNDATION <= m[1] < STOCK]
        g.apply(rng.choice(up if up and rng.random() < 0.95 else moves))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), salt=st.integers(0, 2**32 - 1))
def test_bakers_dozen_never_proves_a_dead_end_where_a_search_finds_a_card_going_up(seed, salt):
    """Baker's Dozen's quick proof (cannot_progress) against the exhaustive search with a
    budget large enough to decide most positions: never "dead" where a card can go up."""
    rng = random.Random(salt)
    g = new_game("bakers-dozen", seed)
    for _ in range(200):
        if g.cannot_progress():
            h = g.copy()
            h.dead_end_memo = None
            h.cannot_progress = lambda: False  # type: ignore[method-assign]
            h.DEAD_END_BUDGET = 5000  # type: ignore[misc]
            assert endgame.no_move_matters(h) or h.dead_end_memo is None, (seed, g.moves)
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        up = [m for m in moves if FOUNDATION <= m[1] < STOCK]
        g.apply(rng.choice(up if up and rng.random() < 0.8 else moves))
