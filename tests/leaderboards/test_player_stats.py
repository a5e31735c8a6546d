"""Player statistics and the all-time and weekly views."""

from __future__ import annotations

import datetime as dt

from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player
from leaderboards.stats import streaks
from leaderboards.tasks import score_session
from tests.conftest import time_on

D = dt.date(2030, 6, 10)


def test_a_streak_counts_consecutive_won_days_and_survives_an_unplayed_today():
    days = [D - dt.timedelta(days=n) for n in (1, 2, 3, 6, 7)]
    assert streaks(days, now=D) == (3, 3)
    assert streaks(days + [D], now=D) == (4, 4)
    assert streaks(days, now=D + dt.timedelta(days=1)) == (0, 3)
    assert streaks([], now=D) == (0, 0)


def _play(player, game, day, won, time_ms=None, moves=50):
    deal = ensure_daily(game, day)
    now = time_on(day)
    s = GameSession.objects.create(
        player=player,
        deal=deal,
        game=game,
        ranked=True,
        status="won" if won else "playing",
        time_ms=time_ms if won else None,
        move_count=moves,
        cards_up=52 if won else 10,
        started_at=now,
        finished_at=now if won else None,
        moves=[["x", 0]],
    )
    if won:
        score_session(str(s.pk))
    return s


def test_my_stats_show_played_won_rate_best_time_and_streaks(api):
    c = api()
    me = Player.objects.get(pk=c.me["id"])
    t = today()
    _play(me, "freecell", t, True, time_ms=90_000)
    _play(me, "freecell", t - dt.timedelta(days=1), True, time_ms=70_000)
    _play(me, "freecell", t - dt.timedelta(days=3), True, time_ms=80_000)
    _play(me, "klondike", t, False)
    body = c.get("/api/me/stats/").json()
    fc = body["games"]["freecell"]
    assert (fc["played"], fc["won"], fc["win_rate"], fc["best_time_ms"]) == (3, 3, 1.0, 70_000)
    assert (fc["current_streak"], fc["best_streak"]) == (2, 2)
    assert body["games"]["klondike"]["win_rate"] == 0.0
    assert (body["played"], body["won"]) == (4, 3)
    assert c.get(f"/api/players/{me.pk}/stats/").json() == body
    assert c.get("/api/players/999999/stats/").status_code == 404


def test_weekly_and_all_time_boards_rank_players_by_wins(api):
    c = api()
    a = Player.objects.create(display_name="Alpha")
    b = Player.objects.create(display_name="Bravo")
    monday = D - dt.timedelta(days=D.weekday())
    _play(a, "freecell", monday, True, time_ms=50_000)
    _play(b, "freecell", monday, True, time_ms=40_000)
    _play(b, "freecell", monday + dt.timedelta(days=1), True, time_ms=60_000)
    _play(a, "freecell", monday - dt.timedelta(days=1), True, time_ms=30_000)  # week before
    week = c.get(f"/api/leaderboards/freecell/week/{monday + dt.timedelta(days=3)}/").json()
    assert [(e["player"], e["wins"]) for e in week["entries"]] == [("Bravo", 2), ("Alpha", 1)]
    assert week["from"] == monday.isoformat()
    alltime = c.get("/api/leaderboards/freecell/all-time/").json()["entries"]
    assert [(e["player"], e["wins"], e["best_time_ms"]) for e in alltime] == [
        ("Alpha", 2, 30_000),
        ("Bravo", 2, 40_000),
    ]
    assert alltime[1]["best_streak"] == 2
    assert c.get("/api/leaderboards/chess/all-time/").status_code == 400


def test_a_disqualified_attempt_counts_for_nothing_in_the_statistics(api):
    """Finding 12: an operator's disqualification took the win off the board but left it
    in the player's wins, win rate, best time and streak."""
    c = api()
    me = Player.objects.get(pk=c.me["id"])
    t = today()
    cheat = _play(me, "freecell", t, True, time_ms=1_000)
    _play(me, "freecell", t - dt.timedelta(days=1), True, time_ms=70_000)
    GameSession.objects.filter(pk=cheat.pk).update(
        disqualified=True, disqualified_reason="scripted"
    )
    fc = c.get(f"/api/players/{me.pk}/stats/").json()["games"]["freecell"]
    assert (fc["played"], fc["won"], fc["best_time_ms"]) == (1, 1, 70_000)
    assert fc["current_streak"] == 1
    alltime = c.get("/api/leaderboards/freecell/all-time/").json()["entries"]
    assert [(e["wins"], e["best_time_ms"]) for e in alltime] == [(1, 70_000)]


def test_practice_wins_of_past_dailies_build_no_streak_freeze_or_best_time(api):
    """Eight archived FreeCell dailies won as practice by a new guest gave a streak of 8,
    a freeze and a best time of 431 ms, while the calendar showed no day won."""
    c = api()
    me = Player.objects.get(pk=c.me["id"])
    t = today()
    for n in range(1, 9):
        s = _play(me, "freecell", t - dt.timedelta(days=n), True, time_ms=431)
        GameSession.objects.filter(pk=s.pk).update(ranked=False)
    body = c.get("/api/me/stats/").json()
    fc = body["games"]["freecell"]
    assert (fc["played"], fc["won"]) == (8, 8)  # games played, as played
    assert (fc["current_streak"], fc["best_streak"], fc["best_time_ms"]) == (0, 0, None)
    assert (body["current_streak"], body["freezes"]) == (0, 0)
    assert not any(day["won"] for day in body["calendar"])


def test_a_practice_replay_won_after_resigning_the_daily_does_not_count_as_the_day_won(api):
    """Resign the Baker's Dozen daily, replay the deal and win it: the streak said 1 while
    the calendar said today was not won.  The ranked attempt decides both."""
    c = api()
    me = Player.objects.get(pk=c.me["id"])
    t = today()
    resigned = _play(me, "bakers-dozen", t, False)
    GameSession.objects.filter(pk=resigned.pk).update(status="resigned")
    replay = _play(me, "bakers-dozen", t, True, time_ms=60_000)
    GameSession.objects.filter(pk=replay.pk).update(ranked=False)
    body = c.get("/api/me/stats/").json()
    today_cell = next(d for d in body["calendar"] if d["date"] == t.isoformat())
    assert today_cell["played"] is True
    assert today_cell["won"] is False
    assert body["games"]["bakers-dozen"]["current_streak"] == 0 == body["current_streak"]
