"""A dead end proved after the move's answer (the socket's verdict message) shows on the
table like any other: the page is told, it does not work it out."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from games.engine import endgame, new_game

from .conftest import Table, start_server, stop_server

GAME = "klondike-1-pass"


@pytest.fixture(scope="module")
def deferring_server(server_env: dict[str, str]) -> Iterator[str]:
    """The site with no event-loop time for a dead-end search: every verdict that needs one
    comes after its move's answer."""
    proc, url = start_server(
        {**server_env, "DEAD_END_LOOP_MS": "0"}, "frontend-deferring-server.log"
    )
    try:
        yield url
    finally:
        stop_server(proc)


def _seed(server_env: dict[str, str], session_id: str) -> int:
    with psycopg.connect(server_env["DATABASE_URL"]) as conn:
        row = conn.execute(
            "SELECT d.seed FROM games_gamesession s JOIN games_deal d ON d.id = s.deal_id "
            "WHERE s.id = %s",
            (session_id,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def _line_to_a_searched_dead_end(seed: int) -> list[str]:
    """Random moves from deal ``seed`` to a position with legal moves of which none can
    change the outcome (only the search proves it)."""
    for salt in range(400):
        rng = random.Random(salt)
        g = new_game(GAME, seed)
        tokens: list[str] = []
        for _ in range(250):
            moves = list(g.legal_moves())
            if not moves:
                break
            move = rng.choice(moves)
            tokens.append(g.notation(move))
            g.apply(move)
            if endgame.no_move_matters(g) and not endgame.no_legal_move(g):
                return tokens
    raise AssertionError("no searched dead end found")


def test_a_dead_end_told_after_the_answer_shows_its_notice(
    browser: Any, deferring_server: str, server_env: dict[str, str]
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        t = Table(ctx.new_page(), deferring_server).open(GAME)
        sid = t.s["id"]
        *before, last = _line_to_a_searched_dead_end(_seed(server_env, sid))
        for tok in before:  # over HTTP, each answered with its full verdict (all live)
            r = t.api(
                f"/api/sessions/{sid}/moves/",
                {"seq": t.api(f"/api/sessions/{sid}/")["body"]["seq"], "move": tok},
            )
            assert r["status"] == 200, r
            assert not r["body"]["no_legal_move"], r
        t.page.reload()
        t.page.wait_for_selector("#table[data-ready]")
        t.page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
        assert not t.page.locator("#notice.dead").is_visible()
        # The last move through the page's own connection, over the socket: its answer says
        # no dead end yet, and the verdict that follows turns the notice on.
        answer = t.page.evaluate("(tok) => window.solitaire.conn.move(tok)", last)
        assert answer["no_legal_move"] is False
        assert answer["seq"] == len(before) + 1
        notice = t.page.locator("#notice.dead")
        notice.wait_for(timeout=30000)
        assert "No more moves" in notice.inner_text()
        assert t.s["no_legal_move"] is True
        assert t.s["seq"] == len(before) + 1
        assert not t.errors
        assert not t.csp_violations
    finally:
        ctx.close()
