"""The site with every library patch off (``FRAMEWORK_PATCHES_OFF=all``, config/patches/)
works as with them on: through Daphne, as production serves it, a page and its static
file, a guest's ``GET /api/me/``, a start and a move over HTTP, and the play socket's
greeting, a move and its frame budget.  The same run with the patches on (the default) first proves that the
probe tells the two apart: each patch is in place there and in neither place here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from config.patches import PATCHES
from tests.frontend.conftest import start_server, stop_server
from tests.frontend.test_daphne_bodies import Browserless

APP = "tests.frontend.patches_probe:application"


@pytest.fixture(scope="module", params=["", "all"], ids=["patches on", "patches off"])
def served(request: pytest.FixtureRequest, server_env: dict[str, str]) -> Iterator[tuple[str, str]]:
    off = request.param
    # A socket's frame budget small enough to spend in a test (games/live/frames.py).
    env = {
        **server_env,
        "FRAMEWORK_PATCHES_OFF": off,
        "SOCKET_FRAMES_PER_SECOND": "5",
        "SOCKET_FRAME_BURST": "10",
    }
    proc, url = start_server(env, f"patches-{off or 'on'}-server.log", app=APP)
    try:
        yield off, url
    finally:
        stop_server(proc)


def test_each_patch_is_in_place_exactly_when_on(served):
    off, url = served
    c = Browserless(url)
    status, body = c.call("GET", "/__patches__")
    assert status == 200, body[:300]
    found = json.loads(body)
    assert found.pop("settings") == ([] if off else list(PATCHES))
    assert set(found) == set(PATCHES)
    assert found == dict.fromkeys(PATCHES, not off)


def _start(c: Browserless, url: str) -> dict:
    status, me = c.call("GET", "/api/me/", headers={"Accept": "application/json"})
    assert status == 200, me[:300]
    assert json.loads(me)["id"]
    body = json.dumps({"game": "freecell", "deal": "random"}).encode()
    status, answer = c.call(
        "POST",
        "/api/sessions/",
        body,
        {
            "Content-Type": "application/json",
            "X-CSRFToken": c.cookies["csrftoken"],
            "Referer": url,
            "Origin": url,
        },
    )
    assert status == 201, answer[:300]
    return json.loads(answer)


def test_a_page_its_stylesheet_a_start_and_a_move_over_http(served):
    _, url = served
    c = Browserless(url)
    status, page = c.call("GET", "/")
    assert status == 200, page[:300]
    sheet = re.search(rb'href="(/static/frontend/css/site\.[0-9a-f]+\.css)"', page)
    assert sheet, "the page names its hashed stylesheet"
    status, css = c.call("GET", sheet.group(1).decode())
    assert status == 200
    assert b"{" in css
    state = _start(c, url)
    move = state["legal_moves"][0]["move"]
    body = json.dumps({"seq": state["seq"], "move": move, "op": "http-1"}).encode()
    status, answer = c.call(
        "POST",
        f"/api/sessions/{state['id']}/moves/",
        body,
        {
            "Content-Type": "application/json",
            "X-CSRFToken": c.cookies["csrftoken"],
            "Referer": url,
            "Origin": url,
        },
    )
    assert status == 200, answer[:300]
    after = json.loads(answer)
    assert after["seq"] == state["seq"] + 1
    assert after["op"] == "http-1"


def _socket(url: str, c: Browserless, state: dict) -> Any:
    # The sync client: a browser test of the same run may leave this thread's loop running.
    cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    return connect(
        url.replace("http", "ws", 1) + f"/ws/sessions/{state['id']}/",
        additional_headers={"Cookie": cookie},
        origin=url,
    )


def test_the_play_socket_greets_and_plays_a_move(served):
    _, url = served
    c = Browserless(url)
    state = _start(c, url)
    with _socket(url, c, state) as ws:
        hello = json.loads(ws.recv(timeout=10))
        move = hello["legal_moves"][0]["move"]
        ws.send(json.dumps({"type": "move", "seq": hello["seq"], "move": move, "op": "ws-1"}))
        answer = json.loads(ws.recv(timeout=10))
    assert hello["type"] == "hello"
    assert hello["seq"] == state["seq"]
    assert answer["type"] == "state", answer
    assert answer["op"] == "ws-1"
    assert answer["seq"] == state["seq"] + 1


def test_the_play_sockets_frame_budget_holds_on_either_loop(served):
    """The budget is counted ahead of the consumer's dispatch, on its own loop (patch on)
    and on Channels' (off): past the burst a frame is refused unread, then the socket is
    closed."""
    _, url = served
    c = Browserless(url)
    state = _start(c, url)
    sent: list[dict] = []
    with _socket(url, c, state) as ws:
        ws.recv(timeout=10)  # the greeting
        with pytest.raises(ConnectionClosed) as closed:  # noqa: PT012 (a loop until closed)
            for _ in range(60):
                ws.send('{"type": "resume"}')
                sent.append(json.loads(ws.recv(timeout=10)))
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4429
    states = [m for m in sent if m["type"] == "state"]
    refused = [m for m in sent if m.get("error") == "rate_limited"]
    assert 10 <= len(states) <= 13, len(states)  # the burst, and what trickled back
    assert refused
