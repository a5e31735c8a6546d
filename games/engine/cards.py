"""Cards as small ints and their two-letter text codes.

A card is ``rank * 4 + suit`` with rank 0 (ace) .. 12 (king) and suit 0..3 in the order
C, D, H, S.  This is also the card numbering of Microsoft's FreeCell shuffle, so deals need
no translation.  Everything else reads the lookup tables below instead of doing arithmetic.

>>> card_code(parse_card("TH"))
'TH'
>>> RANK[parse_card("KS")], SUIT_LETTERS[SUIT[parse_card("KS")]]
(12, 'S')
"""

from __future__ import annotations

from typing import TypeAlias

Card: TypeAlias = int  # rank * 4 + suit; an empty free cell holds EMPTY (piles.py)

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)

KING = 12
ACE = 0

RANK: tuple[int, ...] = tuple(c >> 2 for c in range(52))
SUIT: tuple[int, ...] = tuple(c & 3 for c in range(52))
RED: tuple[bool, ...] = tuple((c & 3) in (1, 2) for c in range(52))
CODE: tuple[str, ...] = tuple(RANK_LETTERS[c >> 2] + SUIT_LETTERS[c & 3] for c in range(52))
_BY_CODE = {code: c for c, code in enumerate(CODE)}
# "10H" is what some solvers print; accept it on input, never write it.
_BY_CODE.update({"10" + s: _BY_CODE["T" + s] for s in SUIT_LETTERS})


def card(rank: int, suit: int) -> Card:
    return rank * 4 + suit


def card_code(c: Card) -> str:
    return CODE[c]


def parse_card(text: str) -> Card:
    try:
        return _BY_CODE[text.strip().upper()]
    except KeyError:
        raise ValueError(
            f"not a card: {text!r} (expected rank A23456789TJQK + suit CDHS)"
        ) from None


def card_name(c: Card) -> str:
    """Accessible name, e.g. 'seven of hearts'."""
    return f"{RANK_NAMES[RANK[c]]} of {SUIT_NAMES[SUIT[c]]}"
