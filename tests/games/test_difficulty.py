"""A daily's difficulty from the certifying search's effort (games/daily/medals.py), on
/api/daily/ and the table's state."""

from __future__ import annotations

import datetime as dt

import pytest

from games.daily import medals
from games.daily.deals import ensure_daily, load_certifier, today
from games.engine import DAILY_GAMES, GAMES
from games.models import Deal


@pytest.mark.parametrize("game", DAILY_GAMES)
def test_difficulty_from_effort_per_move_of_par(game):
    # Relative to the game's own thresholds, so that a recalibration keeps the test: at
    # most ``easy`` per move is easy, above ``hard`` is hard, medium between.
    easy, hard = GAMES[game].effort_per_move
    assert 0 < easy < hard
    par = 1000  # thresholds have at most three decimals: round(t * par) / par == t exactly
    assert medals.difficulty(game, par, round(easy * par)) == "easy"
    assert medals.difficulty(game, par, round(easy * par) + 1) == "medium"
    assert medals.difficulty(game, par, round(hard * par)) == "medium"
    assert medals.difficulty(game, par, round(hard * par) + 1) == "hard"
    assert medals.difficulty(game, None, 600) is None
    assert medals.difficulty(game, par, None) is None


def test_a_certified_daily_keeps_its_effort_and_shows_its_difficulty(api, settings):
    settings.SOLVER_BUDGET_SECONDS = 5
    day = today() + dt.timedelta(days=3)  # a day no other test makes
    deal = ensure_daily("freecell", day, load_certifier())
    assert deal.certified
    assert deal.par
    assert deal.effort
    assert deal.effort > 0
    # Today's dailies carry it; set one so the answer is known.
    c = api()
    todays = {d["game"]: d for d in c.get("/api/daily/").json()["deals"]}
    hard_effort = int(GAMES["freecell"].effort_per_move[1] * 80) + 1
    Deal.objects.filter(public_id=todays["freecell"]["deal"]).update(par=80, effort=hard_effort)
    todays = {d["game"]: d for d in c.get("/api/daily/").json()["deals"]}
    assert todays["freecell"]["difficulty"] == "hard"
    assert todays["freecell"]["par"] == 80
    s = c.start("freecell")
    assert s["difficulty"] == "hard"
    assert s["par"] == 80
