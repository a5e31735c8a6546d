"""Deals are reproducible forever: Microsoft's FreeCell numbers and our versioned shuffle."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys

import pytest

from games.engine import daily_seed, new_game
from games.engine.cards import CODE
from games.engine.deals import (
    SEED_MAX,
    V1_SEED_MAX,
    V2_BASE,
    ms_deal,
    seed_from_key,
    shuffle_version,
    shuffled_deck,
)

# Board text printed by the public generator (`make-microsoft-freecell-board -t N`).
MS_GOLDEN = {
    1: "JD KD 2S 4C 3S 6D 6S\n2D KC KS 5C TD 8S 9C\n9H 9S 9D TS 4S 8D 2H\n"
    "JC 5S QD QH TH QS 6H\n5D AD JS 4H 8H 6C\n7H QC AS AC 2C 3D\n"
    "7C KH AH 4D JH 8C\n5H 3H 3C 7S 7D TC\n",
    617: "7D TD TH KD 4C 4S JD\nAD 7S QC 5H QS TS KS\n5C QD 3H 9S 9C 2H KC\n"
    "3S AC 9D 3C 9H 5D 4H\n5S 6D 6S 8S 7C JC\n8C 8H 8D 7H 6H 6C\n2D AS 3D 4D 2C JH\n"
    "AH KH TC JS 2S QH\n",
}
EXTENDED = [
    1,
    617,
    11982,
    32000,
    32001,
    1_000_000,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**32 + 1,
    6_000_000_000,
    2**33 - 1,
]
IN_CI = bool(os.environ.get("CI"))


def board_text(number: int) -> str:
    cols: list[list[str]] = [[] for _ in range(8)]
    for i, c in enumerate(ms_deal(number)):
        cols[i % 8].append(CODE[c])
    return "\n".join(" ".join(col) for col in cols) + "\n"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("number", sorted(MS_GOLDEN))
def test_microsoft_deals_match_the_stored_board_text(number: int) -> None:
    assert board_text(number) == MS_GOLDEN[number]
    assert cli("deal", "freecell", str(number)).stdout == MS_GOLDEN[number]


@pytest.mark.skipif(
    not shutil.which("make-microsoft-freecell-board") and not IN_CI,
    reason="freecell-solver-bin is not installed (.ci/run installs it)",
)
@pytest.mark.parametrize("number", EXTENDED)
def test_deal_command_prints_what_the_public_generator_prints(number: int) -> None:
    ref = subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(number)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert cli("deal", "freecell", str(number)).stdout == ref


def test_freecell_deal_numbers_out_of_range_are_refused() -> None:
    for bad in (0, 2**33):
        with pytest.raises(ValueError, match="deal numbers run from 1"):
            ms_deal(bad)
    out = cli("deal", "freecell", "0")
    assert out.returncode == 2
    assert "deal numbers run from 1" in out.stderr


# Version 1 of our shuffle, frozen: these must never change.
SHUFFLE_V1_SEED_2024 = ["AC", "5S", "JS", "6S", "TD", "KS", "9C", "5H", "KC", "4S"]
KLONDIKE_2024 = [
    ["AC"],
    ["5S", "5H"],
    ["JS", "KC", "QS"],
    ["6S", "4S", "6C", "QC"],
    ["TD", "2H", "3H", "JH", "8H"],
    ["KS", "8C", "7D", "8S", "TC", "AS"],
    ["9C", "9S", "2S", "AH", "4D", "TH", "QH"],
]
KLONDIKE_2024_STOCK_HEAD = ["QD", "3C", "6D", "9D"]  # deepest first; "2C" is turned first
BAKERS_2024 = [
    ["AC", "QS", "TH", "7S"],
    ["5S", "6C", "QH", "3D"],
    ["JS", "3H", "2C", "JD"],
    ["6S", "7D", "7C", "5D"],
    ["KH", "TD", "2S", "9H"],
    ["KS", "QC", "5C", "8D"],
    ["9C", "JH", "4C", "2D"],
    ["5H", "8S", "3S", "TS"],
    ["KC", "AH", "4H", "7H"],
    ["4S", "8H", "JC", "9D"],
    ["2H", "TC", "6H", "6D"],
    ["KD", "8C", "4D", "3C"],
    ["9S", "AS", "AD", "QD"],
]


# Version 2, frozen likewise: the seed whose key is the bytes 0, 1, ..., 31.
SHUFFLE_V2_KEY_0_TO_31 = ["7C", "8C", "JC", "7D", "TC", "6S", "AH", "2H", "4S", "4H"]
KLONDIKE_V2_STOCK_NEXT = "4D"


def test_shuffle_version_1_is_frozen() -> None:
    deck = shuffled_deck(2024)
    assert shuffle_version(2024) == 1
    assert [CODE[c] for c in deck[:10]] == SHUFFLE_V1_SEED_2024
    assert sorted(deck) == list(range(52))


def test_shuffle_version_2_is_frozen() -> None:
    seed = seed_from_key(bytes(range(32)))
    assert shuffle_version(seed) == 2
    assert seed == V2_BASE + int.from_bytes(bytes(range(32)))
    deck = shuffled_deck(seed)
    assert [CODE[c] for c in deck[:10]] == SHUFFLE_V2_KEY_0_TO_31
    assert sorted(deck) == list(range(52))
    assert new_game("klondike", seed).layout()["stock"][-1] == KLONDIKE_V2_STOCK_NEXT


@pytest.mark.parametrize("seed", [-1, V1_SEED_MAX + 1, V2_BASE - 1, SEED_MAX + 1])
def test_seeds_outside_both_versions_are_refused(seed: int) -> None:
    with pytest.raises(ValueError, match="seeds"):
        shuffled_deck(seed)


def test_the_command_line_deals_a_version_2_seed() -> None:
    seed = seed_from_key(bytes(range(32)))
    out = cli("deal", "klondike", str(seed), "--json")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count('"7C"') == 1
    assert new_game("klondike", seed).layout()["tableau"][0] == ["7C"]


def test_klondike_layout_is_dealt_in_aisleriot_order() -> None:
    layout = new_game("klondike", 2024).layout()
    assert layout["tableau"] == KLONDIKE_2024
    assert layout["face_down"] == [0, 1, 2, 3, 4, 5, 6]
    assert layout["stock"][:4] == KLONDIKE_2024_STOCK_HEAD
    assert layout["stock"][-1] == "2C"
    assert len(layout["stock"]) == 24


def test_whitehorse_deals_one_face_up_card_per_pile_and_45_to_the_stock() -> None:
    layout = new_game("whitehorse", 2024).layout()
    assert layout["tableau"] == [[c] for c in SHUFFLE_V1_SEED_2024[:7]]
    assert layout["face_down"] == [0] * 7
    assert len(layout["stock"]) == 45


def test_bakers_dozen_golden_layout_has_kings_at_the_bottom() -> None:
    g = new_game("bakers-dozen", 2024)
    assert g.layout()["tableau"] == BAKERS_2024
    for pile in g.tab:
        ranks = [c >> 2 for c in pile]
        kings = [i for i, r in enumerate(ranks) if r == 12]
        assert kings == list(range(len(kings)))


def test_same_seed_same_layout_for_every_game() -> None:
    for key in ("klondike", "klondike-draw3", "whitehorse", "bakers-dozen", "freecell"):
        assert new_game(key, 99).layout() == new_game(key, 99).layout()
        assert new_game(key, 99).layout() != new_game(key, 100).layout()


def test_daily_seed_depends_on_date_game_and_secret() -> None:
    day = dt.date(2026, 11, 30)
    a = daily_seed(day, "klondike", "s3cret")
    assert a == daily_seed(day, "klondike", "s3cret")
    assert shuffle_version(a) == 2
    assert 1 <= daily_seed(day, "freecell", "s3cret") < 2**31  # a Microsoft deal number
    others = {
        daily_seed(day, "klondike", "other"),
        daily_seed(day + dt.timedelta(days=1), "klondike", "s3cret"),
        daily_seed(day, "freecell", "s3cret"),
        daily_seed(day, "klondike", "s3cret", candidate=1),
    }
    assert a not in others
    assert len(others) == 4
