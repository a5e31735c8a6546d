"""Pile ids and moves (what the columns do is columns.py).

A move is a plain tuple ``(src, dst, count)`` of pile ids, so it is hashable and cheap.
Pile ids are ints: tableau columns ``0..12``, free cells ``CELL + i``, foundations
``FOUNDATION + suit``, then ``STOCK`` and ``WASTE``.  Turning stock cards over is
``(STOCK, WASTE, n)``; turning the waste back is ``(WASTE, STOCK, n)``.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from .cards import SUIT_LETTERS

Pile: TypeAlias = int  # a pile id: a column, CELL + i, FOUNDATION + suit, STOCK or WASTE

CELL: Final = 16
FOUNDATION: Final = 20
STOCK: Final = 24
WASTE: Final = 25

EMPTY: Final = -1  # an empty free cell

Move: TypeAlias = tuple[Pile, Pile, int]  # (from, to, cards moved or turned)


def pile_name(pile: Pile) -> str:
    """The public pile name (docs/api.md, Piles): ``tableau:0``, ``cell:1``, ``foundation:H``..."""
    if pile < CELL:
        return f"tableau:{pile}"
    if pile < FOUNDATION:
        return f"cell:{pile - CELL}"
    if pile < STOCK:
        return f"foundation:{SUIT_LETTERS[pile - FOUNDATION]}"
    return "stock" if pile == STOCK else "waste"


def parse_pile_name(name: str) -> Pile:
    kind, _, rest = name.partition(":")
    if kind == "tableau" and rest.isdigit() and int(rest) < 13:
        return int(rest)
    if kind == "cell" and rest.isdigit() and int(rest) < 4:
        return CELL + int(rest)
    if kind == "foundation" and len(rest) == 1 and rest.upper() in SUIT_LETTERS:
        return FOUNDATION + SUIT_LETTERS.index(rest.upper())
    if name in ("stock", "waste"):
        return STOCK if name == "stock" else WASTE
    raise ValueError(f"unknown pile {name!r}")
