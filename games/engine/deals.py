"""Reproducible deals.

* FreeCell deal *n* is Microsoft's deal *n*: its linear congruential generator, for
  1 <= n < 2**33 (the extended range that public solvers support; above 2**31 the
  generator is varied the same way they do).
* Every other game shuffles with a versioned generator.  The seed itself says which
  version deals it, so a stored deal replays exactly forever (golden tests guard both):

  - version 1, seeds 0 .. 2**63-1: SplitMix64.  Kept only to replay old deals.
  - version 2, seeds 2**64 .. 2**64+2**256-1: the seed minus 2**64 is a 256-bit key, and
    HMAC-SHA256 of the key and a block counter is the random stream.

* ``daily_digest`` is HMAC-SHA256 of (date, game, candidate) under the server secret, so
  the server can re-create a daily and nobody without the secret can predict it; each game
  turns the digest into its seed (``Game.seed_from_digest``): the whole digest for a game
  with hidden cards, a Microsoft deal number for FreeCell, whose cards are all face up.

Why version 2 exists: a small seed space leaks the deal even though no hidden card is ever
sent.  The seven face-up cards of a Klondike deal carry about 39 bits (52 x 51 x ... x 46
arrangements), so when the seed has fewer bits than that, the visible cards single out the
seed, and the seed gives every face-down card and the whole stock order.  With version 1's
daily seeds (31 bits) a search of every seed took minutes on two cores and found exactly one
match.  Version 2 draws every seed of a hidden-card deal from 256 bits of secret randomness
(the daily's whole HMAC digest, or ``secrets``), and the shuffle reads every bit of it
through HMAC-SHA256: an attacker who sees the face-up cards can only test seeds one by one,
each test costs a hash, and about 2**217 seeds (2**256 / 2**39) deal the same face-up cards
with other hidden cards, so even an impossible search would not single out the deal.

>>> ms_deal(1)[:4]  # deal 1 starts JD 2D 9H JC on the first row
[41, 5, 34, 40]
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets

SHUFFLE_VERSION = 2  # the version new deals use
MS_MAX_DEAL = 2**33 - 1
V1_SEED_MAX = 2**63 - 1
V2_BASE = 2**64  # seeds from here on are version 2; the rest of the seed is the key
V2_KEY_BITS = 256
SEED_MAX = V2_BASE + 2**V2_KEY_BITS - 1
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


class _Draws:
    """Uniform draws from a stream of 64-bit words (``next64``), by rejection."""

    def next64(self) -> int:
        raise NotImplementedError

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection, so no value is favoured."""
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n


class _SplitMix64(_Draws):
    """Version 1: tiny, fully specified 64-bit generator (Steele, Lea & Flood's SplitMix64).
    Its whole state is the seed, so it must never deal a hidden card again (see above)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)


class _HmacStream(_Draws):
    """Version 2: HMAC-SHA256(key, block number) in counter mode, 32 bytes a block.  Without
    the key the words cannot be told from random ones, and every key bit changes them all."""

    def __init__(self, key: bytes) -> None:
        self.key, self.block = key, 0
        self.words: list[int] = []

    def next64(self) -> int:
        if not self.words:
            out = hmac.new(self.key, self.block.to_bytes(8, "big"), hashlib.sha256).digest()
            self.block += 1
            self.words = [int.from_bytes(out[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self.words.pop()


def shuffle_version(seed: int) -> int:
    """Which generator deals ``seed`` (the seed's range says it; see the module's notes)."""
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"seeds run from 0 to {SEED_MAX}, not {seed}")
    if seed <= V1_SEED_MAX:
        return 1
    if seed < V2_BASE:
        raise ValueError(f"seeds from {V1_SEED_MAX + 1} to {V2_BASE - 1} deal nothing")
    return 2


def shuffled_deck(seed: int) -> list[int]:
    """Fisher-Yates from the top over cards 0..51, driven by the seed's generator.

    The result is the dealing order: the first card is dealt first.
    """
    rng: _Draws
    if shuffle_version(seed) == 1:
        rng = _SplitMix64(seed)
    else:
        rng = _HmacStream((seed - V2_BASE).to_bytes(V2_KEY_BITS // 8, "big"))
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seed_from_key(key: bytes) -> int:
    """The version 2 seed whose key is these 32 bytes."""
    if len(key) != V2_KEY_BITS // 8:
        raise ValueError(f"a version 2 key has {V2_KEY_BITS // 8} bytes, not {len(key)}")
    return V2_BASE + int.from_bytes(key, "big")


def random_seed() -> int:
    """A fresh version 2 seed: 256 bits from the operating system's secure generator."""
    return seed_from_key(secrets.token_bytes(V2_KEY_BITS // 8))


def daily_digest(date: dt.date, game: str, secret: str | bytes, candidate: int = 0) -> bytes:
    """HMAC-SHA256 of (date, game, candidate) under the server secret; ``candidate`` walks
    to the next deals when one has to be replaced (because it could not be certified)."""
    key = secret.encode() if isinstance(secret, str) else secret
    msg = f"{date.isoformat()}|{game}|{candidate}".encode()
    return hmac.new(key, msg, hashlib.sha256).digest()


def ms_number_from_digest(digest: bytes) -> int:
    """A deal number within Microsoft's first range, so a FreeCell daily is a deal any
    solver knows (nothing is hidden in FreeCell, so a small space gives nothing away)."""
    return int.from_bytes(digest[:8], "big") % (2**31 - 1) + 1
