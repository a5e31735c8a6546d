"""A ranked table whose socket is down when its day ends (frontend/static/frontend/js/
connection.js): its moves go over HTTP, and the server's 409 ``day_closed`` after midnight is
said on the table in the server's words, with the cards put back, never taken for a stale
sequence number and refetched without a word.

Midnight is crossed for real: a server of the test's own runs the daily clock (the settings'
DAILY_CLOCK_SHIFT_SECONDS, on top of any shift the run was given) so that its day ends a few
seconds after the table opens."""

from __future__ import annotations

import datetime as dt
import time
import zoneinfo
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Table, start_server, stop_server

# Seconds from the server's start to its midnight: enough to start it, open the table and
# play a move over HTTP on a busy machine.
LEAD = 40


class Cut:
    """The page's play sockets reach the server until ``cut()``; then the open one is closed
    as a network cut closes it (not a restart) and every new one is refused."""

    def __init__(self) -> None:
        self.down = False
        self.open: list[Any] = []

    def route(self, ws: Any) -> None:
        if self.down:
            ws.close(code=1011, reason="test")
            return
        ws.connect_to_server()
        self.open.append(ws)

    def cut(self) -> None:
        self.down = True
        for ws in self.open:
            ws.close(code=1011, reason="test")


@pytest.fixture
def near_midnight(server_env: dict[str, str]) -> Iterator[tuple[str, float]]:
    """A server on the session's database whose daily clock reaches the end of the current
    daily day ``LEAD`` seconds from now; its address and that midnight on the real clock."""
    base = int(server_env.get("DAILY_CLOCK_SHIFT_SECONDS", "0") or 0)
    zone = zoneinfo.ZoneInfo(server_env.get("DAILY_TIME_ZONE", "UTC"))
    day = dt.datetime.fromtimestamp(time.time() + base, zone).date()
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 0), tzinfo=zone).timestamp()
    shift = int(end - (time.time() + LEAD))
    proc, url = start_server(
        {**server_env, "DAILY_CLOCK_SHIFT_SECONDS": str(shift)}, "frontend-midnight-server.log"
    )
    try:
        yield url, end - shift
    finally:
        stop_server(proc)


def test_a_move_over_http_after_midnight_says_the_day_is_closed(
    browser: Any, near_midnight: tuple[str, float]
) -> None:
    url, midnight = near_midnight
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        t = Table(ctx.new_page(), url)
        cut = Cut()
        t.page.route_web_socket("**/ws/sessions/**", cut.route)
        t.open("klondike")
        assert t.s["ranked"] is True
        t.page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
        cut.cut()
        t.page.wait_for_function("() => !window.solitaire.conn.online")

        # Before midnight a move with the socket down goes over HTTP and is played.
        stock = t.page.get_by_role("button", name="stock")
        seq = t.seq()
        stock.click()
        t.wait_seq(seq)
        assert [r for r in t.requests if "/moves/" in r], t.requests
        assert time.time() < midnight - 1, "the table took the whole lead to open: raise LEAD"

        # After it, the same tap is refused with the server's reason, the table unmoved.
        t.page.wait_for_timeout(max(0.0, midnight + 1 - time.time()) * 1000)
        moves = len([r for r in t.requests if "/moves/" in r])
        seq, before = t.seq(), t.s["view"]
        stock.click()
        notice = t.page.locator("#notice.refusal")
        notice.wait_for(timeout=10000)
        said = notice.inner_text()
        assert "is closed" in said, said
        assert "ended at midnight" in said, said
        assert len([r for r in t.requests if "/moves/" in r]) > moves, "not over HTTP"
        assert t.page.evaluate("window.solitaire.conn.socket.isOpen()") is False
        assert t.seq() == seq
        assert t.s["view"] == before
        assert not t.errors
        assert not t.csp_violations
    finally:
        ctx.close()
