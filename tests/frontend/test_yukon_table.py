"""Yukon's table in a real browser, on a deal known by its line (tests/engine/yukon_deal.py):
a group out of order dragged by its first card, undone, and the finish once every card is
face up.  The generic table test (test_table.py) plays it by drag and taps as every game."""

from __future__ import annotations

from typing import Any

from tests.engine.yukon_deal import GROUP, LINE

from .helpers import play_tokens


def test_yukon_moves_a_group_out_of_order_and_finishes(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = new_table().open("yukon", kept_deals["yukon"])
    piles = t.s["view"]["piles"]
    assert piles["tableau:5"][-3:] == GROUP
    assert "stock" not in t.s["view"]
    assert t.page.locator('#table .pile[data-pile="stock"]').count() == 0
    # The five of clubs, under two cards that do not follow it, dragged onto the six.
    seq = t.seq()
    t.drag(t.card("tableau:5", len(piles["tableau:5"]) - 3), "tableau:3")
    t.wait_seq(seq)
    assert t.s["view"]["piles"]["tableau:3"][-3:] == GROUP
    assert (
        t.page.locator('#table .card[data-pile="tableau:3"]').count() == len(piles["tableau:3"]) + 3
    )
    seq = t.seq()
    t.page.get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert t.s["view"]["piles"] == piles

    assert play_tokens(t, LINE, until_finish=True)["can_finish"]
    assert t.s["cards_up"] < 52
    t.page.get_by_role("button", name="Finish").click()
    t.page.locator("#win").wait_for(state="visible", timeout=30000)
    assert t.s["won"]
    assert t.s["cards_up"] == 52
    t.shot("yukon-won")
    assert not t.errors
