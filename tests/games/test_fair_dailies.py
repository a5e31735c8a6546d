"""Commit, then reveal (docs/deals.md): a daily is fixed before its day opens, and anyone
can check it after the day closes without trusting the server.

What a player can compute before the reveal: the commitment, a SHA-256 over the seed and
128 bits of fresh salt, so no search over seeds (even FreeCell's 31-bit deal numbers) can
match it; the deal's public id only once its day has opened.  After the reveal: the seed and
salt, which hash to the published commitment and deal exactly the layout everyone played.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.daily.deals import ensure_daily, today
from games.engine import new_game
from games.models import Deal
from leaderboards.tasks import close_day


def test_the_coming_days_are_committed_and_cannot_be_played(api):
    c = api()
    tomorrow = today() + dt.timedelta(days=1)
    future = {g: ensure_daily(g, tomorrow) for g in ("klondike", "freecell")}
    listed = c.get("/api/daily/upcoming/").json()["deals"]
    mine = [d for d in listed if d["date"] == tomorrow.isoformat()]
    assert {d["game"] for d in mine} == {"klondike", "freecell"}
    for d in mine:
        assert set(d) == {"game", "date", "commitment"}
        assert d["commitment"] == future[d["game"]].commitment
        assert len(d["commitment"]) == 64
    for spec in (future["klondike"].public_id,):
        r = c.post("/api/sessions/", {"game": "klondike", "deal": spec})
        assert r.status_code == 400
        assert "not available" in r.json()["reason"]
    r = c.post("/api/sessions/", {"game": "freecell", "deal": future["freecell"].seed})
    assert r.status_code == 400
    assert "not available" in r.json()["reason"]
    day = c.get(f"/api/daily/{tomorrow.isoformat()}/").json()["deals"]
    assert all("deal" not in d and "seed" not in d for d in day)


def test_today_shows_its_commitment_and_keeps_its_seed(api):
    c = api()
    daily = c.get("/api/daily/").json()["deals"]
    assert all(len(d["commitment"]) == 64 for d in daily)
    record = c.get(f"/api/daily/{today().isoformat()}/").json()["deals"]
    assert record
    assert all("deal" in d and "seed" not in d and "salt" not in d for d in record)


def test_a_closed_day_reveals_a_seed_that_checks_out_and_deals_what_was_played(api):
    c = api()
    yesterday = today() - dt.timedelta(days=1)
    deal = ensure_daily("klondike", yesterday)
    seen = c.start("klondike", deal.public_id)  # what a player of that day was shown
    close_day(yesterday.isoformat())
    record = next(
        d
        for d in c.get(f"/api/daily/{yesterday.isoformat()}/").json()["deals"]
        if d["game"] == "klondike"
    )
    seed, salt = record["seed"], record["salt"]
    # Three lines and only hashlib: the check any player can run.
    text = f"daily-solitaire|v1|klondike|{yesterday.isoformat()}|{seed}|{salt}"
    assert hashlib.sha256(text.encode()).hexdigest() == record["commitment"]
    table = new_game("klondike", int(seed))
    shown = [seen["view"]["piles"][f"tableau:{i}"][-1] for i in range(7)]
    assert shown == [table.layout()["tableau"][i][-1] for i in range(7)]
    again = close_day(yesterday.isoformat())
    assert again
    assert Deal.objects.get(pk=deal.pk).revealed_at.isoformat() == record["revealed_at"]


def test_the_command_line_checks_a_revealed_day(db):
    yesterday = today() - dt.timedelta(days=1)
    deal = ensure_daily("freecell", yesterday)
    args = ["freecell", yesterday.isoformat(), str(deal.seed), deal.salt]
    ok = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", *args, deal.commitment],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.split("\n")[0].startswith("match")
    assert new_game("freecell", deal.seed).layout()["tableau"][0][0] in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", *args, "0" * 64],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1
    assert "no match" in bad.stdout


def test_operators_close_and_make_days_by_command(db):
    yesterday = today() - dt.timedelta(days=1)
    out = StringIO()
    call_command("create_daily_deals", "--date", yesterday.isoformat(), stdout=out)
    assert yesterday.isoformat() in out.getvalue()
    assert "commitment=" in out.getvalue()
    call_command("close_day", yesterday.isoformat(), stdout=StringIO())
    assert not Deal.objects.filter(date=yesterday, revealed_at__isnull=True).exists()
    with pytest.raises(CommandError, match="not over"):
        call_command("close_day", today().isoformat())
    assert not Deal.objects.filter(date=today(), revealed_at__isnull=False).exists()


def test_the_fair_page_explains_the_scheme_in_english_and_french_and_lists_the_days(client, db):
    yesterday, tomorrow = today() - dt.timedelta(days=1), today() + dt.timedelta(days=1)
    past, future = ensure_daily("freecell", yesterday), ensure_daily("klondike", tomorrow)
    close_day(yesterday.isoformat())
    past.refresh_from_db()
    page = client.get("/fair/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "daily-solitaire|v1|" in page
    assert past.commitment in page
    assert past.salt in page
    assert str(past.seed) in page
    assert future.commitment in page
    assert future.public_id not in page
    assert str(future.seed) not in page
    french = client.get("/fair/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Un jeu loyal que vous pouvez vérifier" in french
    assert past.commitment in french
