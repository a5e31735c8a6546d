"""The table's size follows the screen (docs/frontend.md, "The table's size and the
cards"): on a phone held upright the columns span its width and a long column fans over
the height left between the top row and the buttons, never past them; a desktop's cards
are bigger, up to a cap; the faces come from the sprite under its hashed name; FreeCell's
deal number and the practice banner show.  And the win's flourish: skipped by a key, left
out for a player who asks for reduced motion."""

from __future__ import annotations

import random
from typing import Any

from games.engine import new_game
from tests.conftest import fc_solve

from .helpers import play_tokens

MAX_CW = 120  # table.js

LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const cols = [...document.querySelectorAll('#table .pile.tableau')];
  const cards = [...document.querySelectorAll('#table .card')];
  return {
    vw: innerWidth, vh: innerHeight,
    scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight,
    left: Math.min(...cols.map((c) => box(c).left)), right: Math.max(...cols.map((c) => box(c).right)),
    upper: box(document.querySelector('#table .row.upper')).bottom,
    controls: box(document.querySelector('.controls')).top,
    cw: box(cards[0]).width,
    lowest: Math.max(...cards.map((c) => box(c).bottom)),
    columns: cols.map((c) => {
      const own = [...c.querySelectorAll('.card')].map(box);
      return { n: own.length, top: box(c).top, bottom: own.length ? own[own.length - 1].bottom : box(c).bottom,
               step: own.length > 1 ? own[1].top - own[0].top : 0 };
    }),
  };
}"""


def tokens_to_long_column(deal: int, length: int = 12, tries: int = 500) -> list[str]:
    """Moves from FreeCell ``deal`` (none to a foundation) that leave a column of ``length``
    cards or more: random play that piles onto the longest column whenever it can."""
    rng = random.Random(deal)
    for _ in range(tries):
        g = new_game("freecell", deal)
        path: list[str] = []
        for _step in range(80):
            if max(len(c) for c in g.tab) >= length:
                return path
            moves = [m for m in g.legal_moves() if "h" not in g.notation(m)]
            longest = max(range(8), key=lambda i: len(g.tab[i]))
            pool = [m for m in moves if m[1] == longest] or moves
            if not pool:
                break
            m = rng.choice(pool)
            path.append(g.notation(m))
            g.apply(m)
    raise AssertionError("no long column found")


def fits(fig: dict[str, Any], beside: bool = False) -> None:
    """Nothing runs past the window or under the buttons (``beside`` the table: past the
    window's bottom edge)."""
    small = {k: v for k, v in fig.items() if k != "columns"}
    assert fig["scrollW"] <= fig["vw"], small
    assert fig["scrollH"] <= fig["vh"], small
    assert fig["lowest"] <= (fig["vh"] if beside else fig["controls"] + 1), small


def test_a_phone_spans_the_width_and_fans_a_long_column_a_desktop_has_bigger_capped_cards(
    new_table: Any,
) -> None:
    t = new_table(390, 844, touch=True)
    sprites: list[str] = []
    t.page.on("response", lambda r: sprites.append(r.url) if "/cards/" in r.url and r.ok else None)
    t.open("freecell", "1")
    play_tokens(t, tokens_to_long_column(1))
    t.settle()
    phone = t.page.evaluate(LAYOUT)
    long = max(phone["columns"], key=lambda c: c["n"])
    assert long["n"] >= 12
    assert phone["right"] - phone["left"] >= 0.9 * phone["vw"], phone
    # The free height: from under the top row to the buttons.  Most of it, not a tight fan.
    assert long["bottom"] - long["top"] >= 0.75 * (phone["controls"] - phone["upper"]), phone
    assert long["step"] >= 12  # every card's corner still reads
    fits(phone)
    # FreeCell's deal number on the table, and a deal by number is practice, said so.
    assert t.page.locator("#st-deal").inner_text() == "#1"
    banner = t.page.locator("#st-ranked")
    assert banner.inner_text() == "Practice"
    assert "practice" in (banner.get_attribute("class") or "")

    t.page.set_viewport_size({"width": 1366, "height": 768})
    t.page.wait_for_timeout(200)
    desk = t.page.evaluate(LAYOUT)
    assert 1.8 * phone["cw"] <= desk["cw"] <= MAX_CW, (phone["cw"], desk["cw"])
    assert max(desk["columns"], key=lambda c: c["n"])["step"] >= 12
    fits(desk)

    t.page.set_viewport_size({"width": 844, "height": 390})
    t.page.wait_for_timeout(200)
    side = t.page.evaluate(LAYOUT)
    assert side["cw"] > phone["cw"]
    fits(side, beside=True)

    # The faces: the sprite by its hashed name, as collected for production.
    href = t.page.locator("#table .card[data-card] use").first.get_attribute("href")
    assert href
    assert t.base + href.split("#")[0] in sprites
    assert href.startswith("/static/frontend/cards/cards.")
    assert href.split("#")[0] != "/static/frontend/cards/cards.svg"


def _near_win(t: Any) -> None:
    sid = t.s["id"]
    for tok in fc_solve(617):
        r = t.api(
            f"/api/sessions/{sid}/moves/",
            {"seq": t.api(f"/api/sessions/{sid}/")["body"]["seq"], "move": tok},
        )
        if r["body"]["can_finish"]:
            break
    t.page.reload()
    t.page.wait_for_selector("#table[data-ready]")


WATCH = """() => { window.flourish = false; new MutationObserver(() => {
  if (document.querySelector('.celebration')) window.flourish = true; })
  .observe(document.body, { childList: true }); }"""


def test_the_win_flourish_is_skipped_by_a_key_and_left_out_with_reduced_motion(
    new_table: Any,
) -> None:
    t = new_table().open("freecell", "617")
    _near_win(t)
    t.page.get_by_role("button", name="Finish").click()
    t.page.locator(".celebration").wait_for(state="attached", timeout=30000)
    assert not t.page.locator("#win").is_visible()
    t.page.keyboard.press("Escape")
    t.page.locator("#win").wait_for(state="visible", timeout=500)
    assert not t.page.locator(".celebration").count()

    t = new_table().open("freecell", "617")
    t.page.emulate_media(reduced_motion="reduce")
    _near_win(t)
    t.page.evaluate(WATCH)
    t.page.get_by_role("button", name="Finish").click()
    t.page.locator("#win").wait_for(state="visible", timeout=30000)
    assert t.s["won"]
    assert not t.page.evaluate("window.flourish")


PAGES = [
    "/",
    "/fair/",
    "/privacy/",
    "/accessibility/",
    "/archive/",
    "/profile/",
    "/account/",
    "/rules/freecell/",
    "/rules/klondike/",
    "/leaderboards/freecell/",
]


def test_no_page_is_wider_than_a_phone(new_table: Any) -> None:
    """Every page fits a 390 px phone held upright: nothing scrolls sideways (the fair-play
    page's code block once made it 462 px wide); a wide block scrolls inside itself."""
    t = new_table(390, 844, touch=True)
    wide = {}
    for path in PAGES:
        t.page.goto(t.base + path)
        t.page.wait_for_load_state("load")
        width = t.page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    assert not wide, wide
