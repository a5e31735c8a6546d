"""The admin's review queue in a real browser: two scripted wins land under review, an
operator clears one and disqualifies the other, each with a reason in the audit trail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg

from tests.conftest import fc_solve

from .conftest import DB_NAME, PG

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "review-queue-pw-1"


def scripted_win(t) -> str:
    """The daily FreeCell won by sending a public solver's line at machine speed."""
    t.open("freecell")
    s = t.s
    for seq, token in enumerate(fc_solve(s["deal_number"])):
        assert (
            t.api(f"/api/sessions/{s['id']}/moves/", {"seq": seq, "move": token})["status"] == 200
        )
    return s["id"]


def operator(t, base: str, username: str, start: str) -> object:
    """A superuser made on the browser tests' database, signed in to the admin in ``t``'s
    browser at ``start``; the page."""
    env = {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "DEBUG": "1",
        "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
    }
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "createsuperuser",
            "--noinput",
            "--username",
            username,
            "--email",
            f"{username}@example.com",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    page = t.page
    page.goto(f"{base}/admin/login/?next={start}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    return page


def test_an_operator_clears_and_disqualifies_wins_under_review(new_table, live_server_url):
    wins = [scripted_win(new_table()), scripted_win(new_table())]
    page = operator(new_table(), live_server_url, "reviewer", "/admin/games/winunderreview/")
    page.wait_for_selector("#result_list")
    for sid, button, reason in (
        (wins[0], "Clear", "a fast person: the replay shows it"),
        (wins[1], "Disqualify", "a solver's line at machine speed"),
    ):
        page.click(f"a[href$='/winunderreview/{sid}/change/']")
        page.wait_for_selector("text=Why it is under review")
        assert page.locator("svg polyline").count() == 1
        page.fill("#reason", reason)
        page.click(f"input[value^='{button}']")
        page.wait_for_selector("#result_list, .paginator")
    with psycopg.connect(f"{PG}/{DB_NAME}") as conn:
        rows = dict(
            conn.execute(
                "SELECT id::text, review || '/' || verified::text || '/' || disqualified::text "
                "FROM games_gamesession WHERE id = ANY(%s::uuid[])",
                (wins,),
            ).fetchall()
        )
        audit = conn.execute(
            "SELECT action, reason FROM games_auditentry WHERE session_id = "
            "ANY(%s::uuid[]) ORDER BY created_at",
            (wins,),
        ).fetchall()
    assert rows == {wins[0]: "cleared/true/false", wins[1]: "disqualified/false/true"}
    assert [a for a, _ in audit] == ["review_clear", "review_disqualify"]
    assert audit[0][1].startswith("a fast person")
