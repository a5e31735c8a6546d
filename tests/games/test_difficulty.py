"""A daily's difficulty from the certifying search's effort (games/medals.py), on
/api/daily/ and the table's state."""

from __future__ import annotations

import datetime as dt

import pytest

from games import medals
from games.daily import ensure_daily, load_certifier, today
from games.models import Deal


@pytest.mark.parametrize("game,par,effort,expected", [
    ("freecell", 100, 600, "easy"), ("freecell", 100, 1500, "medium"),
    ("freecell", 100, 2500, "hard"), ("klondike", 100, 90, "easy"),
    ("klondike", 100, 300, "medium"), ("whitehorse", 100, 900, "hard"),
    ("bakers-dozen", 100, 3500, "hard"), ("freecell", None, 600, None),
    ("freecell", 100, None, None),
])
def test_difficulty_from_effort_per_move_of_par(game, par, effort, expected):
    assert medals.difficulty(game, par, effort) == expected


def test_a_certified_daily_keeps_its_effort_and_shows_its_difficulty(api, settings):
    settings.SOLVER_BUDGET_SECONDS = 5
    day = today() + dt.timedelta(days=3)  # a day no other test makes
    deal = ensure_daily("freecell", day, load_certifier())
    assert deal.certified and deal.par and deal.effort and deal.effort > 0
    # Today's dailies carry it; set one so the answer is known.
    c = api()
    todays = {d["game"]: d for d in c.get("/api/daily/").json()["deals"]}
    Deal.objects.filter(public_id=todays["freecell"]["deal"]).update(par=80, effort=80 * 30)
    todays = {d["game"]: d for d in c.get("/api/daily/").json()["deals"]}
    assert todays["freecell"]["difficulty"] == "hard" and todays["freecell"]["par"] == 80
    s = c.start("freecell")
    assert s["difficulty"] == "hard" and s["par"] == 80
