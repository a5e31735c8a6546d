"""Yukon's table in a real browser, on a deal known by its line (tests/engine/yukon_deal.py):
a group out of order dragged by its first card, undone, and the finish once every card is
face up.  The generic table test (test_table.py) plays it by drag and taps as every game."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from tests.engine.yukon_deal import GROUP, LINE, SEED

from .conftest import ROOT


def _deal(env: dict[str, str]) -> str:
    """The public id of the deal, made in the test server's database."""
    code = ("from games.models import Deal; "
            f"print(Deal.objects.get_or_create(game='yukon', seed={SEED})[0].public_id)")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                         check=True, capture_output=True, text=True, timeout=120)
    return out.stdout.strip().splitlines()[-1]


def test_yukon_moves_a_group_out_of_order_and_finishes(new_table: Any,
                                                        server_env: dict[str, str]) -> None:
    t = new_table().open("yukon", _deal(server_env))
    piles = t.s["view"]["piles"]
    assert piles["tableau:5"][-3:] == GROUP
    assert "stock" not in t.s["view"]
    assert t.page.locator('#table .pile[data-pile="stock"]').count() == 0
    # The five of clubs, under two cards that do not follow it, dragged onto the six.
    seq = t.seq()
    t.drag(t.card("tableau:5", len(piles["tableau:5"]) - 3), "tableau:3")
    t.wait_seq(seq)
    assert t.s["view"]["piles"]["tableau:3"][-3:] == GROUP
    assert t.page.locator('#table .card[data-pile="tableau:3"]').count() == len(piles["tableau:3"]) + 3
    seq = t.seq()
    t.page.get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert t.s["view"]["piles"] == piles

    sid = t.s["id"]
    seq = t.seq()
    for token in LINE:
        r = t.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": token})
        assert r["status"] == 200, r
        seq = r["body"]["seq"]
        if r["body"]["can_finish"]:
            break
    t.page.reload()
    t.page.wait_for_selector("#table[data-ready]")
    assert t.s["cards_up"] < 52
    t.page.get_by_role("button", name="Finish").click()
    t.page.locator("#win").wait_for(state="visible", timeout=30000)
    assert t.s["won"]
    assert t.s["cards_up"] == 52
    t.shot("yukon-won")
    assert not t.errors
