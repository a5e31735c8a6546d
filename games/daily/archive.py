"""The archive (docs/rules.md, "The archive"): a month of past dailies of one game, each
with the asking player's own result.  A past daily can be played again at any time, never
ranked (a daily is ranked only on its own day), with its own medal against par.

Only days that have opened are listed: a coming day's deal cannot be played by any route.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from games.daily import medals
from games.daily.deals import today
from games.models import Deal, GameSession, Player

ORDER = {GameSession.WON: 0, GameSession.RESIGNED: 1, GameSession.PLAYING: 2}


def month_days(month: str) -> tuple[dt.date, dt.date]:
    """The first and last day of ``YYYY-MM`` (ValueError when it is none)."""
    first = dt.date.fromisoformat(month + "-01")
    if not dt.date(2000, 1, 1) <= first <= dt.date(2999, 12, 1):
        raise ValueError(month)
    nxt = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return first, nxt - dt.timedelta(days=1)


def _mine(sessions: list[GameSession], par: int | None) -> dict[str, Any] | None:
    """The player's best try at a deal: a win first (the fewest moves), then the rest."""
    if not sessions:
        return None
    best = min(
        sessions,
        key=lambda s: (
            ORDER[s.status],
            s.move_count if s.status == GameSession.WON else -s.cards_up,
        ),
    )
    return {
        "session": str(best.pk),
        "status": best.status,
        "ranked": best.ranked,
        "cards_up": best.cards_up,
        "moves": best.move_count,
        "tries": len(sessions),
        "medal": medals.medal(best.status == GameSession.WON, best.move_count, par),
    }


def month(game: str, first: dt.date, last: dt.date, player: Player | None) -> list[dict[str, Any]]:
    last = min(last, today())
    deals = list(Deal.objects.filter(game=game, date__gte=first, date__lte=last).order_by("date"))
    tries: dict[int, list[GameSession]] = {}
    if player is not None and deals:
        for s in GameSession.objects.filter(
            player=player, deal__in=deals, started_at__isnull=False
        ).defer("legacy_moves"):
            tries.setdefault(s.deal_id, []).append(s)
    return [
        {
            "date": d.date.isoformat() if d.date else None,
            "deal": d.public_id,
            "par": d.par,
            "closed": d.revealed_at is not None,
            "mine": _mine(tries.get(d.pk, []), d.par),
        }
        for d in deals
    ]
