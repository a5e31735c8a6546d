"""Player statistics (docs/api.md, "Boards and statistics") and the all-time and weekly views.

A day counts toward a daily streak once that day's daily deal was won.  Days are the daily
dates, which already follow the configured time zone.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Max, Min, Q

from games.daily import today
from games.engine import DAILY_GAMES, GAMES
from games.models import GameSession, Player
from leaderboards.models import Entry


def streaks(days: Iterable[dt.date], now: dt.date | None = None) -> tuple[int, int]:
    """(current, best) runs of consecutive days.  Today not yet won does not break the
    current streak: it still runs from yesterday."""
    won = sorted(set(days))
    best = run = 0
    previous: dt.date | None = None
    for day in won:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    now = now or today()
    current = 0
    day = now if now in won else now - dt.timedelta(days=1)
    won_set = set(won)
    while day in won_set:
        current += 1
        day -= dt.timedelta(days=1)
    return current, best


def player_stats(player: Player) -> dict[str, Any]:
    # A disqualified attempt counts for nothing: not played, not won, no best time.
    sessions = GameSession.objects.filter(player=player, started_at__isnull=False,
                                          disqualified=False)
    per_game = {
        row["game"]: row
        for row in sessions.values("game").annotate(
            played=Count("id"),
            won=Count("id", filter=Q(status=GameSession.WON)),
            best_time_ms=Min("time_ms", filter=Q(status=GameSession.WON)),
            best_score=Max("score", filter=Q(status=GameSession.WON)),
        )
    }
    won_days: dict[str, list[dt.date]] = defaultdict(list)
    for game, day in sessions.filter(status=GameSession.WON, deal__date__isnull=False).values_list(
        "game", "deal__date"
    ):
        if day is not None:  # filtered above; the type of the column allows None
            won_days[game].append(day)
    games = {}
    for game in GAMES:
        row = per_game.get(game, {"played": 0, "won": 0, "best_time_ms": None, "best_score": None})
        current, best = streaks(won_days.get(game, []))
        games[game] = {
            "played": row["played"],
            "won": row["won"],
            "win_rate": round(row["won"] / row["played"], 4) if row["played"] else 0.0,
            "best_time_ms": row["best_time_ms"],
            "best_score": row["best_score"],
            "current_streak": current,
            "best_streak": best,
        }
    any_current, any_best = streaks(d for g in DAILY_GAMES for d in won_days.get(g, []))
    played = sum(g["played"] for g in games.values())
    won = sum(g["won"] for g in games.values())
    return {
        "player": player.display_name,
        "played": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else 0.0,
        "current_streak": any_current,
        "best_streak": any_best,
        "games": games,
    }


def period_board(game: str, start: dt.date | None, end: dt.date | None,
                 limit: int = 100) -> list[dict[str, Any]]:
    """Players by daily wins over a period (all time when unbounded), then best time."""
    qs = Entry.objects.filter(game=game, session__disqualified=False, session__ranked=True)
    if start is not None:
        qs = qs.filter(date__gte=start)
    if end is not None:
        qs = qs.filter(date__lte=end)
    board = (
        qs.values("player_id", "player__display_name")
        .annotate(
            wins=Count("id", filter=Q(won=True)),
            played=Count("id"),
            best_time_ms=Min("time_ms", filter=Q(won=True)),
            best_score=Max("score", filter=Q(won=True)),
        )
        .filter(wins__gt=0)
        .order_by("-wins", "best_time_ms", "player_id")[:limit]
    )
    rows = list(board)
    days: dict[int, list[dt.date]] = defaultdict(list)
    for pid, day in qs.filter(won=True, player_id__in=[r["player_id"] for r in rows]).values_list(
        "player_id", "date"
    ):
        days[pid].append(day)
    out = []
    for rank, r in enumerate(rows, start=1):
        current, best = streaks(days[r["player_id"]])
        out.append({
            "rank": rank, "player": r["player__display_name"], "wins": r["wins"],
            "played": r["played"], "best_time_ms": r["best_time_ms"],
            "best_score": r["best_score"], "current_streak": current, "best_streak": best,
        })
    return out
