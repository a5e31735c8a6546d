"""What an operation gives back, and the limits and clean-ups every operation shares.

Nothing here imports another module of ``games.play``: the optimistic store, the locked
path and the operations all build on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from config.patches.django import from_row
from games.engine import GAMES, Game
from games.engine.undo import UNDO
from games.errors import BadRequest
from games.models import Deal, GameSession

__all__ = [
    "MAX_MOVES",
    "UNDO",
    "Outcome",
    "clean_op",
    "clean_token",
    "session_from_row",
    "session_pk",
    "time_bonus",
]
MAX_MOVES = 5000  # far beyond any real game; keeps a runaway client from bloating a row


@dataclass
class Outcome:
    session: GameSession
    game: Game
    hint: dict[str, Any] | None = None
    hint_source: str | None = None
    just_won: bool = False
    op: str | None = None  # the client's operation id, echoed in the answer
    repeated: bool = False  # the operation had been stored already: nothing was done now
    # The answer's dead-end verdict was not given in its time (answer.state's ``within``).
    unsettled: bool = False


def session_from_row(values: dict[str, Any], deal: Deal) -> GameSession:
    """A session built from a row's values (by attname) and its deal; fields left out,
    "moves" first of all, stay deferred.  It runs for every move: built without
    ``Model.__init__``'s work per field (config/patches/django.py, ``model_rows``)."""
    return from_row(GameSession, values, {"deal": deal})


def session_pk(session_id: UUID | str) -> UUID | None:
    """The session id as a UUID, or None when it cannot be one (then there is no such
    session: the caller answers not found, or leaves it to the path that does)."""
    if isinstance(session_id, UUID):
        return session_id
    try:
        return UUID(str(session_id))
    except ValueError:
        return None


def clean_token(token: object) -> str:
    if not isinstance(token, str) or not token.strip():
        raise BadRequest("move must be a non-empty string in the game's notation")
    token = token.strip()
    if len(token) > 16:
        raise BadRequest("move is too long to be a move")
    return token


OP_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def clean_op(op: object) -> str | None:
    if op is None:
        return None
    if not isinstance(op, str) or not OP_RE.fullmatch(op):
        raise BadRequest("op must be 1 to 40 letters, digits, '-' or '_' (one id per operation)")
    return op


def time_bonus(game_key: str, seconds: float) -> int:
    # docs/rules.md, Scores: the game declares its bonus (only Baker's Dozen has one).
    return GAMES[game_key].time_bonus(seconds)
