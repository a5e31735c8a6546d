"""Watching a game in Chromium (/replay/<id>/): before its day is closed only its player
may; after close_day, another player steps through it move by move.

The session is made on yesterday's daily (made for the test) and marked ranked in the
database: a ranked attempt at a past daily cannot be started through the site."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from typing import Any

import psycopg

from tests.frontend.conftest import ROOT


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )


def test_a_replay_opens_to_others_after_the_close_and_plays_step_by_step(
    new_table: Any, server_env: dict[str, str]
) -> None:
    owner = new_table()
    owner.page.goto(owner.base + "/")
    today = owner.api("/api/daily/")["body"]["date"]
    yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
    _manage(server_env, "create_daily_deals", "--date", yesterday)
    record = owner.api(f"/api/daily/{yesterday}/")["body"]["deals"]
    deal = next(d["deal"] for d in record if d["game"] == "freecell")
    owner.open("freecell", deal)
    sid = owner.s["id"]
    for seq in range(3):
        legal = owner.api(f"/api/sessions/{sid}/")["body"]["legal_moves"]
        assert (
            owner.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": legal[0]["move"]})[
                "status"
            ]
            == 200
        )
    with psycopg.connect(server_env["DATABASE_URL"]) as conn:
        conn.execute("UPDATE games_gamesession SET ranked = true WHERE id = %s", (sid,))

    other = new_table()
    other.page.goto(f"{other.base}/replay/{sid}/")
    other.page.locator("#rp-error").wait_for(state="visible")
    assert "closed" in other.page.locator("#rp-error").inner_text()
    assert other.page.locator("#table .card").count() == 0

    owner.page.goto(f"{owner.base}/replay/{sid}/")  # its player: at once
    owner.page.locator("#rp-step", has_text="0 / 3").wait_for()

    _manage(server_env, "close_day", yesterday)
    other.page.reload()
    step = other.page.locator("#rp-step")
    step.wait_for()
    other.page.locator("#rp-step", has_text="0 / 3").wait_for()
    assert other.page.locator("#table .card").count() == 52
    first = other.page.locator("#table").inner_html()
    other.page.get_by_role("button", name="Next").click()
    other.page.locator("#rp-step", has_text="1 / 3").wait_for()
    assert other.page.locator("#table").inner_html() != first
    other.page.keyboard.press("End")
    other.page.locator("#rp-step", has_text="3 / 3").wait_for()
    assert other.page.get_by_role("button", name="Next").is_disabled()
    # The closed day's board links the row to it.
    other.page.goto(f"{other.base}/leaderboards/freecell/?date={yesterday}")
    link = other.page.locator(f'a[href="/replay/{sid}/"]')
    link.wait_for()
    link.click()
    other.page.locator("#rp-step", has_text="0 / 3").wait_for()
    assert not other.errors, other.errors + owner.errors
    assert not owner.errors, other.errors + owner.errors
