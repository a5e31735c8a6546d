"""Each game is a complete declaration, and each declared fact is what the game does.

Nothing here lists the games or their facts: every test runs over the catalogue and checks
a fact the class declares against a behaviour of the engine (a deal, a move, a refusal, a
search), so a game added with a wrong fact fails here, whoever adds it.
"""

from __future__ import annotations

import random
import re
import secrets
from pathlib import Path

import pytest

from games.engine import DAILY_GAMES, GAMES, HIDDEN_CARD_GAMES, Game, IllegalMove, new_game, seen
from games.engine.cards import RANK, parse_card
from games.engine.piles import CELL, FOUNDATION, STOCK, WASTE
from games.engine.scoring import NONE
from games.engine.solver.registry import SOLVERS, has_solver, solver_for

ROOT = Path(__file__).resolve().parents[2]
KEYS = sorted(GAMES)


def played(key: str, seed: int, moves: int, until: object = None) -> Game:
    """Game ``key`` after up to ``moves`` random legal moves (the same for a seed), stopping
    early once ``until(g)`` holds."""
    rng = random.Random(seed)
    g = new_game(key, seed)
    for _ in range(moves):
        if callable(until) and until(g):
            break
        legal = g.legal_moves()
        if not legal:
            break
        g.apply(rng.choice(legal))
    return g


def with_a_card_up(key: str) -> Game:
    for seed in range(1, 200):
        g = played(key, seed, 300, until=lambda g: g.cards_up > 0)
        if g.cards_up:
            return g
    raise AssertionError(f"no card went up in 200 random {key} games")


# -- who the game is --------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_each_game_says_its_name_and_rules(key: str) -> None:
    cls = GAMES[key]
    assert cls.key == key
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]{0,31}", key)  # a URL's slug
    assert cls.title
    assert len(cls.rules) >= 2
    assert cls.controls
    assert all(line.strip() == line and line.endswith(".") for line in cls.rules + cls.controls)


def test_the_daily_games_are_the_declared_ones_in_the_catalogues_order() -> None:
    assert DAILY_GAMES == tuple(key for key, cls in GAMES.items() if cls.daily)
    assert HIDDEN_CARD_GAMES == {key for key, cls in GAMES.items() if cls.hides_cards}


@pytest.mark.parametrize("key", DAILY_GAMES)
def test_a_daily_game_can_be_certified(key: str) -> None:
    """A daily is certified winnable before it is published (games/daily/deals.py): its game
    needs a solver that plays by its rules."""
    assert has_solver(GAMES[key])


# -- deals and seeds ---------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_public_deal_numbers_are_small_and_the_others_hide_a_key(key: str) -> None:
    cls = GAMES[key]
    seeds = [cls.random_seed() for _ in range(20)] + [cls.seed_from_digest(secrets.token_bytes(32))]
    if cls.public_deal_numbers:
        assert all(1 <= s < 2**33 for s in seeds)  # a number players type
        assert not cls.hides_cards  # a small space of deals could be searched for the hidden
    else:
        assert all(s >= 2**64 for s in seeds)  # version 2 seeds (docs/deals.md)


@pytest.mark.parametrize("key", KEYS)
def test_a_game_declares_hidden_cards_exactly_when_its_deals_hide_some(key: str) -> None:
    """The fact every no-peek path keys off (hints, dead ends, the analysis, the leak and
    seed-space tests) is the game's own declaration; here it is checked against its deals:
    a deal with a face-down card or a stock card hides cards."""
    hides = {any(g.down) or bool(g.stock) for g in (new_game(key, seed) for seed in range(1, 6))}
    assert hides == {GAMES[key].hides_cards}


# -- the piles ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_the_stock_turns_the_declared_cards_as_often_as_declared(key: str) -> None:
    g = new_game(key, 5)
    stock_moves = [m for m in g.legal_moves() if STOCK in m[:2]]
    if not g.draw:
        assert not stock_moves
        assert not g.stock
        assert g.reason((STOCK, WASTE, 1)).code == "no_stock"
        return
    assert stock_moves == [(STOCK, WASTE, min(g.draw, len(g.stock)))]
    passes = 0
    while True:
        while g.stock:
            g.apply((STOCK, WASTE, min(g.draw, len(g.stock))))
        back = (WASTE, STOCK, len(g.waste))
        if g.reason(back) is not None:
            break
        g.apply(back)
        passes += 1
        if passes > 5:
            break
    assert passes == (6 if g.redeals is None else g.redeals)


@pytest.mark.parametrize("key", KEYS)
def test_the_free_cells_are_the_declared_ones(key: str) -> None:
    g = new_game(key, 5)
    cells = {d for _, d, _ in g.legal_moves() if CELL <= d < FOUNDATION}
    assert cells == {CELL + i for i in range(g.free_cells)}
    if not g.free_cells:
        assert g.reason((0, CELL, 1)).code == "no_free_cells"


@pytest.mark.parametrize("key", KEYS)
def test_a_foundation_card_comes_back_exactly_where_declared(key: str) -> None:
    g = with_a_card_up(key)
    suit = next(s for s in range(4) if g.found[s])
    codes = {
        g.reason((FOUNDATION + suit, j, 1)).code if g.reason((FOUNDATION + suit, j, 1)) else None
        for j in range(g.columns)
    }
    if g.foundation_back:
        assert "no_come_back" not in codes
    else:
        assert codes == {"no_come_back"}


@pytest.mark.parametrize("key", KEYS)
def test_the_columns_take_and_let_go_as_declared(key: str) -> None:
    """A set-up table: a king under a queen that fits it (a run, by any build the site has),
    a five alone, and an empty column."""
    g = GAMES[key].setup([["KS", "QH"], ["5C"], []])
    legal = set(g.legal_moves())
    takes = g.empty_pile.takes
    assert takes == tuple(RANK[c] in g.empty_pile.ranks for c in range(52))
    assert ((1, 2, 1) in legal) == takes[parse_card("5C")]  # the five into the empty column
    assert ((0, 2, 1) in legal) == takes[parse_card("QH")]
    assert ((0, 1, 1) in legal) == g.build.fits[parse_card("QH") * 52 + parse_card("5C")]
    two = g.reason((0, 2, 2))  # the king heading the queen
    if g.runs.top_only:
        assert two.code == "top_only"
    else:
        assert (two is None) == takes[parse_card("KS")]
    assert ("move_limit" in seen.view(g)) == g.runs.counted


@pytest.mark.parametrize("key", KEYS)
def test_undo_goes_back_as_far_as_declared(key: str) -> None:
    limit = GAMES[key].undo_limit or 60
    g = next(
        (g for seed in range(1, 60) if (g := played(key, seed, limit + 1)).moves > limit), None
    )
    assert g is not None, "no random game went on long enough"
    for _ in range(limit):
        g.undo()
    if g.undo_limit:
        with pytest.raises(IllegalMove) as refused:
            g.undo()
        assert refused.value.args[0].code == "undo_limit"


# -- the score ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_a_game_keeps_a_score_exactly_when_it_declares_one(key: str) -> None:
    cls = GAMES[key]
    assert cls.has_score == (cls.scoring != NONE)
    assert cls.ranked_by_time == (not cls.has_score)  # with no score, time then moves
    g = with_a_card_up(key)
    assert (g.score > 0) == cls.has_score
    assert cls.time_bonus(14.17) == max(0, cls.time_bonus_from - 14)


def test_the_time_bonus_counts_whole_seconds_down_to_zero() -> None:
    bd = GAMES["bakers-dozen"]
    assert [bd.time_bonus(s) for s in (0, 0.99, 1, 1199.5, 1200, 5000)] == [
        1200,
        1200,
        1199,
        1,
        0,
        0,
    ]


# -- the table page's facts --------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_a_tap_picks_a_best_move_exactly_where_declared(key: str) -> None:
    best = set()
    for seed in range(1, 6):
        g = played(key, seed, 20)
        best |= {m["move"] for m in seen.state(g)["legal_moves"] if m.get("best")}
    assert bool(best) == GAMES[key].tap_to_best


@pytest.mark.parametrize("key", KEYS)
def test_the_declared_column_names_are_the_notations(key: str) -> None:
    g = new_game(key, 3)
    names = g.column_names
    assert len(names) == g.columns
    for i in range(g.columns):
        cell_or_up = (i, CELL, 1) if g.free_cells else (i, FOUNDATION, 1)
        assert g.notation(cell_or_up)[0] == names[i]
        assert g.parse(names[i] + "h")[0] == i


@pytest.mark.parametrize("key", KEYS)
def test_a_foundation_is_named_as_a_source_only_where_the_notation_reads_it(key: str) -> None:
    g = new_game(key, 3)
    if g.foundation_from is None:
        with pytest.raises(IllegalMove) as refused:
            g.parse("h1")
        assert refused.value.args[0].code == "bad_notation"
        return
    for suit, letter in enumerate("cdhs"):
        token = g.foundation_from.format(suit=letter) + g.column_names[0]
        if not g.foundation_back:  # read, and refused by the rules, not the notation
            with pytest.raises(IllegalMove) as refused:
                g.parse(token)
            assert refused.value.args[0].code == "no_come_back"
            continue
        assert g.parse(token)[:2] == (FOUNDATION + suit, 0)


# -- the solver --------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_the_declared_solver_searches_the_games_own_moves(key: str) -> None:
    """Every step the game's solver domain takes, from the deal and from positions of random
    play, is a line of legal moves of the game (a domain written for other rules would
    search moves the game does not have, and its "unsolvable" would prove nothing)."""
    cls = GAMES[key]
    if cls.solver is None:
        assert not has_solver(cls)
        return
    assert cls.solver in SOLVERS
    solver = solver_for(new_game(key, 1))
    for seed in range(1, 9):
        g = played(key, seed, 15 * (seed - 1))
        if g.won:
            continue
        dom = solver.domain(g)
        start = dom.initial()
        steps = dom.successors(start)
        for edge, _ in steps:
            after = g.copy()
            for token in dom.tokens([edge]):
                after.play(token)  # IllegalMove: the domain's step is not the game's
