"""The daily ranking (SPEC 4), computed from PostgreSQL, the truth.

Wins first: the Klondike family and Baker's Dozen by score (time bonus included), then time,
then moves; FreeCell by time, then moves.  Unfinished attempts follow every win, by cards up.
Only ranked attempts count, and never a disqualified one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import F, QuerySet

from games.models import GameSession

BY_TIME = frozenset({"freecell"})


def ranked_sessions(game: str, date: dt.date) -> QuerySet[GameSession]:
    qs = GameSession.objects.filter(
        deal__game=game, deal__date=date, ranked=True, disqualified=False, started_at__isnull=False
    ).select_related("player")
    return qs.order_by(*_order(game))


def _order(game: str) -> list[Any]:
    won = F("status").desc()  # "won" > "playing"
    time = F("time_ms").asc(nulls_last=True)
    if game in BY_TIME:
        return [won, time, "move_count", "-cards_up", "started_at"]
    return [won, F("score").desc(nulls_last=True), time, "move_count", "-cards_up", "started_at"]


def entries(game: str, date: dt.date, limit: int = 100) -> list[dict[str, Any]]:
    out = []
    for rank, session in enumerate(ranked_sessions(game, date)[:limit], start=1):
        won = session.status == GameSession.WON
        out.append({
            "rank": rank,
            "player": session.player.display_name,
            "score": session.score,
            "time_ms": session.time_ms if won else None,
            "moves": session.move_count,
            "won": won,
            "cards_up": session.cards_up,
            "undos": session.undo_count,
            "hints": session.hint_count,
        })
    return out
