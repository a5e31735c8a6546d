"""Where the finish is offered (docs/rules.md, Finish and auto finish) and where a tap sends
a card (docs/rules.md, Mouse and touch; games/engine/taps.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, Game, endgame, new_game, seen
from games.engine.bakers_dozen import BakersDozen
from games.engine.cards import CODE, RANK, RED
from games.engine.klondike import Klondike
from games.engine.piles import FOUNDATION, STOCK
from games.engine.solver.sampling import sample
from games.engine.taps import best_moves

STOCK_GAMES = [k for k, cls in GAMES.items() if cls.draw]


def face_up_table(key: str, rng: random.Random, stock: int = 0) -> Game:
    """A Klondike-family table with every card face up: foundations of random heights,
    the rest in descending alternating runs (the only face-up columns play can build)
    and in the waste, in any order; ``stock`` waste cards put back into the stock."""
    found = [rng.randint(0, 13) for _ in range(4)]
    left = [r * 4 + s for s in range(4) for r in range(found[s], 13)]
    rng.shuffle(left)
    cols: list[list[int]] = []
    for _ in range(rng.randint(0, 7)):
        if not left:
            break
        run = [left.pop()]
        while rng.random() < 0.7:
            fit = [c for c in left if RANK[c] == RANK[run[-1]] - 1 and RED[c] != RED[run[-1]]]
            if not fit:
                break
            run.append(fit[0])
            left.remove(fit[0])
        cols.append(run)
    stock_cards, waste = left[:stock], left[stock:]
    return GAMES[key].setup(
        [[CODE[c] for c in p] for p in cols],
        foundations=dict(zip("CDHS", found, strict=True)),
        stock=[CODE[c] for c in stock_cards],
        waste=[CODE[c] for c in waste],
    )


def finished(g: Game) -> Game:
    g = g.copy()
    for m in endgame.finish_moves(g):
        g.push(m)
    return g


@settings(max_examples=300, deadline=None)
@given(salt=st.integers(0, 2**32 - 1))
def test_draw_one_with_unlimited_passes_always_finishes_once_all_is_up_and_the_stock_empty(salt):
    """Seed 000's rule: every card face up and the stock empty settle the game, so the
    finish is offered (and wins) in every such position, whatever order the waste is in."""
    g = face_up_table("klondike", random.Random(salt))
    if g.won:
        return
    assert endgame.can_finish(g)
    assert finished(g).won


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(STOCK_GAMES), salt=st.integers(0, 2**32 - 1), stock=st.integers(1, 24))
def test_the_finish_is_never_offered_while_the_stock_holds_cards(key, salt, stock):
    g = face_up_table(key, random.Random(salt), stock)
    if g.stock:
        assert not endgame.can_finish(g)
        assert endgame.finish_wins(g) == finished(g).won  # the review's test is unchanged


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(STOCK_GAMES), salt=st.integers(0, 2**32 - 1))
def test_draw_three_and_limited_passes_offer_the_finish_only_where_it_wins(key, salt):
    """The stock empty and every card up is not enough when the waste cannot be gone
    through one card at a time, as often as needed: then the finish is offered exactly
    where sending up what can go, turning the waste back within the passes left, wins."""
    rng = random.Random(salt)
    g = face_up_table(key, rng)
    if key in ("klondike-3-passes", "klondike-1-pass"):
        g.redeals_used = rng.randint(0, g.redeals or 0)
    if not g.won:
        assert endgame.can_finish(g) == finished(g).won


def test_a_three_card_waste_the_finish_cannot_play_out_is_not_offered() -> None:
    # Turned back and dealt three at a time, this waste shows JH, 8H, 5H, 3H and 2H on top,
    # round and round: AH never comes up.  One at a time, every card does.
    found = {"C": 13, "D": 13, "H": 0, "S": 13}
    waste = [CODE[r * 4 + 2] for r in range(12, 2, -1)] + ["AH", "3H", "2H"]
    g = GAMES["klondike-draw3"].setup([], foundations=found, waste=waste)
    assert not endgame.can_finish(g)
    assert not finished(g).won
    one = Klondike.setup([], foundations=found, waste=waste)
    assert endgame.can_finish(one)
    assert finished(one).won


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), salt=st.integers(0, 2**32 - 1))
def test_bakers_dozen_auto_finish_is_offered_exactly_where_it_wins(seed, salt):
    rng = random.Random(salt)
    g = new_game("bakers-dozen", seed)
    for _ in range(300):
        assert endgame.can_finish(g) == (not g.won and finished(g).won), (seed, g.moves)
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        up = [m for m in moves if m[1] >= FOUNDATION]
        g.push(rng.choice(up if up and rng.random() < 0.9 else moves))


def test_bakers_dozen_does_not_offer_auto_finish_when_it_only_sends_some_cards_up() -> None:
    found = {"C": 13, "D": 11, "H": 11, "S": 13}
    g = BakersDozen.setup([["KH", "QD", "KD"], ["QH"]], foundations=found)
    assert endgame.foundation_move(g) is not None  # QH goes up, then KD blocks QD for good
    assert not endgame.can_finish(g)
    up = BakersDozen.setup([["KH", "KD", "QD"], ["QH"]], foundations=found)
    assert endgame.can_finish(up)
    assert finished(up).won


# -- where a tap sends a card --------------------------------------------------------------


def best(g: Game) -> list[str]:
    return sorted(m["move"] for m in seen.state(g)["legal_moves"] if m.get("best"))


def test_a_tap_sends_a_card_to_a_column_when_it_cannot_go_up() -> None:
    g = Klondike.setup([["KS"], ["KD", "QC"], ["JD"], ["2C"]], foundations={"C": 1})
    assert best(g) == ["32", "4h"]  # JD onto QC; 2C up (a two is always safe)


def test_a_safe_card_goes_up_rather_than_onto_a_column() -> None:
    # 3H fits on 4S, and goes up: both black twos are up, so no black two could need it.
    g = Klondike.setup([["3H"], ["4S"]], foundations={"C": 2, "D": 2, "H": 2, "S": 2})
    assert {g.notation(m) for m in g.legal_moves()} >= {"12", "1h"}
    assert best(g) == ["1h"]


def test_a_card_just_taken_down_is_not_sent_straight_back_when_it_can_go_elsewhere() -> None:
    g = Klondike.setup([["6S"], ["6C"]], foundations={"C": 4, "D": 4, "H": 5, "S": 4})
    g.play("fh1")  # 5H down onto 6S: it could go back up, or onto 6C
    assert best(g) == ["12"]
    g.play("12")
    assert best(g) == ["2h"]  # back onto 6S only undoes that move; up is safe


def test_a_king_alone_in_its_pile_is_not_sent_to_another_empty_pile() -> None:
    g = Klondike.setup([["KS"], ["QH"]])
    assert best(g) == ["21"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["klondike", "klondike-draw3", "klondike-1-pass"]),
    seed=st.integers(0, 2**31),
    salt=st.integers(0, 2**32 - 1),
)
def test_where_a_tap_sends_a_card_never_depends_on_an_unseen_card(key, seed, salt):
    """One best move per card that has one, among the legal moves; the same on a table
    whose face-down and stock cards are dealt again."""
    rng = random.Random(salt)
    g = new_game(key, seed)
    for _ in range(60):
        moves = list(g.legal_moves())
        chosen = best_moves(g, moves)
        assert chosen <= set(moves)
        assert len({(m[0], m[2]) for m in chosen}) == len(chosen)
        assert not any(m[0] == STOCK or m[1] == STOCK for m in chosen)
        other = sample(g, rng)
        assert best_moves(other, list(other.legal_moves())) == chosen
        if not moves:
            break
        g.push(rng.choice(moves))


def test_only_the_klondike_family_marks_where_a_tap_sends_a_card() -> None:
    for key in ("freecell", "bakers-dozen"):
        g = new_game(key, 5)
        assert not best(g)
    assert best(new_game("whitehorse", 5))


@pytest.mark.parametrize("key", ["freecell", "bakers-dozen"])
def test_a_game_that_taps_to_best_ranks_with_its_own_domain(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tap_to_best`` is a declaration any game may make: the ranking is the game's own
    solver domain's, not Klondike's (which raised on a FreeCell table)."""
    monkeypatch.setattr(GAMES[key], "tap_to_best", True)
    rng = random.Random(key)
    g = new_game(key, 5)
    for _ in range(40):
        moves = list(g.legal_moves())
        if not moves:
            break
        chosen = best_moves(g, moves)
        assert chosen
        assert chosen <= set(moves)
        assert len({(m[0], m[2]) for m in chosen}) == len(chosen)  # one per card
        g.push(rng.choice(moves))
