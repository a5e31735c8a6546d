"""Daily deals: one per daily game per day, secret-derived, made ahead, idempotent."""

from __future__ import annotations

import datetime as dt
import io

from django.core.management import call_command
from django.test import override_settings

from games.daily.deals import ensure_daily, load_certifier, today
from games.engine import DAILY_GAMES, daily_seed, replay
from games.models import Deal


def test_the_command_creates_today_and_the_next_days_once(db, settings):
    settings.SOLVER_BUDGET_SECONDS = 0.5  # the run time must not depend on the day's deals
    out = io.StringIO()
    call_command("create_daily_deals", "--days", "3", stdout=out)
    first = {(d.game, d.date): (d.seed, d.public_id) for d in Deal.objects.all()}
    assert len(first) == 3 * len(DAILY_GAMES)
    assert {day for _, day in first} == {today() + dt.timedelta(days=n) for n in range(3)}
    call_command("create_daily_deals", "--days", "3", stdout=io.StringIO())
    again = {(d.game, d.date): (d.seed, d.public_id) for d in Deal.objects.all()}
    assert again == first


def test_daily_seeds_come_from_the_server_secret(db):
    day = dt.date(2030, 1, 2)
    with override_settings(DAILY_SECRET="one secret"):
        a = ensure_daily("klondike", day)
    assert a.seed == daily_seed(day, "klondike", "one secret")
    Deal.objects.all().delete()
    with override_settings(DAILY_SECRET="another secret"):
        b = ensure_daily("klondike", day)
    assert b.seed != a.seed


def test_a_public_deal_id_does_not_reveal_the_seed(db):
    deal = ensure_daily("klondike", today())
    assert str(deal.seed) not in deal.public_id
    assert deal.public_id != ensure_daily("klondike", today() + dt.timedelta(days=1)).public_id


def test_a_daily_is_certified_by_the_solver_with_its_par(db):
    day = dt.date(2031, 5, 6)
    with override_settings(DAILY_SECRET="s"):
        deal = ensure_daily("freecell", day, load_certifier())
    assert deal.certified is True
    assert deal.par
    assert deal.par > 0
    cert = load_certifier()(day, "freecell", "s", budget=10)
    assert (deal.seed, deal.candidate) == (cert.seed, cert.candidate)
    assert replay("freecell", deal.seed, cert.moves).won


def test_a_day_without_a_certified_candidate_is_published_and_marked_uncertified(db):
    with override_settings(DAILY_SECRET="s"):
        deal = ensure_daily("whitehorse", dt.date(2031, 5, 7), lambda *a, **k: None)
    assert deal.certified is False
    assert deal.seed == daily_seed(dt.date(2031, 5, 7), "whitehorse", "s", 0)


def test_the_daily_api_lists_todays_deals_without_klondike_seeds(api):
    c = api()
    body = c.get("/api/daily/").json()
    assert body["date"] == today().isoformat()
    seeds = {d.game: d.seed for d in Deal.objects.filter(date=today())}
    text = str(body)
    for game in ("klondike", "klondike-draw3", "whitehorse"):
        assert str(seeds[game]) not in text
    assert all(d["playing"] == 0 for d in body["deals"])
    freecell = next(d for d in body["deals"] if d["game"] == "freecell")
    assert freecell["deal_number"] == seeds["freecell"]
