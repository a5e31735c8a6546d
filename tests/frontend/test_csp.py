"""Every page under the Content-Security-Policy (config/settings/, config/security.py):
the header is strict, and Chromium reports no violation, nor any other console error, on
any page, the table played over its websocket included."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import ROOT

PAGES = [
    "/",
    "/play/klondike/",
    "/play/freecell/?deal=random",
    "/play/bakers-dozen/?deal=random",
    "/leaderboards/klondike/",
    "/profile/",
    "/fair/",
    "/rules/freecell/",
    "/account/",
]


def policy(t: Any, path: str) -> dict[str, list[str]]:
    response = t.page.goto(t.base + path)
    header = response.headers["content-security-policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split("; ")}


def test_the_policy_is_strict(new_table: Any) -> None:
    t = new_table()
    csp = policy(t, "/account/")
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"][0] == "'self'"
    assert csp["script-src"][1].startswith("'nonce-")
    assert len(csp["script-src"]) == 2  # no 'unsafe-inline', no host
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    port = t.base.rsplit(":", 1)[1]
    assert csp["connect-src"] == ["'self'", f"ws://127.0.0.1:{port}"]
    # A new nonce for every page: one that leaked is worth nothing on the next.
    assert policy(t, "/account/")["script-src"] != csp["script-src"]


@pytest.mark.parametrize("path", PAGES)
def test_no_page_breaks_under_the_policy(new_table: Any, path: str) -> None:
    t = new_table()
    t.page.goto(t.base + path)
    t.page.wait_for_load_state("networkidle")
    if path.startswith("/play/"):
        t.page.wait_for_selector("#table[data-ready]", timeout=30000)
        # The socket is up (the play page's own connection, allowed by connect-src).
        t.page.wait_for_function(
            "() => window.solitaire.conn && window.solitaire.conn.socket.isOpen()", timeout=10000
        )
    assert not t.console_errors, t.console_errors + t.errors
    assert not t.errors, t.console_errors + t.errors


def test_the_api_docs_and_the_admin_work_under_the_policy(new_table: Any) -> None:
    t = new_table()
    log = ROOT / "artifacts" / "frontend-server.log"
    seen = len(log.read_text().splitlines())
    t.page.goto(t.base + "/api/docs/")
    t.page.wait_for_selector(".swagger-ui .opblock", timeout=30000)  # drawn from the schema
    assert not any(
        "/static/" not in u and u.endswith(".js") and not u.startswith(t.base) for u in t.requests
    )
    t.page.goto(t.base + "/admin/login/")
    t.page.wait_for_selector("#id_username")
    t.page.wait_for_load_state("networkidle")
    # The admin names no icon, so the browser asks for /favicon.ico, which is no page (a
    # request the browser makes itself, out of the page's sight: the server's log has it).
    failed = [line for line in log.read_text().splitlines()[seen:] if '" 404 ' in line]
    assert all('"GET /favicon.ico"' in line for line in failed), failed
    errors = [e for e in t.console_errors if not (failed and e.startswith("Failed to load"))]
    assert not errors, errors + t.errors
    assert not t.errors, errors + t.errors


def test_a_page_with_an_inline_script_is_refused(new_table: Any) -> None:
    """The check itself: an inline script the policy does not allow is reported."""
    t = new_table()
    t.page.goto(t.base + "/account/")
    t.page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.ran = 1'; document.body.append(s); }""")
    t.page.wait_for_timeout(200)
    assert t.page.evaluate("window.ran") is None
    assert t.csp_violations
    t.console_errors.clear()  # seen: not a failure of the site's pages
