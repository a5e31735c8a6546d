"""The rule vocabulary is open (games/engine/columns.py): a rule no game of the site has is
one object a declaration names, and the engine generates its moves and words its refusals
with no change anywhere else.  Checked exhaustively: in every position met, a move is
listed by ``legal_moves`` exactly when ``reason`` finds nothing against it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GAMES, Game, new_game
from games.engine.cards import RANK, SUIT, Card, parse_card
from games.engine.columns import ANY_CARD, KINGS_ONLY, Build, EmptyPile
from games.engine.klondike import Klondike
from games.engine.piles import CELL, FOUNDATION, STOCK, WASTE, Move
from games.engine.reasons import Reason


class SameSuit(Build):
    """Down by suit, as in Spider's ordered runs."""

    name = "same-suit"
    other_colour = False

    def fits_card(self, moving: Card, onto: Card) -> bool:
        return RANK[onto] == RANK[moving] + 1 and SUIT[onto] == SUIT[moving]


QUEENS_AND_KINGS = EmptyPile(
    "queens-and-kings", (11, 12), lambda game, card: Reason("high_only", "only a queen or a king")
)


class SameSuitKlondike(Klondike):
    key, title = "test-same-suit", "Klondike by suit"
    build = SameSuit()
    empty_pile = QUEENS_AND_KINGS
    solver = None


class AnyCardKlondike(Klondike):
    """(Klondike's notation names no size, which a run into an any-card space would need:
    only its moves are checked here, not its notation.)"""

    key, title = "test-any-card", "Klondike, any card in a space"
    empty_pile = ANY_CARD
    solver = None


def every_move(g: Game) -> list[Move]:
    piles = list(range(g.columns)) + [CELL + i for i in range(g.free_cells)]
    piles += [FOUNDATION + s for s in range(4)] + ([STOCK, WASTE] if g.draw else [])
    return [(s, d, n) for s in piles for d in piles for n in range(1, 53)]


def agree(g: Game) -> None:
    legal = g.legal_moves()
    assert len(legal) == len(set(legal))
    allowed = {m for m in every_move(g) if g.reason(m) is None}
    assert allowed == set(legal)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([SameSuitKlondike, AnyCardKlondike, *GAMES.values()]),
    st.integers(1, 2**31),
    st.data(),
)
def test_legal_moves_and_reason_agree_on_every_move(
    cls: type[Game], seed: int, data: st.DataObject
) -> None:
    g = cls(seed)
    for _ in range(data.draw(st.integers(0, 60))):
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(data.draw(st.sampled_from(moves)))
    agree(g)


def test_a_new_build_and_a_new_empty_pile_are_one_object_each() -> None:
    g = SameSuitKlondike.setup([["KS", "QS"], ["JS", "JH"], ["QH"], [], ["5D"]])
    assert (2, 0, 1) not in g.legal_moves()
    assert (1, 0, 1) not in g.legal_moves()
    assert (2, 3, 1) in g.legal_moves()
    assert (0, 3, 1) in g.legal_moves()  # a queen, a space
    assert g.reason((4, 3, 1)) == "only a queen or a king"
    assert g.reason((1, 2, 1)) is None  # the jack of hearts on the queen of hearts
    assert g.reason((2, 0, 1)).code == "cannot_go_on"
    assert (0, 3, 2) in g.legal_moves()  # the king heading its run
    agree(g)


def test_the_site_games_keep_their_columns_rules() -> None:
    k = new_game("klondike", 1)
    assert (k.build.name, k.empty_pile, k.runs.name) == ("alternate", KINGS_ONLY, "runs")
    assert parse_card("KS") in [c for c in range(52) if k.empty_pile.takes[c]]
