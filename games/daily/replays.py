"""Watching a game step by step (docs/rules.md, "Replays").

Each step is the table as its player saw it after that move (``seen.view``: face-down cards
stay face down), so a replay shows nothing its player did not see.  Who may watch:

- the player, their own session, at any time;
- anyone, a ranked daily session once its day is closed and its seeds revealed.  Before
  that, another player's moves would show the cards they turned to whoever is still
  playing the same deal.  Not a player who asked to be anonymous in the open data.

Practice sessions stay their player's own.
"""

from __future__ import annotations

import logging
from typing import Any

from games.engine import Game, new_game, seen
from games.engine.record import ReplayError, positions
from games.errors import RecordBroken
from games.models import GameSession, Player

log = logging.getLogger(__name__)


def watchable(session: GameSession, viewer: Player | None) -> bool:
    if viewer is not None and session.player_id == viewer.pk:
        return True
    # A player anonymous in the open data is not watched by others: the replay names them
    # and would join their export line (by its moves) to their name.
    return bool(
        session.ranked
        and session.deal.date is not None
        and session.deal.revealed_at is not None
        and not session.player.anonymous
    )


def steps(session: GameSession) -> list[dict[str, Any]]:
    """The deal, then one step per stored move: the move, its server time, the table."""

    def step(i: int, token: str | None, at_ms: int | None, g: Game) -> dict[str, Any]:
        return {
            "index": i,
            "move": token,
            "at_ms": at_ms,
            "view": seen.view(g),
            "cards_up": g.cards_up,
            "score": g.score if g.has_score else None,
        }

    out = [step(0, None, None, new_game(session.game, int(session.deal.seed), session.scored_by))]
    played = positions(session.game, int(session.deal.seed), session.tokens, session.scored_by)
    try:
        for i, ((token, at_ms, *_), g) in enumerate(
            zip(session.moves, played, strict=True), start=1
        ):
            out.append(step(i, token, at_ms, g))
    except ReplayError as exc:
        log.error("session %s does not replay on deal %s: %s", session.pk, session.deal_id, exc)
        raise RecordBroken() from None
    return out


def replay(session: GameSession) -> dict[str, Any]:
    deal = session.deal
    return {
        "session": str(session.pk),
        "game": session.game,
        "deal": deal.public_id,
        "date": deal.date.isoformat() if deal.date else None,
        "ranked": session.ranked,
        "player": session.player.display_name,
        "status": session.status,
        "time_ms": session.time_ms,
        "steps": steps(session),
    }
