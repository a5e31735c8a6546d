"""What a player must never see, computed from the engine's full table (not from the view)."""

from __future__ import annotations

import json
import re
from typing import Any

from games.engine import replay
from games.engine.cards import CODE
from games.models import GameSession

# A card code standing alone.  "_" and "-" count as part of a word: public deal ids are
# URL-safe base64 and may start "8H_..." by chance, which names no card.
CARD = re.compile(r"(?<![A-Za-z0-9_-])([A2-9TJQK][CDHS])(?![A-Za-z0-9_-])")


def hidden_cards(session_id: str) -> tuple[set[str], int]:
    """Face-down tableau cards and stock cards of a session as stored, and its seed."""
    s = GameSession.objects.select_related("deal").get(pk=session_id)
    g = replay(s.game, s.deal.seed, s.tokens)
    hidden = {CODE[c] for i, p in enumerate(g.tab) for c in p[: g.down[i]]}
    hidden |= {CODE[c] for c in g.stock}
    return hidden, s.deal.seed


def strings(value: Any) -> list[str]:
    """Every string (keys included) inside a decoded JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in (*strings(k), *strings(v))]
    if isinstance(value, list):
        return [x for v in value for x in strings(v)]
    return []


def cards_named(message: Any) -> set[str]:
    return {m for text in strings(message) for m in CARD.findall(text)}


def assert_no_leak(message: Any, hidden: set[str], seed: int) -> None:
    named = cards_named(message)
    assert not named & hidden, f"hidden cards {sorted(named & hidden)} sent in {message}"
    raw = json.dumps(message)
    if seed < 10**9:
        return  # a short number would match counters by chance; daily seeds are 63-bit
    assert not re.search(rf"(?<!\d){seed}(?!\d)", raw), f"the deal seed {seed} was sent"
