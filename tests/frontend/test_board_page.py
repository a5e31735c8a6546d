"""The board page as a player sees it: an unfinished attempt is listed apart from the wins
with its status, never ranked above them, and the player's own row is pinned and marked."""

from __future__ import annotations

from typing import Any


def test_an_unfinished_attempt_sits_apart_and_my_row_is_pinned(new_table: Any) -> None:
    t = new_table().open("whitehorse", "daily")
    sid = t.s["id"]
    for seq in range(3):
        legal = t.api(f"/api/sessions/{sid}/")["body"]["legal_moves"]
        assert (
            t.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": legal[0]["move"]})["status"]
            == 200
        )
    t.page.goto(f"{t.base}/leaderboards/whitehorse/")
    me = t.page.locator("#board-me")
    me.wait_for(state="visible")
    assert "still playing" in me.inner_text()
    mine = t.page.locator("#board-unfinished-rows tr.me")
    mine.wait_for()
    assert "still playing" in mine.inner_text()
    assert t.page.locator("#board-rows tr.me").count() == 0  # not among the wins
    heads = t.page.locator("#board-unfinished th").all_inner_texts()
    assert "Status" in heads
    assert "Rank" not in heads
    assert not t.errors, t.errors
