"""A table left open in a second tab while the game is resigned in the first: its next
move is refused with the reason, and the tab then shows the game resigned, with the same
standing notice a fresh page shows, instead of a table that looks playable and is not."""

from __future__ import annotations

from typing import Any

from tests.frontend.conftest import Table
from tests.frontend.helpers import table_move


def test_a_second_tab_shows_the_game_resigned_at_its_next_move(new_table: Any) -> None:
    first = new_table().open("freecell", "daily")
    second = Table(first.page.context.new_page(), first.base).open("freecell", "daily")
    assert second.s["id"] == first.s["id"]
    assert second.s["status"] == "playing"

    first.page.once("dialog", lambda d: d.accept())
    first.page.locator("#btn-resign").click()
    first.page.wait_for_function("() => window.solitaire.state.s.status === 'resigned'")
    assert second.s["status"] == "playing"  # nothing tells an idle tab (no push)

    m = table_move(second)
    second.drag(second.source(m), m["to"])
    second.page.wait_for_function("() => window.solitaire.state.s.status === 'resigned'")
    notice = second.page.locator("#notice")
    notice.wait_for()
    assert "resigned" in notice.inner_text().lower()
    assert not second.page.locator("#btn-resign").is_visible()
    assert not first.errors, (first.errors, second.errors)
    assert not second.errors, (first.errors, second.errors)
