"""The archive (games/daily/archive.py): a month of opened dailies with the player's own best
result; a past daily played again is practice, with its own medal against par; a coming
day is never listed."""

from __future__ import annotations

import datetime as dt

from games.daily.deals import ensure_daily, today
from games.models import Deal
from tests.conftest import fc_solve


def test_a_past_daily_is_listed_with_my_result_and_played_again_as_practice(api):
    c = api()
    yesterday = today() - dt.timedelta(days=1)
    past = ensure_daily("freecell", yesterday)
    ensure_daily("freecell", today() + dt.timedelta(days=1))  # made ahead: not listed
    s = c.start("freecell", past.public_id)
    assert s["ranked"] is False  # a daily is ranked only on its own day
    line = fc_solve(past.seed)
    Deal.objects.filter(pk=past.pk).update(par=len(line))
    for seq, token in enumerate(line):
        r = c.move(s, seq, token)
    assert r.json()["won"]
    assert r.json()["medal"] == "gold"
    month = yesterday.strftime("%Y-%m")
    days = {d["date"]: d for d in c.get(f"/api/archive/freecell/?month={month}").json()["days"]}
    mine = days[yesterday.isoformat()]["mine"]
    assert mine["status"] == "won"
    assert mine["medal"] == "gold"
    assert mine["ranked"] is False
    assert days[yesterday.isoformat()]["deal"] == past.public_id
    assert (today() + dt.timedelta(days=1)).isoformat() not in days
    other = {
        d["date"]: d for d in api().get(f"/api/archive/freecell/?month={month}").json()["days"]
    }
    assert other[yesterday.isoformat()]["mine"] is None  # another player's result is not shown


def test_bad_months_and_games_are_refused(api):
    c = api()
    for bad in ("2026-13", "26-01", "1999-12", "x"):
        r = c.get(f"/api/archive/freecell/?month={bad}")
        assert r.status_code == 400, bad
        assert r.json()["reason"], bad
    assert c.get("/api/archive/klondike-1-pass/").status_code == 400
    assert c.get("/api/archive/freecell/").json()["month"] == today().strftime("%Y-%m")
