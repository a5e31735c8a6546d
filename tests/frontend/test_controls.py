"""The table's controls as a newcomer uses them (docs/rules.md, "Keyboard", "Mouse and
touch"): the letter keys work after a click on any button, and never while typing; a double
click acts once (but on a foundation card, where it sends the cards up); a card that cannot
be taken hold of says why, dragged or tapped, like every other refusal."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, endgame, seen

from .helpers import play_tokens
from .test_finish import _until


def test_the_letter_keys_work_after_a_click_on_any_button(new_table: Any) -> None:
    t = new_table().open("freecell", "1")
    page = t.page
    for tok in ("8a", "8b"):
        seq = t.seq()
        page.evaluate("(tok) => window.solitaire.move(tok)", tok)
        t.wait_seq(seq)
    # Undo clicked (the button has the focus now), then U: a second undo.
    seq = t.seq()
    page.get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert page.evaluate("() => document.activeElement.id") == "btn-undo"
    seq = t.seq()
    page.keyboard.press("u")
    t.wait_seq(seq)
    assert t.s["moves"] == 0
    # Typing in a field is typing: no shortcut.
    page.evaluate("""() => { const i = document.createElement('input'); i.id = 'typing';
                             document.querySelector('.controls').append(i); }""")
    page.locator("#typing").click()
    page.keyboard.type("uhnf")
    assert page.locator("#typing").input_value() == "uhnf"
    page.wait_for_timeout(300)
    assert t.seq() == seq + 1
    assert "?deal=1" in page.url
    assert page.locator("#notice.hint, #notice.searching").count() == 0
    # The Rules link focused, then N: a new deal.
    page.locator(".controls a.rules-link").first.focus()
    page.keyboard.press("n")
    page.wait_for_url("**/play/freecell/?deal=random")
    assert not t.errors


def test_h_asks_a_hint_after_a_click_on_race(new_table: Any) -> None:
    t = new_table().open("klondike")
    t.page.locator("#btn-race").click()
    assert t.page.evaluate("() => document.activeElement.id") == "btn-race"
    with t.page.expect_request(lambda r: "/hint" in r.url, timeout=10000):
        t.page.keyboard.press("h")
    t.page.locator("#notice.hint, #notice.info").wait_for(timeout=60000)
    assert t.page.locator("#notice").inner_text().strip()


def test_f_finishes_after_a_click_on_hint(new_table: Any, kept_deals: dict[str, str]) -> None:
    t = new_table().open("bakers-dozen", kept_deals["bakers-dozen"])
    path, _ = _until("bakers-dozen", lambda g: g.cards_up > 20 and endgame.can_finish(g))
    play_tokens(t, path)
    assert t.s["can_finish"]
    t.page.get_by_role("button", name="Hint").click()
    t.page.locator("#notice.hint, #notice.info").wait_for(timeout=60000)
    t.page.keyboard.press("f")
    t.page.locator("#win").wait_for(state="visible", timeout=60000)
    assert t.s["won"]


def _taps_twice(g: Game) -> bool:
    """A column's top card that a tap moves, and under it a card that a tap would move too
    once the first has gone (the second click of a double click lands on it)."""
    return _double_target(g) is not None


def _double_target(g: Game) -> dict[str, Any] | None:
    state = seen.state(g)
    for m in _tap_moves(state):
        after = g.copy()
        after.play(m["move"])
        if any(x["from"] == m["from"] for x in _tap_moves(seen.state(after))):
            return m
    return None


def _tap_moves(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves a tap on a column's top card plays: the one marked best where the game
    marks them (the Klondike family), a move up otherwise."""
    moves = [
        m for m in state["legal_moves"] if m["from"].startswith("tableau:") and m["count"] == 1
    ]
    if any(m.get("best") for m in state["legal_moves"]):
        return [m for m in moves if m.get("best")]
    return [m for m in moves if m["to"].startswith("foundation:")]


def _double_click_moves_once(t: Any, game: str) -> None:
    path, g = _until(game, _taps_twice)
    play_tokens(t, path)
    m = _double_target(g)
    assert m
    moves, seq = t.s["moves"], t.seq()
    t.settle()
    cards = t.s["view"]["piles"][m["from"]]
    # Near its top left corner, where a card of any size shows.
    t.card(m["from"], len(cards) - 1).dblclick(position={"x": 12, "y": 8})
    t.wait_seq(seq)
    t.page.wait_for_timeout(800)  # a second move would have been sent by now
    assert t.seq() == seq + 1, (m, t.s["moves"])
    assert t.s["moves"] == moves + 1, (m, t.s["moves"])


@pytest.mark.parametrize("game", ["klondike", "bakers-dozen"])
def test_a_double_click_on_a_card_moves_it_once(
    new_table: Any, kept_deals: dict[str, str], game: str
) -> None:
    _double_click_moves_once(new_table().open(game, kept_deals[game]), game)


def test_a_buried_bakers_dozen_card_says_why_it_cannot_be_taken(new_table: Any) -> None:
    phone = {"width": 390, "height": 844, "touch": True}
    for locale, words, screen in (
        ("en-US", "only the top card", {}),
        ("fr-FR", "seule la carte", phone),
    ):
        t = new_table(locale=locale, **screen).open("bakers-dozen")
        piles = t.s["view"]["piles"]
        col = next(p for p, cards in piles.items() if p.startswith("tableau:") and len(cards) >= 3)
        seq, view = t.seq(), t.s["view"]
        # Dragged onto another column: the cards stay, and one line says why.
        other = next(p for p in piles if p.startswith("tableau:") and p != col and piles[p])
        t.drag(t.card(col, 0), other)
        notice = t.page.locator("#notice.refusal")
        notice.wait_for(timeout=5000)
        assert words in notice.inner_text().lower()
        assert t.seq() == seq
        assert t.s["view"] == view
        # Tapped: the same line, nothing picked.
        t.page.evaluate("() => { window.solitaire.state.notice.said = true; }")
        t.tap(t.card(col, 1))
        t.page.wait_for_function("""() => { const n = window.solitaire.state.notice;
                                            return n && !n.said && n.kind === 'refusal'; }""")
        assert words in notice.inner_text().lower()
        assert t.page.evaluate("() => window.solitaire.state.sel") is None
        assert t.seq() == seq
