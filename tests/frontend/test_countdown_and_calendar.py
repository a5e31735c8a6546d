"""The home page counts down to the next dailies in the player's own time, and the profile
shows five weeks of days and the freezes held."""

from __future__ import annotations

import re
from typing import Any


def test_the_home_page_counts_down_to_the_next_deals(new_table: Any) -> None:
    t = new_table()
    t.page.goto(t.base + "/")
    line = t.page.locator("#countdown")
    line.wait_for(state="visible")
    first = line.inner_text()
    assert re.search(r"Next deals in \d+:\d\d:\d\d \(at .+ your time\)", first), first
    t.page.wait_for_timeout(1500)
    assert line.inner_text() != first  # it counts


def test_the_profile_shows_the_calendar_and_the_freezes(new_table: Any) -> None:
    t = new_table()
    t.page.goto(t.base + "/profile/")
    t.page.locator("#me-calendar .day").first.wait_for()
    assert t.page.locator("#me-calendar .day").count() == 35
    assert t.page.locator("#me-chart .bar").count() == 35
    assert t.page.locator("#me-freezes").inner_text() == "0"
    assert "missed" in (t.page.locator("#me-calendar .day").first.get_attribute("aria-label") or "")
    assert not t.errors, t.errors
