"""A hidden-card deal cannot be recovered from the cards a player sees.

The face-down cards never reach a player, but that alone proves nothing: if the seed comes
from a space small enough to enumerate, the face-up cards single out the seed, and the seed
gives every hidden card.  The seven face-up cards of a Klondike deal carry about 39 bits
(52 x 51 x ... x 46 = 6.7e11 arrangements), so any seed space much smaller than that, or
even one a few dozen bits larger, is searchable (version 1's 31-bit daily seeds fell in
minutes).

What these tests prove, and how:

1. The method works: on version 1 with its seed space cut to 2**16, a search that knows
   only the seven face-up cards finds the deal's seed and with it the whole stock.  The
   same search is what an attacker would run on any small space.
2. Every path that makes a hidden-card deal (a random deal over the API, the daily of every
   Klondike-family game and its replacement candidates) gives a version 2 seed, and across
   samples every one of the 256 key bits takes both values.  A path that reduced the seed
   (``% 2**31``, a 64-bit state, a truncated digest) leaves high bits constant and fails.
   With 40 samples a bit that really varies stays constant with probability 2**-39.
3. The shuffle reads every key bit: flipping any one of the 256 bits gives another deal.
   A shuffle that folded its key to fewer bits (or kept only part of it) would deal the same
   cards for some flips.  The key goes through HMAC-SHA256, whose output cannot be predicted
   without the key, so no structure of the key shows in the deal.

Together: the seed of a hidden-card deal is uniform over 2**256 values and all of them
matter, so a search that tries N seeds finds the right one with probability N / 2**256, and
about 2**217 seeds deal any given face-up cards with other hidden cards: two deals that look
the same to a player are not linked by any seed a search could enumerate.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings

from games.daily.deals import ensure_daily
from games.engine import GAMES, HIDDEN_CARD_GAMES, daily_seed, new_game
from games.engine.deals import V2_BASE, V2_KEY_BITS, shuffle_version
from games.models import Deal

SAMPLES = 40


def visible(game: str, seed: int) -> list[int]:
    g = new_game(game, seed)
    return [pile[-1] for pile in g.tab]  # the face-up card of each column


def key_bits_that_vary(seeds: list[int]) -> int:
    keys = [s - V2_BASE for s in seeds]
    ones = zeros = 0
    for k in keys:
        ones |= k
        zeros |= ~k & (2**V2_KEY_BITS - 1)
    return bin(ones & zeros).count("1")


def test_a_small_seed_space_gives_the_deal_away_from_the_face_up_cards():
    """Claim 1: the attack, run on a space it can finish (version 1 cut to 2**16 seeds)."""
    secret_seed = 48_611  # the deal the player sees; the attacker does not know this number
    seen = visible("klondike", secret_seed)
    matches = [s for s in range(2**16) if visible("klondike", s) == seen]
    assert matches == [secret_seed]
    assert new_game("klondike", matches[0]).stock == new_game("klondike", secret_seed).stock


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(HIDDEN_CARD_GAMES))
def test_every_random_hidden_card_deal_draws_all_256_bits(api, game):
    """Claim 2, for ``deal: "random"`` through the API, as players start them."""
    c = api()
    for _ in range(SAMPLES):
        c.start(game, "random")
    seeds = list(Deal.objects.filter(game=game).values_list("seed", flat=True))
    assert len(seeds) == SAMPLES
    assert all(shuffle_version(s) == 2 for s in seeds)
    assert key_bits_that_vary(seeds) == V2_KEY_BITS


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(g for g in HIDDEN_CARD_GAMES if GAMES[g].daily))
def test_every_daily_hidden_card_deal_draws_all_256_bits(game):
    """Claim 2, for the dailies (as the scheduled task makes them) and for the candidates
    that replace a deal the solver could not certify."""
    first = dt.date(2030, 1, 1)
    days = [first + dt.timedelta(days=i) for i in range(SAMPLES)]
    seeds = [ensure_daily(game, day).seed for day in days]
    assert all(shuffle_version(s) == 2 for s in seeds)
    assert key_bits_that_vary(seeds) == V2_KEY_BITS
    candidates = [daily_seed(first, game, settings.DAILY_SECRET, n) for n in range(SAMPLES)]
    assert key_bits_that_vary(candidates) == V2_KEY_BITS


@pytest.mark.parametrize("game", sorted(HIDDEN_CARD_GAMES))
def test_the_shuffle_reads_every_bit_of_the_seed(game):
    """Claim 3: each of the 256 key bits, flipped alone, changes the deal."""
    base = GAMES[game].random_seed()
    layout = new_game(game, base).layout()
    key = base - V2_BASE
    for bit in range(V2_KEY_BITS):
        flipped = V2_BASE + (key ^ (1 << bit))
        assert new_game(game, flipped).layout() != layout, f"bit {bit} is ignored"


def test_freecell_keeps_microsoft_deal_numbers_because_nothing_is_hidden():
    """FreeCell shows every card, so its small space of public deal numbers gives nothing
    away; its dailies stay numbers any public solver knows."""
    n = daily_seed(dt.date(2030, 1, 1), "freecell", settings.DAILY_SECRET)
    assert 1 <= n < 2**31
    assert "freecell" not in HIDDEN_CARD_GAMES
    assert all(pile for pile in new_game("freecell", n).tab)
    assert not new_game("freecell", n).stock
