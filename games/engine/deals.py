"""Reproducible deals.

* FreeCell deal *n* is Microsoft's deal *n*: its linear congruential generator, for
  1 <= n < 2**33 (the extended range that public solvers support; above 2**31 the
  generator is varied the same way they do).
* Every other game shuffles with the versioned generator below.  ``SHUFFLE_VERSION``
  together with the game key and the seed fixes a layout forever; a change to the shuffle
  must add a new version and keep the old one (golden tests guard this).
* ``daily_seed`` derives a seed from (date, game, server secret) with HMAC-SHA256, so the
  server can re-create it and nobody without the secret can predict it.

>>> ms_deal(1)[:4]  # deal 1 starts JD 2D 9H JC on the first row
[41, 5, 34, 40]
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

SHUFFLE_VERSION = 1
MS_MAX_DEAL = 2**33 - 1
SEED_MAX = 2**63 - 1
_MASK64 = 2**64 - 1


def ms_deal(number: int) -> list[int]:
    """Microsoft's shuffle: the 52 cards in dealing order (row by row over 8 columns)."""
    if not 1 <= number <= MS_MAX_DEAL:
        raise ValueError(f"FreeCell deal numbers run from 1 to {MS_MAX_DEAL}, not {number}")
    # 2**31 .. 2**32-1 set the draw's top bit; from 2**32 on the seed restarts at 0 and
    # each draw takes 16 bits plus one.  This is how the public solvers extend the range.
    wide = number >= 2**32
    seed = number - 2**32 if wide else number
    top = 0x8000 if 2**31 <= number < 2**32 else 0
    cards = list(range(51, -1, -1))
    for i in range(52):
        seed = (seed * 214013 + 2531011) & 0xFFFFFFFF
        r = ((seed >> 16) & 0xFFFF) + 1 if wide else ((seed >> 16) & 0x7FFF) | top
        j = 51 - r % (52 - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


class _SplitMix64:
    """Tiny, fully specified 64-bit generator (Steele, Lea & Flood's SplitMix64)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection, so no value is favoured."""
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n


def shuffled_deck(seed: int, version: int = SHUFFLE_VERSION) -> list[int]:
    """Version 1: Fisher-Yates from the top over cards 0..51 driven by SplitMix64(seed).

    The result is the dealing order: the first card is dealt first.
    """
    if version != 1:
        raise ValueError(f"unknown shuffle version {version}")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"seeds run from 0 to {SEED_MAX}, not {seed}")
    rng = _SplitMix64(seed)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def daily_seed(date: dt.date, game: str, secret: str | bytes, candidate: int = 0) -> int:
    """The seed of ``game``'s daily deal on ``date``; ``candidate`` walks to the next ones
    when a deal has to be replaced (for example because it could not be certified)."""
    key = secret.encode() if isinstance(secret, str) else secret
    msg = f"{date.isoformat()}|{game}|{candidate}".encode()
    digest = hmac.new(key, msg, hashlib.sha256).digest()
    # Within Microsoft's first range, so a FreeCell daily is a deal number any solver knows.
    return int.from_bytes(digest[:8], "big") % (2**31 - 1) + 1
