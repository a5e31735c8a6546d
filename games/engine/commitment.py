"""Commit, then reveal: anyone can check that a daily deal was fixed before its day opened.

Before the day, the site publishes ``commitment(game, date, seed, salt)``; after the day
closes it reveals the seed and the salt.  Recomputing the SHA-256 of the documented text
checks that the seed was the one committed to, and dealing the seed gives the layout every
player saw.  The salt (128 random bits, fresh per deal) is what keeps a commitment from
giving a deal away early: a FreeCell daily's seed is a 31-bit deal number, and without the
salt each of those numbers could simply be hashed until one matched.

>>> import datetime as dt
>>> c = commitment("freecell", dt.date(2026, 12, 1), 617, "00" * 16)
>>> len(c), verify("freecell", dt.date(2026, 12, 1), 617, "00" * 16, c)
(64, True)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets

SCHEME = "daily-solitaire|v1"
SALT_RE = re.compile(r"[0-9a-f]{32}")
COMMITMENT_RE = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """32 lowercase hex digits of fresh randomness."""
    return secrets.token_hex(16)


def committed_text(game: str, date: dt.date, seed: int, salt: str) -> str:
    """The text whose SHA-256 is published (UTF-8), exactly as docs/deals.md writes it."""
    if not SALT_RE.fullmatch(salt):
        raise ValueError("a salt is 32 lowercase hex digits")
    return f"{SCHEME}|{game}|{date.isoformat()}|{seed}|{salt}"


def commitment(game: str, date: dt.date, seed: int, salt: str) -> str:
    """The lowercase hex SHA-256 of ``committed_text``."""
    return hashlib.sha256(committed_text(game, date, seed, salt).encode()).hexdigest()


def verify(game: str, date: dt.date, seed: int, salt: str, published: str) -> bool:
    """Whether the revealed seed and salt are the ones ``published`` committed to."""
    return hmac.compare_digest(commitment(game, date, seed, salt), published.strip().lower())
