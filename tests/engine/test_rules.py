"""Rule cases, each written from docs/rules.md so that a broken rule fails a test."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, endgame, new_game, seen
from games.engine.bakers_dozen import BakersDozen
from games.engine.cards import parse_card
from games.engine.deals import shuffled_deck
from games.engine.freecell import FreeCell
from games.engine.klondike import (
    Klondike,
    KlondikeDraw3,
    KlondikeOnePass,
    KlondikeThreePasses,
    Whitehorse,
)
from games.engine.piles import FOUNDATION, STOCK, WASTE


def snapshot(g):
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
        len(g.history),
    )


def refused(g, token: str, fragment: str) -> None:
    before = snapshot(g)
    with pytest.raises(IllegalMove) as exc:
        g.play(token)
    assert fragment in str(exc.value)
    assert snapshot(g) == before


# -- FreeCell ---------------------------------------------------------------------------


def run_position(free_cells: int, empty_columns: int) -> FreeCell:
    """Column 1 holds a 6-card alternating run 9S..4H; column 2 ends on a red ten."""
    tab = [["KD", "9S", "8H", "7C", "6D", "5S", "4H"], ["QC", "TH"]]
    filler = [["2C"], ["3C"], ["4C"], ["5C"], ["6C"], ["7C" if False else "8C"]]
    tab += filler[: 6 - empty_columns]
    cells = ["AS", "AH", "AD", "AC"][: 4 - free_cells]
    return FreeCell.setup(tab, cells=cells)


@pytest.mark.parametrize(
    ("cells", "empty", "limit"), [(0, 0, 1), (1, 0, 2), (4, 0, 5), (1, 1, 4), (0, 2, 4), (2, 2, 12)]
)
def test_supermove_limit_is_cells_plus_one_times_two_to_the_empty_columns(cells, empty, limit):
    g = run_position(cells, empty)
    assert g.move_limit() == limit
    assert seen.view(g)["move_limit"] == limit


def test_a_supermove_within_the_limit_is_one_move_and_one_undo() -> None:
    g = run_position(2, 1)  # limit (2+1)*2 = 6
    g.play("12v6")
    assert [c for c in g.tab[1][-6:]] == [parse_card(c) for c in "9S 8H 7C 6D 5S 4H".split()]
    assert g.moves == 1
    g.undo()
    assert g.tab[1] == [parse_card("QC"), parse_card("TH")]
    assert g.moves == 0


def test_a_supermove_over_the_limit_says_cells_or_columns_are_missing() -> None:
    g = run_position(1, 1)  # limit 4, the run onto TH needs 6
    refused(g, "12", "needs more free cells or empty columns (4 at most now)")


def test_an_empty_destination_column_does_not_count_toward_the_limit() -> None:
    g = run_position(1, 1)
    empty = next(i for i, p in enumerate(g.tab) if not p)
    assert g.move_limit(to_empty=True) == 2
    g2 = g.copy()
    g2.play(f"1{empty + 1}v2")
    refused(g, f"1{empty + 1}v3", "(2 at most now)")
    sizes = sorted(n for s, d, n in g.legal_moves() if s == 0 and d == empty)
    assert sizes == [1, 2]


def test_a_broken_run_is_refused() -> None:
    g = FreeCell.setup([["KD", "9S", "8H", "6C"], ["TH"]], cells=[])
    refused(g, "12v3", "not an ordered run")


def test_freecell_moves_to_cells_are_positional_and_cell_to_cell_is_refused() -> None:
    g = FreeCell.setup([["KD", "9S"], ["TH"], ["2C"]])
    g.play("1b")
    assert g.cells[1] == parse_card("9S")
    refused(g, "3b", "free cell 2 is taken")
    refused(g, "ba", "from one free cell to another")
    assert all(not (s >= 16 and s < 20 and 16 <= d < 20) for s, d, _ in g.legal_moves())


def test_freecell_foundation_cards_never_come_back() -> None:
    g = FreeCell.setup([["KD", "AS"], ["TH"]])
    g.play("1h")
    refused(g, "h2", "do not come back")
    assert not any(FOUNDATION <= s < STOCK for s, _, _ in g.legal_moves())


def test_hand_counted_freecell_moves() -> None:
    # QH on KS in column 1, 5C alone in column 2, six empty columns, four empty cells:
    # QH: 4 cells + 6 empty columns x sizes 1..2 = 16; 5C: 4 cells + 6 empty columns = 10.
    g = FreeCell.setup([["KS", "QH"], ["5C"]])
    assert len(list(g.legal_moves())) == 26
    assert len(set(g.legal_moves())) == 26


def test_freecell_dead_end_is_no_move_at_all() -> None:
    g = FreeCell.setup(
        [
            ["2S", "KH"],
            ["2H", "KD"],
            ["2D", "KC"],
            ["2C", "KS"],
            ["3S", "JH"],
            ["3H", "JS"],
            ["3D", "JC"],
            ["3C", "JD"],
        ],
        cells=["9H", "9D", "9S", "9C"],
    )
    assert list(g.legal_moves()) == []
    assert endgame.no_legal_move(g)


def test_freecell_finish_is_offered_once_every_card_can_go_up() -> None:
    g = FreeCell.setup(
        [["KS", "QS"], ["KH"]], cells=["QH"], foundations={"C": 13, "D": 13, "H": 11, "S": 11}
    )
    assert endgame.can_finish(g)
    moves = endgame.finish_moves(g)
    assert len(moves) == 4
    for m in moves:
        g.push(m)
    assert g.won
    for _ in moves:
        g.undo()
    assert g.cards_up == 48
    blocked = FreeCell.setup(
        [["QS", "KS"], ["KH"]], cells=["QH"], foundations={"C": 13, "D": 13, "H": 11, "S": 11}
    )
    assert not endgame.can_finish(blocked)


# -- Klondike family ----------------------------------------------------------------------


def test_only_a_king_or_a_king_headed_run_goes_into_an_empty_pile() -> None:
    g = Klondike.setup([["QH"], [], ["KS", "QD"], ["JC"]], down=[0, 0, 0, 0])
    refused(g, "12", "only a king")
    refused(g, "42", "only a king")
    g.play("32")
    assert [len(p) for p in g.tab[:3]] == [1, 2, 0]


def test_a_klondike_run_moves_as_a_unit_from_any_card_down() -> None:
    g = Klondike.setup([["8S", "7H", "6C", "5D"], ["7D"]])
    assert (0, 1, 2) in set(g.legal_moves())  # 6C heads the run that fits on 7D
    g.play("12")
    assert g.tab[1] == [parse_card(c) for c in ["7D", "6C", "5D"]]


def test_a_face_down_card_turns_up_with_five_points_and_undo_turns_it_back() -> None:
    g = Klondike.setup([["9C", "8H"], ["9S"]], down=[1, 0])
    g.play("12")
    assert g.down[0] == 0
    assert g.score == 5
    g.undo()
    assert g.down[0] == 1
    assert g.score == 0
    assert g.tab[0] == [parse_card("9C"), parse_card("8H")]


def test_klondike_scoring_cases_and_the_clamp_at_zero() -> None:
    g = Klondike.setup([["2H"], ["3C"]], waste=["AH"], foundations={"S": 1})
    g.play("wh")  # waste to foundation: +10
    assert g.score == 10
    g.play("1h")  # tableau to foundation: +10
    assert g.score == 20
    g.play("fh2")  # foundation back down: -15
    assert g.score == 5
    g2 = Klondike.setup([["3C"]], waste=["2H"], stock=["4D"])
    g2.play("w1")  # waste to tableau: +5
    assert g2.score == 5
    g2.play("s")  # turning the stock is free
    assert g2.score == 5
    g3 = Klondike.setup([["3C"]], foundations={"H": 2})
    g3.play("fh1")  # -15 from 0 clamps at 0
    assert g3.score == 0
    g3.undo()
    assert g3.score == 0
    assert g3.found[2] == 2


def test_recycling_the_waste_is_free_and_keeps_the_order() -> None:
    g = Klondike.setup([["KS"]], stock=["2D", "3D"], waste=[])
    g.play("s")
    g.play("s")
    assert g.waste == [parse_card("3D"), parse_card("2D")]
    g.play("r")
    assert g.stock == [parse_card("2D"), parse_card("3D")]
    assert g.waste == []
    assert g.score == 0
    g.play("s")
    assert g.waste == [parse_card("3D")]


def test_foundation_to_tableau_only_in_the_klondike_family() -> None:
    k = Klondike.setup([["3C"]], foundations={"H": 2})
    assert (FOUNDATION + 2, 0, 1) in set(k.legal_moves())
    f = FreeCell.setup([["3C"]], foundations={"H": 2})
    assert not any(FOUNDATION <= s < STOCK for s, _, _ in f.legal_moves())
    b = BakersDozen.setup([["3C"]], foundations={"H": 2})
    refused(b, "h1", "is not a move")
    assert b.reason((FOUNDATION + 2, 0, 1)) is not None


def test_draw_three_turns_three_cards_and_only_the_top_plays() -> None:
    g = KlondikeDraw3.setup([["KS"]], stock=["5D", "4D", "3D", "2D", "AD"])
    g.play("s")
    assert [c for c in g.waste] == [parse_card(c) for c in ("AD", "2D", "3D")]
    assert (STOCK, WASTE, 2) in set(g.legal_moves())
    refused(g, "wh", "needs the ace first")
    g.play("s")
    assert len(g.stock) == 0
    assert len(g.waste) == 5


@pytest.mark.parametrize(
    ("cls", "passes"),
    [
        (Klondike, None),
        (KlondikeThreePasses, 3),
        (KlondikeOnePass, 1),
        (KlondikeDraw3, None),
        (Whitehorse, None),
    ],
)
def test_pass_limits(cls, passes) -> None:
    g = cls.setup([["KS"]], stock=["9D"])
    went_through = 0
    for _ in range(6):
        g.play("s")
        went_through += 1
        if passes is not None and went_through == passes:
            refused(g, "r", "no passes through the stock are left")
            assert not any(d == STOCK for _, d, _ in g.legal_moves())
            return
        g.play("r")
    assert passes is None


def test_a_klondike_position_with_nothing_to_play_from_the_stock_is_a_dead_end() -> None:
    g = Klondike.setup(
        [["KS", "QS"], ["KH", "QH"]], down=[1, 1], stock=["2C", "2D"], foundations={}
    )
    assert endgame.no_legal_move(g)
    alive = Klondike.setup([["KS", "QS"], ["KH", "QH"]], down=[1, 1], stock=["2C", "AD"])
    assert not endgame.no_legal_move(alive)


def test_klondike_finish_needs_every_card_face_up() -> None:
    g = Klondike.setup(
        [["KH", "QS"], ["KS"]],
        down=[1, 0],
        foundations={"C": 13, "D": 13, "H": 11, "S": 11},
        waste=["QH"],
    )
    assert not endgame.can_finish(g)
    up = Klondike.setup(
        [["KH", "QS"], ["KS"]], foundations={"C": 13, "D": 13, "H": 11, "S": 11}, waste=["QH"]
    )
    assert endgame.can_finish(up)
    moves = endgame.finish_moves(up)
    for m in moves:
        up.push(m)
    assert up.won
    assert up.score == 40


def test_klondike_undo_goes_back_400_moves_at_most() -> None:
    g = new_game("klondike", 3)
    for _ in range(405):
        g.play("s") if g.stock else g.play("r")
    for _ in range(400):
        g.undo()
    with pytest.raises(IllegalMove, match="400 moves at most"):
        g.undo()


# -- Baker's Dozen ---------------------------------------------------------------------------


def test_bakers_dozen_moves_kings_to_the_bottom_keeping_their_order() -> None:
    for seed in range(40):
        g = new_game("bakers-dozen", seed)
        deck = shuffled_deck(seed)
        for col in range(13):
            dealt = [deck[i] for i in range(col, 52, 13)]
            kings = [c for c in dealt if c >> 2 == 12]
            rest = [c for c in dealt if c >> 2 != 12]
            pile = g.tab[col]
            expected = kings + rest
            # aces that were free at the deal went up already
            while expected and expected[-1] >> 2 == 0:
                expected.pop()
            assert pile == expected


def test_bakers_dozen_empty_columns_are_never_refilled() -> None:
    g = BakersDozen.setup([["2H"], ["3C"], ["9S"]], foundations={"H": 1})
    g.play("1h")
    assert g.tab[0] == []
    refused(g, "21", "never filled again")
    assert not any(d == 0 for _, d, _ in g.legal_moves())


def test_bakers_dozen_builds_down_regardless_of_suit_one_card_at_a_time() -> None:
    g = BakersDozen.setup([["9H", "8H"], ["9D"], ["8D"]])
    g.play("32")  # red on red is fine: only the rank counts
    refused(g, "12", "cannot go on")
    assert "only the top card" in (g.reason((0, 2, 2)) or "")


def test_bakers_dozen_aces_go_up_as_soon_as_they_are_free_and_undo_brings_them_back() -> None:
    g = BakersDozen.setup([["9S", "AD", "AH", "5C"], ["6D"]])
    g.play("12")
    assert g.tab[0] == [parse_card("9S")]
    assert g.found == [0, 1, 1, 0]
    assert g.score == 10
    g.undo()
    assert g.tab[0] == [parse_card(c) for c in ("9S", "AD", "AH", "5C")]
    assert g.found == [0] * 4


def test_bakers_dozen_win_scores_500_more() -> None:
    g = BakersDozen.setup([["KS"]], foundations={"C": 13, "D": 13, "H": 13, "S": 12})
    g.play("1h")
    assert g.won
    assert g.score == 52 * 5 + 500


def test_every_refusal_carries_a_code_and_its_details() -> None:
    from games.engine.reasons import code_of

    g = FreeCell.setup([["5S", "TD"], ["3S"], ["KH"], ["AC"]])
    refusal = g.reason(g.parse("12"))
    assert str(refusal) == "ten of diamonds cannot go on three of spades: it needs a red two"
    assert code_of(refusal) == (
        "cannot_go_on",
        {"card": "TD", "onto": "3S", "need": "two", "colour": "red"},
    )
    on_ace = g.reason(g.parse("14"))
    assert code_of(on_ace) == (
        "cannot_go_on",
        {"card": "TD", "onto": "AC", "need": None, "colour": None},
    )
    with pytest.raises(IllegalMove) as bad:
        g.play("zz")
    assert code_of(bad.value.args[0])[0] == "bad_notation"
