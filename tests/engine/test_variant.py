"""A game added by one declaration (tests/engine/variant.py): it deals, plays by its own
rules, replays and is solved, with nothing else changed."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from games.engine import (
    GAMES,
    Game,
    IllegalMove,
    Record,
    ReplayError,
    find_game,
    new_game,
    replay,
    seen,
)
from games.engine.cards import parse_card
from games.engine.columns import FREE_RUNS
from games.engine.freecell import FreeCell
from games.engine.piles import CELL, EMPTY, FOUNDATION
from games.engine.reasons import code_of
from games.engine.solver import SOLVED, Budget, hint, solve, solver_for

from .variant import TwoCellFreeCell, registered


@pytest.fixture
def variant() -> Iterator[type[Game]]:
    with registered() as cls:
        yield cls


def test_it_deals_freecells_deal_with_two_free_cells(variant: type[Game]) -> None:
    g = new_game(variant.key, 617)
    assert type(g) is TwoCellFreeCell
    assert g.cells == [EMPTY, EMPTY]
    assert g.tab == FreeCell(617).tab
    piles = seen.view(g)["piles"]
    assert [p for p in piles if p.startswith("cell:")] == ["cell:0", "cell:1"]
    assert seen.view(g)["move_limit"] == 3  # (2 free cells + 1) x 2^0


def test_only_its_two_cells_take_a_card(variant: type[Game]) -> None:
    g = new_game(variant.key, 617)
    moves = list(g.legal_moves())
    assert {d for _, d, _ in moves if CELL <= d < FOUNDATION} == {CELL, CELL + 1}
    assert len(moves) == 35 - 8 * 2  # FreeCell's 35, less the moves to cells c and d
    before = g.layout()
    with pytest.raises(IllegalMove) as refused:
        g.play("8c")
    assert code_of(refused.value.args[0])[0] == "no_cell"
    assert g.layout() == before
    g.play("8a")
    g.play("8b")
    assert not any(CELL <= d < FOUNDATION for _, d, _ in g.legal_moves())
    assert g.move_limit() == 1
    assert code_of(g.reason(g.parse("7a")))[0] == "cell_taken"


def test_it_replays_and_its_record_replays(variant: type[Game]) -> None:
    tokens = ["8a", "8b", "u", "8b", "a2"]
    played = replay(variant.key, 617, tokens)
    assert played.moves == 3
    assert played.cells == [EMPTY, parse_card("2S")]
    again = Record.from_json(Record(variant.key, 617, tokens).to_json()).replay()
    assert again.layout() == played.layout()
    assert again.cells == played.cells
    with pytest.raises(ReplayError) as bad:
        replay(variant.key, 617, [*tokens, "7c"])
    assert bad.value.index == 5
    assert "no such free cell" in bad.value.reason


@pytest.mark.parametrize("deal", [3, 8])
def test_the_solver_wins_it_with_two_cells(variant: type[Game], deal: int) -> None:
    r = solve(new_game(variant.key, deal), Budget(20, clock=time.process_time))
    assert r.status == SOLVED
    assert replay(variant.key, deal, r.moves).won  # a line using cells c or d would not


def test_its_hint_is_a_legal_move(variant: type[Game]) -> None:
    g = new_game(variant.key, 3)
    h = hint(g, 2.0)
    assert h.status == SOLVED
    assert h.move is not None
    g.play(h.move)


def test_it_is_a_game_only_while_registered() -> None:
    with registered() as cls:
        assert GAMES[cls.key] is cls
    assert cls.key not in GAMES
    with pytest.raises(ValueError, match="unknown game"):
        find_game(cls.key)


def test_it_keeps_freecells_solver_only_while_it_keeps_freecells_rules() -> None:
    """A subclass inherits its parent's solver, which the registry gives it only while the
    rules the solver plays by are still the game's: otherwise a search over another game's
    moves would prove its deals lost."""
    assert solver_for(TwoCellFreeCell(3)) is solver_for(FreeCell(3))

    class KlondikeRunsFreeCell(FreeCell):
        key, title, runs = "freecell-free-runs", "FreeCell (any run)", FREE_RUNS

    with pytest.raises(ValueError, match="does not play by its runs"):
        solver_for(KlondikeRunsFreeCell(3))
    g = KlondikeRunsFreeCell(3)
    h = hint(g, 1.0)  # no search: a plain move, never a proof
    assert h.status == "unknown"
    assert h.move is not None
    g.play(h.move)
    assert solve(KlondikeRunsFreeCell(3), 1.0).status == "unknown"
