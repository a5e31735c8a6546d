"""The admin in a real browser: disqualifying from the session page is the same operation
as the review queue's (the player's win panel and profile say so, the queue lets it go),
move times read as times and offsets from the deal, the records the operations write are
read-only, and every page names the site."""

from __future__ import annotations

import re
from typing import Any

from .test_review_queue import operator, scripted_win

EPOCH_MS = re.compile(r"\b1\d{12}\b")  # a raw server time, ms since the epoch


def test_disqualifying_from_the_session_page_reaches_the_player_and_the_queue(
    new_table: Any, live_server_url: str
) -> None:
    player = new_table()
    sid = scripted_win(player)  # machine speed: under review
    assert player.api(f"/api/sessions/{sid}/")["body"]["review"]["state"] == "pending"
    page: Any = operator(
        new_table(), live_server_url, "disqualifier", f"/admin/games/gamesession/{sid}/change/"
    )
    page.wait_for_selector("#gamesession_form")
    assert "Daily Solitaire administration" in page.locator("#site-name").inner_text()
    assert "Django" not in page.title()
    assert "Django" not in page.locator("#header").inner_text()

    moves = page.locator(".field-move_table table")
    text = moves.inner_text()
    assert not EPOCH_MS.search(text), text[:300]
    first = moves.locator("tr.move-row").first.locator("td")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}", first.nth(2).inner_text())
    assert re.fullmatch(r"\+\d+:\d\d\.\d{3}", first.nth(3).inner_text())
    assert EPOCH_MS.fullmatch(first.nth(2).get_attribute("title"))  # kept for copying

    page.click("#disqualify-link")
    page.fill("#reason", "a solver's line at machine speed")
    page.click("input[value^='Disqualify']")
    page.wait_for_selector(".messagelist .success")

    page.goto(f"{live_server_url}/admin/games/winunderreview/")
    page.wait_for_selector("#changelist")
    assert page.locator(f"a[href$='/winunderreview/{sid}/change/']").count() == 0

    state = player.api(f"/api/sessions/{sid}/")["body"]["review"]
    assert state["state"] == "disqualified"
    assert state["verified"] is False
    player.open("freecell")  # the won daily: its win panel
    player.page.wait_for_selector("#win-review:not([hidden])")
    assert player.page.locator("#win-review").inner_text() == "Disqualified after review."
    player.page.goto(f"{live_server_url}/profile/")
    player.page.wait_for_selector("#me-reviews tr")
    assert "Disqualified after review." in player.page.locator("#me-reviews").inner_text()
    assert "Under review" not in player.page.locator("#me-reviews").inner_text()

    page.goto(f"{live_server_url}/admin/games/gamesession/{sid}/replay/")
    steps = page.locator("table.steps").inner_text()
    assert not EPOCH_MS.search(steps)
    assert "+0:" in steps


def test_audit_entries_entries_and_closed_days_are_read_only(
    new_table: Any, live_server_url: str
) -> None:
    sid = scripted_win(new_table())
    page: Any = operator(new_table(), live_server_url, "reader", "/admin/")
    page.wait_for_selector("#content-main")
    assert page.title().endswith("Daily Solitaire admin")
    page.goto(f"{live_server_url}/admin/games/gamesession/{sid}/change/")
    page.click("#revalidate")  # an audit entry to look at
    page.wait_for_selector(".messagelist .success")
    for listing in ("games/auditentry", "leaderboards/entry", "leaderboards/dayclosed"):
        page.goto(f"{live_server_url}/admin/{listing}/")
        page.wait_for_selector("#changelist")
        assert page.locator("#content-main a.addlink, .object-tools a").count() == 0, listing
        assert page.locator("select[name=action]").count() == 0, listing  # no bulk delete
        response = page.goto(f"{live_server_url}/admin/{listing}/add/")
        assert response.status == 403, listing
    for listing in ("games/auditentry", "leaderboards/entry"):
        page.goto(f"{live_server_url}/admin/{listing}/")
        page.locator("#result_list tbody tr th a").first.click()
        page.wait_for_selector("#content-main form, #content-main fieldset")
        editable = page.locator(
            "#content-main form input:not([type=hidden]), "
            "#content-main form select, #content-main form textarea"
        )
        assert editable.count() == 0, listing
        assert page.locator("input[name=_save], a.deletelink").count() == 0, listing
