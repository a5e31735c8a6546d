"""One tap is one move on a slow connection, in the real browser.

The play socket's answers are held back 7 s, past the page's 5 s wait, so the page retries
the operation over HTTP, and the first HTTP tries fail too (a connection that is bad both
ways); the late socket answer arrives while the page is still retrying.  Before operations
carried their own id and seq, the next retry read the seq the late answer had advanced and
one stock tap became two stock turns.  (The server's half of the argument is in
tests/games/test_retries.py.)
"""

from __future__ import annotations

from typing import Any

import psycopg

from .conftest import DB_NAME, PG

HOLD_MS = 7000


def stored_moves(session_id: str) -> list[str]:
    with psycopg.connect(f"{PG}/{DB_NAME}") as conn:  # a row a move (games/play/moves.py)
        rows = conn.execute(
            "SELECT token FROM games_move WHERE session_id = %s ORDER BY seq", (session_id,)
        ).fetchall()
    return [r[0] for r in rows]


class HeldSocket:
    """Passes the page's messages on at once and holds the server's while ``holding``
    (the greeting on connect always goes through)."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[tuple[Any, Any]] = []

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: Any) -> None:
            if self.holding:
                self.held.append((ws, message))
            else:
                ws.send(message)

        server.on_message(from_server)

    def release(self) -> None:
        self.holding = False
        for ws, message in self.held:
            ws.send(message)
        self.held.clear()


def test_one_stock_tap_is_stored_once_when_the_socket_answers_late(new_table):
    t = new_table()
    held = HeldSocket()
    t.page.route_web_socket("**/ws/sessions/**", held.route)
    t.open("klondike", "random")
    t.page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
    sid = t.s["id"]

    http = {"cut": True, "tries": 0}

    def moves_over_http(route: Any) -> None:
        http["tries"] += 1
        if http["cut"]:
            route.abort()
        else:
            route.continue_()

    t.page.route("**/api/sessions/*/moves/", moves_over_http)
    held.holding = True
    t.pile("stock").click()
    t.page.wait_for_timeout(HOLD_MS)  # the page gave up on the socket; HTTP fails so far
    assert held.held, "the socket's answer was not held back"
    assert http["tries"] >= 1, "the page did not retry over HTTP"
    held.release()  # the late socket answer lands while the page is still retrying
    t.page.wait_for_timeout(300)
    http["cut"] = False
    t.page.wait_for_timeout(6000)  # the next HTTP try goes through

    assert stored_moves(sid) == ["s"]
    assert t.seq() == 1
    assert len(t.s["view"]["piles"]["waste"]) == 1

    # The connection is fine again: the next tap is the second move, once.
    t.pile("stock").click()
    t.wait_seq(1)
    t.page.wait_for_timeout(500)
    assert stored_moves(sid) == ["s", "s"]
    assert t.seq() == 2
    assert not t.errors
