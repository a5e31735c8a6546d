"""The page's socket module in the real browser: a server that closes with 4012 (restarting,
config/drain.py) is reconnected within a fraction of a second drawn at random, and the table
does not call it a cut; any other close waits a jittered, growing delay.

``Math.random`` is pinned per page, so the waits are exact: 0 draws the shortest, 0.999 the
longest.  The play socket goes through a route that closes the first connections with the
codes given and then hands the page to the real server.  (Before 4012, every close waited
0.5, 1, 2 s... alike, in lockstep across pages.)"""

from __future__ import annotations

import time
from typing import Any

CLOSE_RESTART = 4012


REFUSED = 0  # closed before it opens, as a server that is down


class Closing:
    """Closes the page's first play sockets, one for each of ``codes``: with that code once
    the server's greeting has reached the page, or before the socket opens (REFUSED); then
    lets the page through to the server.  Notes when each was asked for and closed."""

    def __init__(self, codes: list[int]) -> None:
        self.codes = list(codes)
        self.asked: list[float] = []
        self.closed: list[float] = []

    def route(self, ws: Any) -> None:
        self.asked.append(time.monotonic())
        code = self.codes.pop(0) if self.codes else None
        if code == REFUSED:
            self.closed.append(time.monotonic())
            ws.close(code=1011, reason="test")
            return
        server = ws.connect_to_server()
        if code is None:
            return

        def greeted(message: Any) -> None:  # the page is connected and greeted: now close
            ws.send(message)
            self.closed.append(time.monotonic())
            ws.close(code=code, reason="test")

        server.on_message(greeted)

    def gaps(self) -> list[float]:
        """From each close to the next connection asked for."""
        return [b - a for a, b in zip(self.closed, self.asked[1:], strict=False)]


def _table(new_table: Any, random: float, closing: Closing) -> Any:
    t = new_table()
    t.page.add_init_script(f"Math.random = () => {random};")
    t.page.route_web_socket("**/ws/sessions/**", closing.route)
    t.open("freecell", "random")
    return t


def _wait_for(t: Any, closing: Closing, count: int, timeout: float = 15) -> list[tuple[int, bool]]:
    """Waits for ``count`` connections; what the table said of its connection meanwhile,
    with how many connections had been asked for then."""
    said = []
    deadline = time.monotonic() + timeout
    while len(closing.asked) < count and time.monotonic() < deadline:
        t.page.wait_for_timeout(50)
        said.append((len(closing.asked), t.page.evaluate("window.solitaire.conn.online")))
    assert len(closing.asked) >= count, closing.asked
    return said


def test_a_restarting_server_is_reconnected_at_once_and_other_closes_back_off(new_table):
    closing = Closing([CLOSE_RESTART, CLOSE_RESTART, 1011, REFUSED, REFUSED])
    t = _table(new_table, 0.0, closing)
    said = _wait_for(t, closing, 6)
    t.page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
    g = closing.gaps()
    assert g[0] < 0.25, g
    assert g[1] < 0.25, g  # 4012: a random share of a second, here none
    assert 0.24 <= g[2] < 0.45, g  # any other close: half of 0.5 s at the least...
    assert 0.48 <= g[3] < 0.8, g  # ...then, while the server refuses, half of 1 s...
    assert 0.98 <= g[4] < 1.4, g  # ...and of 2 s: growing
    # The 1011 was a cut, and the table said so; it is back once a socket opens.
    assert (3, False) in said, said
    t.page.wait_for_function("() => window.solitaire.conn.online")
    assert not t.errors


def test_the_wait_after_a_restart_is_drawn_under_a_second(new_table):
    closing = Closing([CLOSE_RESTART])
    t = _table(new_table, 0.999, closing)
    said = _wait_for(t, closing, 2)
    t.page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
    assert 0.9 <= closing.gaps()[0] < 1.6, closing.gaps()
    # A restart is no cut: the table never said it was offline in that second.
    assert said, said
    assert all(up for _, up in said), said
    assert not t.errors
