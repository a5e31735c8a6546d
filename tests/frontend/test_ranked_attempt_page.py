"""The ranked attempt in the browser: the replay link cannot scout it, and resigning it
opens practice of the same deal."""

from __future__ import annotations


def test_replaying_an_open_ranked_daily_brings_back_the_attempt_and_resign_opens_practice(
    new_table,
):
    t = new_table()
    t.open("klondike")
    ranked = t.s
    assert ranked["ranked"] is True
    assert ranked["status"] == "playing"
    assert t.page.locator("#btn-resign").is_visible()
    t.pile("stock").click()
    t.wait_seq(0)

    # The "replay this deal" address, typed or followed while the attempt is open.
    t.open("klondike", ranked["deal"])
    assert t.s["id"] == ranked["id"]
    assert t.s["ranked"] is True
    t.page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('still open')"
    )

    t.page.once("dialog", lambda d: d.accept())
    t.page.locator("#btn-resign").click()
    t.page.wait_for_function("() => window.solitaire.state.s.status === 'resigned'")
    assert not t.page.locator("#btn-resign").is_visible()
    notice = t.page.locator("#notice")
    assert "resigned" in notice.inner_text()

    notice.get_by_role("button", name="Replay this deal").click()
    t.page.wait_for_selector("#table[data-ready]", timeout=30000)
    practice = t.s
    assert practice["id"] != ranked["id"]
    assert practice["ranked"] is False
    assert practice["deal"] == ranked["deal"]
    assert practice["seq"] == 0
    assert not t.errors
