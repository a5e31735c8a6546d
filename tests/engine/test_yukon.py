"""Yukon against its rule text (docs/rules.md, Yukon), under random deals and random play,
and its search against an exhaustive one: "unsolvable" only when no line wins."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, Game, new_game
from games.engine.cards import CODE, RANK, RED, SUIT
from games.engine.piles import FOUNDATION, STOCK, WASTE
from games.engine.positions import packed
from games.engine.solver import SOLVED, UNSOLVABLE, Budget, solve
from games.engine.yukon import Yukon

from .yukon_deal import LINE, SEED

# Version 1 seeds and version 2 ones (docs/deals.md); the numbers between deal nothing.
seeds = st.one_of(st.integers(1, 2**63 - 1), st.integers(2**64, 2**64 + 2**256 - 1))


def by_the_text(g: Game) -> set[tuple[int, int, int]]:
    """The moves the rule text allows, written from it: a column's top card to its
    foundation; any face-up card with every card on it onto a column whose top is one rank
    higher and of the other colour, or (a king) into an empty column."""
    out = set()
    for i, p in enumerate(g.tab):
        if not p:
            continue
        if g.found[SUIT[p[-1]]] == RANK[p[-1]]:
            out.add((i, FOUNDATION + SUIT[p[-1]], 1))
        for k in range(1, len(p) - g.down[i] + 1):
            head = p[-k]
            for j, q in enumerate(g.tab):
                if j == i:
                    continue
                if q and RANK[q[-1]] == RANK[head] + 1 and RED[q[-1]] != RED[head]:
                    out.add((i, j, k))
                if not q and RANK[head] == 12:
                    out.add((i, j, k))
    return out


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_the_deal_is_klondikes_with_the_other_24_cards_face_up_on_piles_2_to_7(seed: int) -> None:
    g, k = new_game("yukon", seed), new_game("klondike", seed)
    assert [len(p) for p in g.tab] == [1, 6, 7, 8, 9, 10, 11]
    assert g.down == k.down == [0, 1, 2, 3, 4, 5, 6]
    assert [p[: i + 1] for i, p in enumerate(g.tab)] == k.tab
    assert sorted(c for p in g.tab for c in p) == list(range(52))
    assert not g.stock
    assert not g.waste
    assert not g.cards_up
    # The face-up cards after Klondike's are its stock, in the order it would turn them.
    assert sorted(c for p in g.tab[1:] for c in p[-4:]) == sorted(k.stock)


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_random_play_lists_exactly_the_moves_the_rule_text_allows(seed: int, data) -> None:
    g = new_game("yukon", seed)
    for _ in range(data.draw(st.integers(0, 60))):
        legal = g.legal_moves()
        assert set(legal) == by_the_text(g)
        assert len(legal) == len(set(legal))
        if not legal:
            break
        move = data.draw(st.sampled_from(legal))
        g.apply(move)
        # A face-down card on top of a pile has turned up.
        assert all(d < len(p) or not p for p, d in zip(g.tab, g.down, strict=True))


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_a_token_without_a_size_takes_the_smallest_group_that_fits(seed: int, data) -> None:
    g = new_game("yukon", seed)
    for _ in range(data.draw(st.integers(0, 30))):
        legal = g.legal_moves()
        if not legal:
            break
        g.apply(data.draw(st.sampled_from(legal)))
    for i in range(7):
        for j in range(7):
            if i == j or not g.tab[i]:
                continue
            fits = sorted(n for s, d, n in g.legal_moves() if (s, d) == (i, j))
            move = g.parse(f"{i + 1}{j + 1}")
            assert move == (i, j, fits[0] if fits else 1)
            if not fits:
                assert g.reason(move) is not None


def test_the_kept_line_wins_its_deal() -> None:
    g = new_game("yukon", SEED)
    for token in LINE:
        g.play(token)
    assert g.won


def test_the_refusals_name_yukons_rules() -> None:
    g = Yukon.setup([["KS", "QH", "3C"], ["5D"], []], foundations={"C": 1})
    assert g.reason((1, 2, 1)).code == "king_only"
    assert g.reason((0, 2, 3)) is None  # the king with its cards, in order or not
    assert g.reason((0, 1, 2)).code == "cannot_go_on"
    assert g.reason((FOUNDATION, 1, 1)).code == "no_come_back"
    assert g.reason((STOCK, WASTE, 1)).code == "no_stock"
    assert g.notation((0, 2, 3)) == "13v3"
    assert g.notation((0, FOUNDATION, 1)) == "1h"


# -- the search: "unsolvable" is a proof -------------------------------------------------


class ThreePiles(Yukon):
    """Yukon on three piles: the same rules and search; with fewer places to put a card,
    many of its endings are lost, so both verdicts are checked."""

    key, title, columns = "yukon-3-piles", "Yukon (three piles)", 3


def small_position(data) -> Game:
    """A random end of a game: each suit's foundation up to 8 or more, the other cards
    shuffled into the piles (seven, or three), some of them face down."""
    cls = data.draw(st.sampled_from([Yukon, ThreePiles]))
    found = {s: data.draw(st.integers(8 if cls is ThreePiles else 10, 13)) for s in "CDHS"}
    cards = [CODE[r * 4 + i] for i, s in enumerate("CDHS") for r in range(found[s], 13)]
    cards = data.draw(st.permutations(cards))
    piles: list[list[str]] = [[] for _ in range(cls.columns)]
    for c in cards:
        piles[data.draw(st.integers(0, cls.columns - 1))].append(c)
    down = [data.draw(st.integers(0, max(len(p) - 1, 0))) for p in piles]
    return cls.setup(piles, down=down, foundations=found)


def winnable(g: Game) -> bool:
    """Every position reachable by the game's legal moves, every card known: is one won?"""
    seen = {packed(g)}
    stack = [g.copy()]
    while stack:
        h = stack.pop()
        if h.won:
            return True
        for m in h.legal_moves():
            after = h.copy()
            after.apply(m)
            key = packed(after)
            if key not in seen:
                seen.add(key)
                stack.append(after)
    return False


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_search_wins_exactly_the_positions_some_line_wins(data) -> None:
    g = small_position(data)
    r = solve(g, Budget(60, 10**6))
    won = winnable(g)
    event("lost" if not won else "won")
    assert r.status == (SOLVED if won else UNSOLVABLE)
    if r.status == SOLVED:
        after = g.copy()
        for token in r.moves:
            after.play(token)
        assert after.won


def test_a_two_stays_down_while_an_ace_may_need_it() -> None:
    """Klondike's search sends twos up at once; in Yukon an ace may head a group, and a two
    of the other colour is where it goes.  Here the win needs 2S to take AH's group (a
    search that sent 2S up by itself called this deal unsolvable)."""
    g = Yukon.setup(
        [
            ["JS"],
            ["TH", "KS", "2S", "7H", "KH", "9S"],
            ["7S", "4H", "3S", "8H", "6S"],
            ["5H", "5S", "QS", "9H", "4S", "2H"],
            ["QH", "6H", "TS", "AH", "JH", "3H", "8S"],
        ],
        down=[0, 2, 1, 2, 2],
        foundations={"C": 13, "D": 13, "S": 1},
    )
    assert winnable(g)
    assert solve(g, Budget(60, 10**6)).status == SOLVED


def test_yukon_is_in_the_catalogue_as_it_declares_itself() -> None:
    assert GAMES["yukon"] is Yukon
    assert Yukon.hides_cards
    assert not Yukon.daily
