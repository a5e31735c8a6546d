"""Streak freezes (leaderboards/stats.py ``streak``, docs/rules.md "Streaks"), the
profile's five-week calendar, and the countdown to the next dailies."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player
from leaderboards.stats import FREEZES_MAX, streak

D = dt.date(2026, 3, 1)


def days(*offsets: int) -> list[dt.date]:
    return [D + dt.timedelta(days=n) for n in offsets]


def test_seven_days_in_a_row_earn_a_freeze_spent_on_the_next_missed_day():
    s = streak(days(*range(7)), now=D + dt.timedelta(days=6))
    assert (s.current, s.best, s.freezes) == (7, 7, 1)
    s = streak(days(*range(7), 8), now=D + dt.timedelta(days=8))  # day 7 missed
    assert (s.current, s.freezes, s.frozen) == (8, 0, days(7))
    # A second missed day with no freeze left ends the run.
    s = streak(days(*range(7), 10), now=D + dt.timedelta(days=10))
    assert (s.current, s.best) == (1, 7)


def test_at_most_two_freezes_and_a_broken_streak_keeps_none():
    s = streak(days(*range(21)), now=D + dt.timedelta(days=20))
    assert s.freezes == FREEZES_MAX == 2
    s = streak(days(*range(21), 24), now=D + dt.timedelta(days=24))  # 21, 22 frozen, 23 not
    assert s.frozen == days(21, 22)
    assert (s.current, s.freezes) == (1, 0)


def test_today_not_yet_won_keeps_the_run():
    s = streak(days(*range(3)), now=D + dt.timedelta(days=3))
    assert s.current == 3


@given(st.sets(st.integers(0, 60), max_size=40), st.integers(0, 70))
def test_freezes_never_shorten_a_streak(won, now):
    """With freezes a run is at least as long as the plain run of consecutive days."""
    won_days = days(*won)
    end = D + dt.timedelta(days=max(now, max(won, default=0)))
    s = streak(won_days, now=end)
    plain = 0
    day = end if end in won_days else end - dt.timedelta(days=1)
    while day in won_days:
        plain += 1
        day -= dt.timedelta(days=1)
    assert s.current >= plain
    assert 0 <= s.freezes <= FREEZES_MAX
    assert s.best >= s.current
    assert not set(s.frozen) & set(won_days)


def test_the_profile_calendar_shows_five_weeks_with_the_won_days(api):
    c = api()
    me = Player.objects.get(pk=c.me["id"])
    yesterday = today() - dt.timedelta(days=1)
    deal = ensure_daily("freecell", yesterday)
    GameSession.objects.create(
        player=me,
        deal=deal,
        game="freecell",
        ranked=True,
        status="won",
        started_at=timezone.now(),
        cards_up=52,
    )
    stats = c.get("/api/me/stats/").json()
    cal = stats["calendar"]
    assert len(cal) == 35
    assert cal[-1]["date"] == today().isoformat()
    mine = next(d for d in cal if d["date"] == yesterday.isoformat())
    assert mine["won"]
    assert mine["played"]
    assert mine["cards_up"] == 52
    assert stats["freezes"] == 0
    assert stats["frozen_days"] == []


def test_the_countdown_names_the_next_midnight_of_the_daily_time_zone(api, settings):
    settings.DAILY_TIME_ZONE = "Pacific/Auckland"
    d = api().get("/api/daily/").json()
    opens = dt.datetime.fromisoformat(d["next_at"].replace("Z", "+00:00"))
    # ``next_at`` is a real instant; the calendar it opens a day of runs on the daily clock.
    shift = dt.timedelta(seconds=settings.DAILY_CLOCK_SHIFT_SECONDS)
    local = (opens + shift).astimezone(zoneinfo.ZoneInfo("Pacific/Auckland"))
    assert (local.hour, local.minute) == (0, 0)
    assert local.date() == dt.date.fromisoformat(d["date"]) + dt.timedelta(days=1)
    assert dt.timedelta(0) < opens - timezone.now() <= dt.timedelta(hours=25)
