"""Player statistics (docs/api.md, "Boards and statistics") and the all-time and weekly views.

A day counts toward a daily streak once that day's daily deal was won.  Days are the daily
dates, which already follow the configured time zone.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Min, Q

from games.daily.deals import today
from games.engine import DAILY_GAMES, GAMES
from games.models import GameSession, Player
from leaderboards.models import Entry

FREEZE_EVERY, FREEZES_MAX = 7, 2  # a freeze for every 7 days in a row, at most 2 held


@dataclass
class Streak:
    current: int = 0
    best: int = 0
    freezes: int = 0  # held now, to spend on the next missed day
    frozen: list[dt.date] = field(default_factory=list)  # missed days a freeze covered


def streak(days: Iterable[dt.date], now: dt.date | None = None) -> Streak:
    """Runs of won days, with freezes (docs/rules.md, "Streaks"): every 7 days won in a row
    earn a freeze (2 held at most), spent by itself on a missed day, which then keeps the
    run going without adding to it.  Today not yet won does not break the current run.
    Computed from the won days alone, so it is the same however often it is asked."""
    won = set(days)
    now = now or today()
    out = Streak()
    if not won:
        return out
    day, end = min(won), max(now, max(won))
    run = in_a_row = 0
    while day <= end:
        if day in won:
            run += 1
            in_a_row += 1
            if in_a_row % FREEZE_EVERY == 0:
                out.freezes = min(FREEZES_MAX, out.freezes + 1)
        elif day == now:
            pass  # today is still to be played
        elif run and out.freezes:
            out.freezes -= 1
            out.frozen.append(day)
            in_a_row = 0  # the next freeze takes 7 more days in a row
        else:
            run = in_a_row = 0
            out.freezes = 0  # a broken streak keeps nothing
        out.best = max(out.best, run)
        day += dt.timedelta(days=1)
    out.current = run
    return out


def streaks(days: Iterable[dt.date], now: dt.date | None = None) -> tuple[int, int]:
    """(current, best) runs of won days, freezes counted (``streak``)."""
    s = streak(days, now)
    return s.current, s.best


def player_stats(player: Player) -> dict[str, Any]:
    # A disqualified attempt counts for nothing: not played, not won, no best time.  Every
    # game played counts as played (and won); records -- best times and scores, streaks,
    # freezes, the calendar -- come from ranked attempts alone, the ones played once, on
    # their day, without a look at the deal first: a practice win of a deal already seen
    # (a replay, an archived daily) proves nothing a board could rank.
    sessions = GameSession.objects.filter(
        player=player, started_at__isnull=False, disqualified=False
    )
    ranked_win = Q(status=GameSession.WON, ranked=True)
    per_game = {
        row["game"]: row
        for row in sessions.values("game").annotate(
            played=Count("id"),
            won=Count("id", filter=Q(status=GameSession.WON)),
            best_time_ms=Min("time_ms", filter=ranked_win),
            best_score=Max("score", filter=ranked_win),
        )
    }
    won_days: dict[str, list[dt.date]] = defaultdict(list)
    for game, day in sessions.filter(ranked_win, deal__date__isnull=False).values_list(
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
    overall = streak([d for g in DAILY_GAMES for d in won_days.get(g, [])])
    any_current, any_best = overall.current, overall.best
    played = sum(g["played"] for g in games.values())
    won = sum(g["won"] for g in games.values())
    return {
        "player": player.display_name,
        "played": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else 0.0,
        "current_streak": any_current,
        "best_streak": any_best,
        "freezes": overall.freezes,
        "frozen_days": [d.isoformat() for d in overall.frozen],
        "calendar": calendar(sessions, set(overall.frozen)),
        "games": games,
    }


CALENDAR_DAYS = 35  # five weeks


def calendar(sessions: Any, frozen: set[dt.date]) -> list[dict[str, Any]]:
    """The last five weeks, a day each: won a daily, played one, or a freeze covered it,
    and the most cards up that day (the profile's calendar and its small chart)."""
    last = today()
    first = last - dt.timedelta(days=CALENDAR_DAYS - 1)
    days: dict[dt.date, dict[str, Any]] = {}
    for day, status, up in sessions.filter(
        ranked=True, deal__date__gte=first, deal__date__lte=last
    ).values_list("deal__date", "status", "cards_up"):
        d = days.setdefault(day, {"won": False, "cards_up": 0})
        d["won"] = d["won"] or status == GameSession.WON
        d["cards_up"] = max(d["cards_up"], up)
    out = []
    for n in range(CALENDAR_DAYS):
        day = first + dt.timedelta(days=n)
        seen = days.get(day)
        out.append(
            {
                "date": day.isoformat(),
                "played": seen is not None,
                "won": bool(seen and seen["won"]),
                "frozen": day in frozen,
                "cards_up": seen["cards_up"] if seen else 0,
            }
        )
    return out


def period_board(
    game: str, start: dt.date | None, end: dt.date | None, limit: int = 100
) -> list[dict[str, Any]]:
    """Players by daily wins over a period (all time when unbounded), then best time.

    Computed from the entries alone: the wins grouped by player, then the days played of
    the hundred players shown; the few disqualified attempts are left out by their ids (a
    partial index of sessions), never by joining every entry to its session.  Read through
    ``leaderboards.periods``, which keeps the result."""
    disqualified = GameSession.objects.filter(game=game, disqualified=True).values("id")
    qs = Entry.objects.filter(game=game).exclude(session_id__in=disqualified)
    if start is not None:
        qs = qs.filter(date__gte=start)
    if end is not None:
        qs = qs.filter(date__lte=end)
    rows = list(
        qs.filter(won=True)
        .values("player_id")
        .annotate(wins=Count("id"), best_time_ms=Min("time_ms"), best_score=Max("score"))
        .order_by("-wins", "best_time_ms", "player_id")[:limit]
    )
    ids = [r["player_id"] for r in rows]
    played = dict(
        qs.filter(player_id__in=ids)
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    days: dict[int, list[dt.date]] = defaultdict(list)
    for pid, day in qs.filter(won=True, player_id__in=ids).values_list("player_id", "date"):
        days[pid].append(day)
    out = []
    for rank, r in enumerate(rows, start=1):
        current, best = streaks(days[r["player_id"]])
        out.append(
            {
                "rank": rank,
                "player": names.get(r["player_id"], ""),
                "wins": r["wins"],
                "played": played.get(r["player_id"], 0),
                "best_time_ms": r["best_time_ms"],
                "best_score": r["best_score"],
                "current_streak": current,
                "best_streak": best,
            }
        )
    return out
