"""Invariants under random legal play (hypothesis chooses the deals and the moves)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GAMES, HIDDEN_CARD_GAMES, Game, IllegalMove, new_game, seen
from games.engine.cards import CODE
from games.engine.piles import CELL, EMPTY, FOUNDATION, STOCK, WASTE, pile_name

games = st.sampled_from(sorted(GAMES))
seeds = st.integers(min_value=1, max_value=2**31 - 1)
CARD_RE = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def all_cards(g: Game) -> list[int]:
    cards = [c for p in g.tab for c in p] + [c for c in g.cells if c != EMPTY]
    cards += [r * 4 + s for s in range(4) for r in range(g.found[s])]
    return cards + g.stock + g.waste


def snapshot(g: Game):
    return (
        repr(g.tab),
        g.down[:],
        g.cells[:],
        g.found[:],
        g.stock[:],
        g.waste[:],
        g.score,
        g.moves,
        g.redeals_used,
    )


def play_randomly(g: Game, data, steps: int):
    for _ in range(steps):
        moves = list(g.legal_moves())
        if not moves:
            return
        g.push(data.draw(st.sampled_from(moves)))
        yield


@settings(max_examples=60, deadline=None)
@given(games, seeds, st.data())
def test_random_legal_play_keeps_52_distinct_cards_and_score_never_negative(key, seed, data):
    g = new_game(key, seed)
    for _ in play_randomly(g, data, 60):
        cards = all_cards(g)
        assert len(cards) == 52
        assert set(cards) == set(range(52))
        assert g.score >= 0
        assert all(0 <= d <= max(len(p) - 1, 0) for d, p in zip(g.down, g.tab, strict=True))


@settings(max_examples=60, deadline=None)
@given(games, seeds, st.data())
def test_undo_restores_the_exact_state_and_score(key, seed, data):
    g = new_game(key, seed)
    stack = [snapshot(g)]
    for _ in play_randomly(g, data, 40):
        stack.append(snapshot(g))
    stack.pop()
    while stack:
        g.undo()
        assert snapshot(g) == stack.pop()


@settings(max_examples=60, deadline=None)
@given(games, seeds, st.data())
def test_an_illegal_move_changes_nothing_and_says_why(key, seed, data):
    g = new_game(key, seed)
    for _ in play_randomly(g, data, data.draw(st.integers(0, 30))):
        pass
    legal = set(g.legal_moves())
    piles = list(range(g.columns)) + [CELL + i for i in range(g.free_cells)]
    piles += [FOUNDATION + s for s in range(4)] + ([STOCK, WASTE] if g.draw else [])
    src = data.draw(st.sampled_from(piles))
    dst = data.draw(st.sampled_from(piles))
    n = data.draw(st.integers(0, 14))
    move = (src, dst, n)
    before = snapshot(g)
    reason = g.reason(move)
    if move in legal:
        assert reason is None
        return
    assert reason
    assert "\n" not in reason
    with pytest.raises(IllegalMove) as refused:
        g.push(move)
    assert str(refused.value) == reason
    assert snapshot(g) == before


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(HIDDEN_CARD_GAMES)), seeds, st.data())
def test_a_klondike_view_never_names_a_face_down_or_stock_card(key, seed, data):
    g = new_game(key, seed)
    for _ in play_randomly(g, data, 50):
        hidden = {CODE[c] for i, p in enumerate(g.tab) for c in p[: g.down[i]]}
        hidden |= {CODE[c] for c in g.stock}
        text = json.dumps(seen.state(g))
        named = set(CARD_RE.findall(text))
        assert not (named & hidden)
        assert len(named) == 52 - len(hidden)


@settings(max_examples=40, deadline=None)
@given(games, seeds, st.data())
def test_every_listed_move_is_legal_and_its_notation_parses_back(key, seed, data):
    g = new_game(key, seed)
    for _ in play_randomly(g, data, 30):
        moves = list(g.legal_moves())
        assert len(moves) == len(set(moves))
        for m, obj in zip(moves, seen.move_objects(g, moves), strict=True):
            assert g.reason(m) is None
            assert g.parse(g.notation(m)) == m
            # The move objects take the token by class and move (seen._heads): it must be
            # the one this position gives.
            assert obj["move"] == g.notation(m)
            assert (obj["from"], obj["to"]) == (pile_name(m[0]), pile_name(m[1]))
