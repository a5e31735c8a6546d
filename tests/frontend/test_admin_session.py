"""The admin's session page in a real browser: every stored field read-only, no Save that
would save nothing, and Re-validate, Disqualify and Reinstate working, each leaving an
entry in the audit trail."""

from __future__ import annotations

from typing import Any

import psycopg

from .conftest import DB_NAME, PG
from .test_review_queue import operator, scripted_win


def test_the_session_page_is_read_only_and_its_actions_work(
    new_table: Any, live_server_url: str
) -> None:
    sid = scripted_win(new_table())
    page: Any = operator(
        new_table(), live_server_url, "operator", f"/admin/games/gamesession/{sid}/change/"
    )
    page.wait_for_selector("#gamesession_form")
    form = page.locator("#gamesession_form")
    editable = form.locator("input:not([type=hidden]), select, textarea")
    assert editable.count() == 0, editable.evaluate_all("els => els.map(e => e.name)")
    assert page.locator("input[name=_save], a.deletelink").count() == 0
    for field in ("status", "ranked", "verified", "review", "client_key", "analysis"):
        assert page.locator(f".field-{field} .readonly").count() == 1, field

    page.click("#revalidate")
    page.wait_for_selector(".messagelist .success")
    assert "agrees" in page.locator(".messagelist").inner_text()

    page.click("#disqualify-link")
    page.fill("#reason", "a solver's line at machine speed")
    page.click("input[value^='Disqualify']")
    page.wait_for_selector("#disqualify-link", state="attached")
    assert page.locator("#disqualify-link").inner_text().lower() == "reinstate"
    page.click("#disqualify-link")
    page.fill("#reason", "the replay shows a person")
    page.click("input[value^='Reinstate']")
    page.wait_for_selector(".messagelist .success")
    with psycopg.connect(f"{PG}/{DB_NAME}") as conn:
        actions = [
            a
            for (a,) in conn.execute(
                "SELECT action FROM games_auditentry WHERE session_id = %s ORDER BY created_at",
                (sid,),
            ).fetchall()
        ]
        disqualified = conn.execute(
            "SELECT disqualified FROM games_gamesession WHERE id = %s", (sid,)
        ).fetchone()[0]
    assert actions[-3:] == ["revalidate", "disqualify", "reinstate"], actions
    assert disqualified is False
    audit = page.locator(".inline-group").inner_text()
    assert "disqualify" in audit
    assert "reinstate" in audit
