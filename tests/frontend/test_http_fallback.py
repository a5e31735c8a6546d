"""With no socket at all, the table's operations go over HTTP, each posted to its path in
api.js's one map of operations (connection.js, docs/frontend.md)."""

from __future__ import annotations

import re
from typing import Any


def test_a_move_and_an_undo_go_to_their_paths_while_the_socket_cannot_open(new_table: Any) -> None:
    t = new_table()
    page = t.page
    # Every play socket the page opens is closed at once by the browser's side.
    page.route_web_socket(re.compile(r".*/ws/sessions/.*"), lambda ws: ws.close())
    posted: list[tuple[str, str]] = []
    page.on(
        "request",
        lambda r: (
            posted.append((r.url, r.post_data or ""))
            if r.method == "POST" and "/api/sessions/" in r.url
            else None
        ),
    )
    t.open("freecell", "6")
    assert not page.evaluate("window.solitaire.conn.socket.isOpen()")
    t.tap(t.card("tableau:0", len(t.s["view"]["piles"]["tableau:0"]) - 1))
    t.pile("cell:0").click()
    t.wait_seq(0)
    assert t.s["moves"] == 1
    seq = t.seq()
    page.get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert t.s["moves"] == 0
    assert t.s["undo_count"] == 1
    paths = [re.sub(r".*/api/sessions/[^/]+/", "", url) for url, _ in posted]
    assert paths[-2:] == ["moves/", "undo/"], posted
    move_body, undo_body = posted[-2][1], posted[-1][1]
    assert '"move":' in move_body
    assert '"move":' not in undo_body  # the socket's message without its type: no token
