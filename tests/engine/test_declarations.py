"""Each game is a complete declaration: the facts the site asks of a game come from its
class, and the notation's names it declares are the ones its own parser reads."""

from __future__ import annotations

import pytest

from games.engine import DAILY_GAMES, GAMES, HIDDEN_CARD_GAMES, IllegalMove, new_game
from games.engine.piles import CELL, FOUNDATION

FACTS = {  # key: (daily, public deal numbers, ranked by time, has a score, time bonus at 14 s)
    "klondike": (True, False, False, True, 0),
    "klondike-draw3": (True, False, False, True, 0),
    "klondike-3-passes": (False, False, False, True, 0),
    "klondike-1-pass": (False, False, False, True, 0),
    "whitehorse": (True, False, False, True, 0),
    "freecell": (True, True, True, False, 0),
    "bakers-dozen": (True, False, False, True, 1186),
}


@pytest.mark.parametrize("key", sorted(FACTS))
def test_each_game_declares_the_facts_of_docs_rules(key: str) -> None:
    cls = GAMES[key]
    assert cls.key == key and cls.title
    facts = (cls.daily, cls.public_deal_numbers, cls.ranked_by_time, cls.has_score,
             cls.time_bonus(14.17))
    assert facts == FACTS[key]


def test_the_daily_games_keep_the_home_pages_order() -> None:
    assert DAILY_GAMES == ("klondike", "klondike-draw3", "whitehorse", "freecell",
                           "bakers-dozen")
    assert set(GAMES) == set(FACTS)


def test_the_time_bonus_counts_whole_seconds_down_to_zero() -> None:
    bd = GAMES["bakers-dozen"]
    assert [bd.time_bonus(s) for s in (0, 0.99, 1, 1199.5, 1200, 5000)] == [1200, 1200, 1199,
                                                                            1, 0, 0]


@pytest.mark.parametrize("key", sorted(FACTS))
def test_the_declared_column_names_are_the_notations(key: str) -> None:
    g = new_game(key, 3)
    names = g.column_names
    assert len(names) == g.columns
    for i in range(g.columns):
        cell_or_up = (i, CELL, 1) if g.free_cells else (i, FOUNDATION, 1)
        assert g.notation(cell_or_up)[0] == names[i]
        assert g.parse(names[i] + "h")[0] == i


@pytest.mark.parametrize("key", sorted(FACTS))
def test_a_foundation_is_named_as_a_source_only_where_the_notation_reads_it(key: str) -> None:
    g = new_game(key, 3)
    if g.foundation_from is None:
        with pytest.raises(IllegalMove) as refused:
            g.parse("h1")
        assert refused.value.args[0].code == "bad_notation"
        return
    for suit, letter in enumerate("cdhs"):
        token = g.foundation_from.format(suit=letter) + g.column_names[0]
        try:
            move = g.parse(token)
        except IllegalMove as exc:  # read, and refused by the rules, not the notation
            assert exc.args[0].code == "no_come_back" and not g.foundation_back
            continue
        assert move[:2] == (FOUNDATION + suit, 0) and g.foundation_back


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_game_declares_hidden_cards_exactly_when_its_deals_hide_some(key: str) -> None:
    """The fact every no-peek path keys off (hints, dead ends, the analysis, the leak and
    seed-space tests) is the game's own declaration; here it is checked against its deals:
    a deal with a face-down card or a stock card hides cards."""
    hides = {any(g.down) or bool(g.stock) for g in (new_game(key, seed) for seed in range(1, 6))}
    assert hides == {GAMES[key].hides_cards}
    assert (key in HIDDEN_CARD_GAMES) == GAMES[key].hides_cards
