"""Undo as the engine decides it (games/engine/undo.py), and every reader of a move list
agreeing with it: a token is an undo whatever its case and the spaces around it, it is
stored as ``u``, and a move reverses the previous one only when it puts back what that
move did."""

from __future__ import annotations

import pytest

from frontend.offline_table import OfflineTable
from games.engine import new_game, replay
from games.engine.record import positions
from games.engine.solver.turning import final_line
from games.engine.undo import UNDO, is_undo, reverses, stored

UNDOS = ["u", "U", "undo", "Undo", "UNDO", " u", "undo\t"]
NOT_UNDOS = ["", "uu", "un", "u1", "undo!", "3a", "a3", "1h", "8a"]


@pytest.mark.parametrize("token", UNDOS)
def test_an_undo_is_u_or_undo_in_any_case_and_stored_as_u(token: str) -> None:
    assert is_undo(token)
    assert stored(token) == UNDO == "u"


@pytest.mark.parametrize("token", NOT_UNDOS)
def test_anything_else_is_a_move_stored_as_sent(token: str) -> None:
    assert not is_undo(token)
    assert stored(token) == token


@pytest.mark.parametrize("token", UNDOS)
def test_replay_the_offline_table_and_the_turning_point_read_an_undo_alike(token: str) -> None:
    """Each reader of a list takes the same token back: the same table as ``u`` gives."""
    plain = replay("freecell", 617, ["8a", "u", "8b"])
    spelt = replay("freecell", 617, ["8a", token, "8b"])
    assert (spelt.cells, spelt.tab, spelt.moves) == (plain.cells, plain.tab, plain.moves)
    assert spelt.cells[1] != spelt.cells[0]  # 8b played on the table 8a was taken from
    assert [g.moves for g in positions("freecell", 617, ["8a", token])] == [1, 0]
    table = OfflineTable("freecell", "617")
    table.play("8a")
    assert table.play(token)["moves"] == 0
    assert table.tokens == ["8a", "u"]  # uploaded as a stored session holds it
    # The turning point's final line drops the undone move, as for "u".
    assert [i for i, _ in final_line("freecell", 617, ["8a", token, "8b"])] == [None, 2]


def test_a_move_reverses_the_previous_one_only_when_it_puts_back_what_it_did() -> None:
    g = new_game("freecell", 617)
    assert not reverses(g, "u")  # nothing to take back yet
    assert not reverses(g, "a8")  # no previous move
    g.play("8a")  # column 8's top to free cell a
    assert reverses(g, "u")
    assert reverses(g, "a8")  # straight back
    assert not reverses(g, "8b")  # another card, another cell: a new move
    assert not reverses(g, "zz")  # no move at all
    g.play("8b")
    assert not reverses(g, "a8")  # the card of cell a is not what the last move moved
    assert reverses(g, "b8")


def test_turning_the_stock_is_never_taking_a_move_back() -> None:
    g = new_game("klondike", 7)
    g.play("s")
    assert not reverses(g, "s")
    assert reverses(g, "undo")
