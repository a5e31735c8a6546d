"""The table's first card in one round trip after the page (frontend/templates/frontend/
start.js): the page starts its one request (a new session, or the one this browser keeps)
before it asks for its modules, asks for every module at once, and draws the table before
it opens the socket.  The page itself, fetched without running it, starts nothing."""

from __future__ import annotations

import urllib.request
from typing import Any

import psycopg

# When the first card enters the table, when the page makes its websocket, and whether the
# table had cards then.
PROBE = """
window.__seen = {};
new MutationObserver(() => {
  if (!window.__seen.card && document.querySelector('#table .card')) window.__seen.card = performance.now();
}).observe(document, { subtree: true, childList: true });
const Plain = window.WebSocket;
window.WebSocket = class extends Plain {
  constructor(...args) {
    super(...args);
    window.__seen.socket ??= performance.now();
    window.__seen.drawnFirst ??= !!document.querySelector('#table .card');
  }
};
"""

TIMING = """() => performance.getEntriesByType('resource').map((r) => ({
    url: r.name, start: r.startTime, type: r.initiatorType }))"""


def watch(t: Any) -> list[tuple[str, str]]:
    """The API requests the page makes from now on, in order, and the probe above."""
    t.page.add_init_script(PROBE)
    calls: list[tuple[str, str]] = []
    t.page.on(
        "request",
        lambda r: (
            calls.append((r.method, r.url.removeprefix(t.base))) if "/api/" in r.url else None
        ),
    )
    return calls


def visit(t: Any) -> dict[str, Any]:
    """Open Klondike's daily: when the page asked for what, and when it drew and connected."""
    t.open("klondike")
    t.page.wait_for_function("() => window.__seen.socket && window.solitaire.conn")
    return {
        "timing": t.page.evaluate(TIMING),
        "seen": t.page.evaluate("() => window.__seen"),
        "modules": t.page.evaluate(
            "() => document.querySelector('script[data-modules]').dataset.modules"
        ),
    }


def test_a_first_visit_starts_its_session_with_one_request_ahead_of_the_modules(
    new_table: Any,
) -> None:
    t = new_table()
    calls = watch(t)
    got = visit(t)
    # One request, the start (it makes the guest too): no /api/me/ before it.
    assert calls[0] == ("POST", "/api/sessions/"), calls
    assert not [c for c in calls if c[1].startswith("/api/me/")], calls
    assert t.s["ranked"] is True
    assert t.s["seq"] == 0
    timing = got["timing"]
    start = next(r for r in timing if r["url"].endswith("/api/sessions/"))
    modules = [r for r in timing if "/static/frontend/js/" in r["url"]]
    named = set(got["modules"].split(" "))
    # The table's modules are one file, collected as production collects them
    # (config/bundle.py), beside pwa.js and what it imports, which every page loads.
    assert len([u for u in named if "/play.bundle." in u]) == 1, named
    assert {u.split("/")[-1].split(".")[0] for u in named} == {"play", "pwa", "i18n"}, named
    # Every module the table loads was named by the page, so none waited for the module
    # importing it; and each was asked for after the start (only the two modules the page's
    # markup names, the bundle and pwa.js, may be found by the browser ahead of the script).
    assert {m["url"].removeprefix(t.base) for m in modules} - named <= {
        u for u in (m["url"].removeprefix(t.base) for m in modules) if "/pwa." in u
    }
    assert all(u.startswith("/static/frontend/js/") for u in named)
    late = [m for m in modules if "/play." not in m["url"] and "/pwa." not in m["url"]]
    assert late, (start, late)
    assert all(m["start"] >= start["start"] for m in late), (start, late)
    # The first card is on the table before the socket is made.
    assert got["seen"]["drawnFirst"] is True, got["seen"]
    assert not t.errors


def test_a_reload_asks_for_the_session_it_keeps_and_starts_none(new_table: Any) -> None:
    t = new_table()
    calls = watch(t)
    visit(t)
    session = t.s["id"]
    calls.clear()
    again = visit(t)
    assert calls[0] == ("GET", f"/api/sessions/{session}/"), calls
    assert not [c for c in calls if c[0] == "POST"], calls
    assert t.s["id"] == session
    assert again["seen"]["drawnFirst"] is True
    assert not t.errors


def test_fetching_the_page_without_running_it_starts_nothing(
    live_server_url: str, server_env: dict[str, str]
) -> None:
    def count() -> tuple[int, int]:
        with psycopg.connect(server_env["DATABASE_URL"]) as conn:
            sessions = conn.execute("SELECT count(*) FROM games_gamesession").fetchone()
            players = conn.execute("SELECT count(*) FROM games_player").fetchone()
        assert sessions is not None
        assert players is not None
        return sessions[0], players[0]

    before = count()
    for path in ("/play/klondike/", "/play/freecell/?deal=random"):
        with urllib.request.urlopen(live_server_url + path) as r:  # noqa: S310
            assert r.status == 200
            assert b'data-modules="/static/frontend/js/play.' in r.read()
    assert count() == before
