"""The kept lines (tests/engine/kept_deals.py) still win on their deals and still pass the
tables the browser tests look for: every Klondike card face up with the stock not yet
turned out, and each game's finish offered well before its last card."""

from __future__ import annotations

import pytest

from games.engine import endgame, new_game, replay

from .kept_deals import KLONDIKE_LINE, KLONDIKE_SEED, LINES


@pytest.mark.parametrize("game", list(LINES))
def test_a_kept_line_wins_and_offers_the_finish_early(game: str) -> None:
    seed, line = LINES[game]
    assert replay(game, seed, line).won
    g = new_game(game, seed)
    offered = None
    for tok in line:
        if endgame.can_finish(g):
            offered = g.cards_up
            break
        g.play(tok)
    assert offered is not None
    assert offered < 45


def test_the_klondike_line_turns_every_card_up_with_cards_left_to_turn() -> None:
    g = new_game("klondike", KLONDIKE_SEED)
    for tok in KLONDIKE_LINE:
        if not any(g.down) and (g.stock or g.waste):
            break
        g.play(tok)
    assert not any(g.down)
    assert g.stock or g.waste
