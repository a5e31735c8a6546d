"""A result to share (docs/rules.md, "Sharing a result"): one line that names the game,
the day, the time, the moves against par and the medal, and a line of five squares for
how the game went, e.g.

    Daily Solitaire · FreeCell 2026-12-01 · 4:12 · 98 moves (par 84) · silver
    🟥🟨🟦🟦🟩

Each square is the number of cards up at the end of a fifth of the moves: ⬛ fewer than
13, 🟥 13 to 25, 🟨 26 to 38, 🟦 39 to 51, 🟩 all 52.  Nothing in it names a card or a
position: counts and times only, which the board shows anyway.
"""

from __future__ import annotations

import logging

from games.daily import medals
from games.engine import GAMES
from games.engine.record import ReplayError, positions
from games.errors import RecordBroken
from games.models import GameSession

log = logging.getLogger(__name__)

SITE = "Daily Solitaire"
SQUARES = "⬛🟥🟨🟦🟩"


def _square(cards_up: int) -> str:
    return SQUARES[4] if cards_up >= 52 else SQUARES[min(3, cards_up // 13)]


def progress(session: GameSession) -> str:
    """Five squares: cards up at the end of each fifth of the stored moves."""
    tokens = session.tokens
    marks = {max(1, round(len(tokens) * k / 5)) for k in range(1, 6)} if tokens else set()
    try:
        ups = [
            g.cards_up
            for i, g in enumerate(positions(session.game, int(session.deal.seed), tokens), start=1)
            if i in marks
        ]
    except ReplayError as exc:
        log.error("session %s does not replay on deal %s: %s", session.pk, session.deal_id, exc)
        raise RecordBroken() from None
    while len(ups) < 5:  # fewer than five moves (or none): the last count repeats
        ups.append(ups[-1] if ups else 0)
    return "".join(_square(n) for n in ups[:5])


def _clock(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def text(session: GameSession) -> str:
    cls = GAMES[session.game]
    deal = session.deal
    if deal.date is not None:
        which = deal.date.isoformat() + ("" if session.ranked else " (practice)")
    elif cls.public_deal_numbers:
        which = f"#{deal.seed}"
    else:
        which = "random deal"
    parts = [SITE, f"{cls.title} {which}"]
    won = session.status == GameSession.WON
    if won and session.time_ms is not None:
        parts.append(_clock(session.time_ms))
    moves = f"{session.move_count} moves"
    parts.append(moves + (f" (par {deal.par})" if deal.par else ""))
    if won:
        parts.append(medals.medal(True, session.move_count, deal.par) or "won")
    else:
        parts.append(
            f"{session.cards_up}/52 cards up"
            + (", resigned" if session.status == GameSession.RESIGNED else "")
        )
    return " · ".join(parts) + "\n" + progress(session)
