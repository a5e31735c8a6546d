"""The daily commitment is what docs/deals.md says: anyone can recompute it with hashlib."""

from __future__ import annotations

import datetime as dt
import doctest
import hashlib

import pytest

from games.engine import commitment as c

DAY = dt.date(2026, 12, 1)
SALT = "0123456789abcdef" * 2


def test_three_lines_of_hashlib_give_the_published_commitment() -> None:
    text = f"daily-solitaire|v1|freecell|{DAY.isoformat()}|617|{SALT}"
    by_hand = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert c.commitment("freecell", DAY, 617, SALT) == by_hand
    assert c.verify("freecell", DAY, 617, SALT, by_hand.upper())


@pytest.mark.parametrize(
    ("game", "day", "seed", "salt"),
    [
        ("klondike", DAY, 617, SALT),
        ("freecell", DAY + dt.timedelta(days=1), 617, SALT),
        ("freecell", DAY, 618, SALT),
        ("freecell", DAY, 617, "f" * 32),
    ],
)
def test_any_other_deal_fails_the_check(game, day, seed, salt) -> None:
    published = c.commitment("freecell", DAY, 617, SALT)
    assert not c.verify(game, day, seed, salt, published)


def test_a_salt_is_fresh_randomness_of_128_bits() -> None:
    salts = {c.new_salt() for _ in range(200)}
    assert len(salts) == 200
    assert all(c.SALT_RE.fullmatch(s) for s in salts)
    with pytest.raises(ValueError, match="32 lowercase hex digits"):
        c.commitment("freecell", DAY, 617, "not-hex")


def test_the_examples_in_the_docstring_run() -> None:
    assert doctest.testmod(c).failed == 0
