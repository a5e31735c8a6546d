"""Move-count tables (perft): the number of move sequences of each length from a position.

The deal tables were counted by this engine and then frozen; a change in any rule that
touches move generation changes a number.  The small positions are counted by hand.
"""

from __future__ import annotations

import pytest

from games.engine import Game, new_game
from games.engine.klondike import Klondike, KlondikeDraw3, KlondikeOnePass, KlondikeThreePasses


def perft(g: Game, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for m in list(g.legal_moves()):
        g.apply(m)
        total += perft(g, depth - 1)
        g.undo()
    return total


DEAL_TABLES = {
    ("klondike", 7): [4, 16, 65, 267, 1110, 4634],
    ("klondike-draw3", 7): [4, 16, 65, 264, 1061, 4155],
    ("whitehorse", 7): [3, 9, 27, 82],
    ("freecell", 617): [35, 966, 19964],
    ("bakers-dozen", 7): [15, 216, 3029],
}


@pytest.mark.parametrize(("key", "seed"), sorted(DEAL_TABLES))
def test_perft_from_the_deal(key: str, seed: int) -> None:
    g = new_game(key, seed)
    expected = DEAL_TABLES[(key, seed)]
    assert [perft(g, d) for d in range(1, len(expected) + 1)] == expected


def short_stock(cls: type[Game]) -> Game:
    # Seven piles whose cards fit nowhere; the stock holds 7D then AD (AD is turned first).
    piles = [["9C"], ["9S"], ["9H"], ["9D"], ["5C"], ["5S"], ["5H"]]
    return cls.setup(piles, stock=["7D", "AD"])


@pytest.mark.parametrize(
    ("cls", "expected"),
    [
        # s -> {wh, s}; "s wh" -> {s}; "s s" (7D on top, stock empty) -> {r}
        (Klondike, [1, 2, 2]),
        # the same without the redeal
        (KlondikeOnePass, [1, 2, 1]),
        # draw 3 turns both cards at once (7D on top): s -> {r} -> {s}
        (KlondikeDraw3, [1, 1, 1]),
    ],
)
def test_perft_by_hand_with_a_short_stock(cls: type[Game], expected: list[int]) -> None:
    g = short_stock(cls)
    assert [perft(g, d) for d in (1, 2, 3)] == expected


def test_three_passes_differs_from_unlimited_only_after_the_second_redeal() -> None:
    unlimited, limited = short_stock(Klondike), short_stock(KlondikeThreePasses)
    # s s r s s r s s r: the third "r" is refused with three passes.
    for g in (unlimited, limited):
        for t in "s s r s s r s s".split():
            g.play(t)
    assert perft(unlimited, 1) == 1
    assert perft(limited, 1) == 0
