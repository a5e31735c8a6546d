"""Share from the win panel in Chromium: headless Chromium has no Web Share API, so the
result is copied; the copied text is the API's, word for word (games/daily/share.py)."""

from __future__ import annotations

from typing import Any

from tests.conftest import fc_solve


def test_share_copies_the_same_text_as_the_api(new_table: Any) -> None:
    t = new_table()
    t.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    t.open("freecell", "daily")
    sid = t.s["id"]
    for seq, token in enumerate(fc_solve(t.s["deal_number"])):
        r = t.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": token})
        assert r["status"] == 200, r
        if r["body"]["won"]:
            break
    t.page.reload()
    win = t.page.locator("#win")
    win.wait_for(state="visible", timeout=30000)
    assert t.page.evaluate("() => typeof navigator.share") == "undefined"
    assert t.page.locator("#win-board").is_visible()  # a daily: its board is one click away
    rank = t.page.locator("#win-rank")
    rank.wait_for(state="visible", timeout=10000)  # the rank, once the win is scored
    assert rank.inner_text().startswith("#")
    t.page.get_by_role("button", name="Share").click()
    t.page.locator("#win-share", has_text="Copied").wait_for()
    copied = t.page.evaluate("() => navigator.clipboard.readText()")
    expected = t.api(f"/api/sessions/{sid}/share/")["body"]["text"]
    assert copied == expected
    assert copied.startswith("Daily Solitaire · FreeCell ")
    # The board offers the same, on the player's own line.
    t.page.evaluate("() => navigator.clipboard.writeText('')")
    t.page.goto(f"{t.base}/leaderboards/freecell/")
    t.page.locator("#board-share").click()
    t.page.locator("#board-share", has_text="Copied").wait_for()
    assert t.page.evaluate("() => navigator.clipboard.readText()") == expected
    assert not t.errors, t.errors
