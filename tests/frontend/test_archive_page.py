"""The archive page: this month's dailies, each a link that plays it again as practice."""

from __future__ import annotations

from typing import Any


def test_the_archive_lists_todays_daily_and_plays_it_again(new_table: Any) -> None:
    t = new_table()
    t.page.goto(t.base + "/archive/?game=bakers-dozen")
    today = t.page.evaluate(
        "() => JSON.parse(document.getElementById('page-data').textContent).today"
    )
    day = t.page.locator(f'.ar-day[data-date="{today}"]')
    day.wait_for()
    assert "not played" in day.inner_text()
    assert t.page.locator("#ar-next").is_disabled()  # no month after this one
    day.locator("a").first.click()
    t.page.wait_for_selector("#table[data-ready]")
    assert t.s["game"] == "bakers-dozen"
    assert t.s["date"] == today
    t.page.get_by_role("link", name="Archive").click()
    t.page.locator(f'.ar-day[data-date="{today}"]').wait_for()
    assert not t.errors, t.errors
