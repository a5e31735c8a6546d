"""The live race in two browsers on the same ranked daily: each sees the other's progress in
the strip beside the table, and no card ever comes with it."""

from __future__ import annotations

import json
import re
from typing import Any

CARD = re.compile(r"\b(?:10|[A2-9TJQK])[SHDC]\b")


def _race_frames(t: Any) -> list[dict[str, Any]]:
    """Every race message the page's sockets receive, as sent."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def got(payload: Any) -> None:
            msg = json.loads(payload)
            if isinstance(msg, dict) and msg.get("type") == "race":
                frames.append(msg)

        ws.on("framereceived", got)

    t.page.on("websocket", on_socket)
    return frames


def _moves(t: Any, n: int) -> None:
    for _ in range(n):
        seq = t.seq()
        t.pile("stock").click()
        t.wait_seq(seq)


def test_two_browsers_on_one_daily_see_each_others_progress_and_never_a_card(new_table):
    a, b = new_table(), new_table()
    frames_a, frames_b = _race_frames(a), _race_frames(b)
    a.open("klondike")
    b.open("klondike")
    assert a.s["ranked"]
    assert b.s["ranked"]
    assert a.s["deal"] == b.s["deal"]
    name_a = a.api("/api/me/")["body"]["display_name"]
    name_b = b.api("/api/me/")["body"]["display_name"]

    for t in (a, b):
        button = t.page.locator("#btn-race")
        assert button.is_visible()
        assert button.get_attribute("aria-pressed") == "false"
        button.click()
        assert button.get_attribute("aria-pressed") == "true"
        assert t.page.locator("#race").is_visible()
    _moves(a, 3)
    _moves(b, 1)

    # Each strip lists the other (never its own table), with the moves the server counted.
    b.page.wait_for_function(
        "([name, moves]) => [...document.querySelectorAll('#race-list li')].some("
        "li => li.textContent.includes(name) && li.textContent.includes('Moves: ' + moves))",
        arg=[name_a, a.s["moves"]],
        timeout=15000,
    )
    a.page.wait_for_function(
        "([name, moves]) => [...document.querySelectorAll('#race-list li')].some("
        "li => li.textContent.includes(name) && li.textContent.includes('Moves: ' + moves))",
        arg=[name_b, b.s["moves"]],
        timeout=15000,
    )
    strip_a = a.page.locator("#race").inner_text()
    strip_b = b.page.locator("#race").inner_text()
    assert name_a not in strip_a
    assert name_b not in strip_b
    assert f"Cards up: {a.s['cards_up']}" in strip_b
    a.shot("race-strip")

    fields = {"player", "session", "cards_up", "moves", "elapsed_ms", "finished"}
    for msg in frames_a + frames_b:
        assert set(msg) == {"type", "players"}
        assert all(set(p) == fields for p in msg["players"]), msg
        assert not CARD.search(json.dumps(msg)), msg
    assert frames_a
    assert frames_b
    assert not CARD.search(strip_a)
    assert not CARD.search(strip_b)

    # Turned off, the strip goes and its socket with it.
    a.page.locator("#btn-race").click()
    assert not a.page.locator("#race").is_visible()
    assert not a.errors
    assert not b.errors
