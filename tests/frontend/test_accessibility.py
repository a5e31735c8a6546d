"""Accessibility measured with axe-core (axe-playwright-python, which carries axe-core's
script) in Chromium: every page a player opens, in English and in French, with no serious
or critical violation.  Each page is checked once it is drawn (the table's cards, the
board's rows, the account's forms), since most of what matters is made by its script."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import GAMES

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the dev extras install it
    Axe = None

PAGES = [
    ("/", "main h1"),
    ("/profile/", "#me-name"),
    ("/account/", "#acct-name"),
    ("/account/password-reset/", "#f-reset"),
    ("/fair/", "main h1"),
    ("/rules/klondike/", "main h1"),
    ("/leaderboards/freecell/", "main h1"),
    ("/no/such/page/", "main h1"),
    ("/archive/?game=freecell", ".ar-day"),
    ("/privacy/", "main h1"),
    ("/accessibility/", "main h1"),
]
PAGES += [(f"/play/{game}/?deal=random", "#table[data-ready]") for game in GAMES]


def serious(page: Any) -> list[str]:
    """The serious and critical violations on the page as it is now, one line each."""
    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in {"serious", "critical"}:
            where = "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
            out.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}x): {v['help']} at {where}")
    return out


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
@pytest.mark.parametrize(("path", "ready"), PAGES)
def test_no_serious_accessibility_violation(
    new_table: Any, path: str, ready: str, locale: str
) -> None:
    if Axe is None:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[dev]')")
    t = new_table(locale=locale)
    t.page.goto(t.base + path)
    t.page.wait_for_selector(ready, timeout=30000)
    t.page.wait_for_load_state("networkidle")
    assert t.page.locator("html").get_attribute("lang") == locale[:2]
    found = serious(t.page)
    assert not found, "\n".join(found)


def test_the_check_finds_a_violation(new_table: Any) -> None:
    """The check itself: an image with no text alternative is reported."""
    if Axe is None:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[dev]')")
    t = new_table()
    t.page.goto(t.base + "/fair/")
    t.page.evaluate("""() => { const b = document.createElement('button');
        document.querySelector('main').append(b); }""")
    assert any(line.startswith("button-name") for line in serious(t.page))


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_win_panel_has_no_serious_violation(new_table: Any, locale: str) -> None:
    """The panel a won game shows (its labels were once pale green on white)."""
    if Axe is None:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[dev]')")
    from tests.conftest import fc_solve

    t = new_table(locale=locale).open("freecell", "617")
    sid = t.s["id"]
    for seq, token in enumerate(fc_solve(617)):
        r = t.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": token})
        assert r["status"] == 200, r
        if r["body"]["won"]:
            break
    t.page.reload()
    t.page.locator("#win").wait_for(state="visible", timeout=30000)
    t.page.wait_for_load_state("networkidle")
    found = serious(t.page)
    assert not found, "\n".join(found)
