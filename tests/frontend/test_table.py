"""The table in a real browser (docs/rules.md, docs/api.md): every game by drag and by taps,
refusals with their reason, undo, hint, FreeCell's supermoves, picker, keyboard and finish,
the Klondike stock and Baker's Dozen highlights.  The pages around it: test_pages.py."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import DAILY_GAMES, GAMES
from tests.conftest import fc_solve
from tests.engine.kept_deals import KLONDIKE_LINE

from .helpers import (
    play_tokens,
    refused_pair,
    table_move,
    tokens_to_refused_supermove,
    tokens_to_supermove,
)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_plays_by_drag_and_taps_refuses_with_a_reason_undoes_and_hints(
    new_table: Any, game: str
) -> None:
    t = new_table().open(game, None if game in DAILY_GAMES else "random")
    page = t.page
    assert page.get_by_role("group", name="column 1", exact=True).count() == 1
    t.shot(f"{game}-desktop")

    # A legal move by drag: the cards land and the server counts the move.
    m = table_move(t)
    moves, seq = t.s["moves"], t.seq()
    t.drag(t.source(m), m["to"])
    t.wait_seq(seq)
    assert t.s["moves"] == moves + 1

    # A legal move by taps: tap the card (it may go straight up), then its destination.
    m = table_move(t)
    seq = t.seq()
    t.tap(t.source(m))
    page.wait_for_function(
        f"() => window.solitaire.state.sel || window.solitaire.state.s.seq > {seq}"
    )
    if t.seq() == seq:
        t.pile(m["to"]).click()
    t.wait_seq(seq)

    # A refused move: the card returns and one line says why.
    a, b = refused_pair(t)
    seq, before = t.seq(), t.s["view"]
    t.drag(t.card(a, len(before["piles"][a]) - 1), b)
    notice = page.locator("#notice.refusal")
    notice.wait_for(timeout=5000)
    assert len(notice.inner_text().strip()) > 5
    assert t.seq() == seq
    assert t.s["view"] == before

    # Undo takes the last move back.
    moves, seq = t.s["moves"], t.seq()
    page.get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert t.s["moves"] == moves - 1

    # A phone held upright: same game, redrawn to fit.
    view = t.s["view"]
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(150)
    assert t.s["view"] == view
    assert page.locator("#table").bounding_box()["width"] <= 390
    t.shot(f"{game}-phone")

    # A hint marks a move or says there is none.
    page.get_by_role("button", name="Hint").click()
    page.locator("#notice.hint, #notice.info, #notice.dead").wait_for(timeout=30000)
    assert page.locator("#notice").inner_text().strip()
    assert not t.errors


def test_the_table_page_is_light_and_makes_no_third_party_request(
    new_table: Any, live_server_url: str
) -> None:
    t = new_table()
    sizes: dict[str, int] = {}
    t.page.on(
        "response",
        lambda r: (
            sizes.__setitem__(r.url, len(r.body())) if r.url.endswith((".js", ".css")) else None
        ),
    )
    t.open("freecell", "1")
    t.page.wait_for_timeout(300)
    assert sum(sizes.values()) < 150_000, sizes
    # The stylesheet, the table's modules in one file (config/bundle.py), pwa.js, i18n.js.
    assert len(sizes) >= 4, sizes
    assert any("/play.bundle." in u for u in sizes), sizes
    assert all(u.startswith((live_server_url, "data:", "ws://127.0.0.1")) for u in t.requests), (
        t.requests
    )


def test_klondike_stock_turns_and_the_waste_turns_back(new_table: Any) -> None:
    t = new_table().open("klondike", "random")
    stock = t.page.get_by_role("button", name="stock")
    total = t.s["view"]["stock"]
    while t.s["view"]["stock"]:
        seq = t.seq()
        stock.click()
        t.wait_seq(seq)
    assert len(t.s["view"]["piles"]["waste"]) == total
    seq = t.seq()
    stock.click()
    t.wait_seq(seq)
    assert t.s["view"]["stock"] == total
    assert t.s["view"]["piles"]["waste"] == []


def test_bakers_dozen_lights_up_where_a_picked_card_can_go(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = new_table().open("bakers-dozen", kept_deals["bakers-dozen"])
    s = t.s
    ups = {m["from"] for m in s["legal_moves"] if m["to"].startswith("foundation")}
    m = table_move(t, lambda m: m["to"].startswith("tableau") and m["from"] not in ups)
    t.tap(t.source(m))
    lit = set(
        t.page.eval_on_selector_all("#table .pile.target", "els => els.map(e => e.dataset.pile)")
    )
    assert lit == {x["to"] for x in s["legal_moves"] if x["from"] == m["from"]}
    assert m["to"] in lit
    seq = t.seq()
    t.pile(m["to"]).click()
    t.wait_seq(seq)
    assert not t.page.locator("#table .pile.target").count()


def test_freecell_supermove_and_a_refused_supermove_with_its_reason(new_table: Any) -> None:
    t = new_table().open("freecell", "1")
    path, token = tokens_to_supermove(1)
    play_tokens(t, path)
    m = next(x for x in t.s["legal_moves"] if x["move"] == token)
    assert m["count"] >= 2
    assert t.page.locator("#st-limit").inner_text().startswith("Move ")
    seq = t.seq()
    t.drag(t.source(m), m["to"])
    t.wait_seq(seq)
    assert len(t.s["view"]["piles"][m["to"]]) >= m["count"] + 1

    t = new_table().open("freecell", "5")
    path, (i, j, k), reason = tokens_to_refused_supermove(5)
    play_tokens(t, path)
    seq = t.seq()
    src = f"tableau:{i}"
    t.drag(t.card(src, len(t.s["view"]["piles"][src]) - k), f"tableau:{j}")
    notice = t.page.locator("#notice.refusal")
    notice.wait_for()
    assert "free cells" in notice.inner_text()
    assert t.seq() == seq


def test_freecell_long_press_opens_the_run_picker(new_table: Any) -> None:
    t = new_table().open("freecell", "1")
    col = t.s["view"]["piles"]["tableau:0"]
    card = t.card("tableau:0", len(col) - 2)
    box = card.bounding_box()
    m = t.page.mouse
    m.move(box["x"] + box["width"] / 2, box["y"] + 8)
    m.down()
    t.page.wait_for_timeout(700)
    picker = t.page.locator("#picker")
    assert picker.is_visible()
    assert "2" in picker.inner_text()
    # Sliding onto the up arrow without lifting takes one more card.
    up = t.page.locator("#picker-up").bounding_box()
    m.move(up["x"] + up["width"] / 2, up["y"] + up["height"] / 2, steps=4)
    assert "3" in t.page.locator("#picker-text").inner_text()
    m.up()
    assert t.page.evaluate("window.solitaire.state.sel.index") == len(col) - 3
    assert picker.is_visible()
    t.page.get_by_role("button", name="one card fewer").click()
    assert "2" in t.page.locator("#picker-text").inner_text()
    t.page.keyboard.press("Escape")
    assert not picker.is_visible()
    assert t.page.evaluate("window.solitaire.state.sel") is None
    assert t.seq() == 0


def _keys_to(t: Any, pile: str) -> None:
    order = t.page.evaluate("window.solitaire.order")
    here = t.page.evaluate("window.solitaire.state.focus.pile")
    a, b = order.index(here), order.index(pile)
    right = (b - a) % len(order)
    left = (a - b) % len(order)
    key, n = ("ArrowRight", right) if right <= left else ("ArrowLeft", left)
    for _ in range(n):
        t.page.keyboard.press(key)


def keyboard_move(t: Any, token: str) -> None:
    """Play one FreeCell token with the keys of docs/rules.md ("Keyboard") only."""

    def pile_of(ch: str, card: str | None = None) -> str:
        if ch.isdigit():
            return f"tableau:{int(ch) - 1}"
        if ch == "h":
            return f"foundation:{card[1]}"
        return f"cell:{'abcd'.index(ch)}"

    count = int(token.split("v")[1]) if "v" in token else 1
    src = pile_of(token[0])
    cards = t.s["view"]["piles"][src]
    dest = pile_of(token[1], cards[-1])
    seq = t.seq()
    _keys_to(t, src)
    for _ in range(count - 1):
        t.page.keyboard.press("ArrowUp")
    t.page.keyboard.press("Space")
    _keys_to(t, dest)
    t.page.keyboard.press("Enter")
    t.wait_seq(seq)


def test_freecell_is_won_with_the_keyboard_alone(new_table: Any) -> None:
    solution = fc_solve(1)
    t = new_table().open("freecell", "1")
    t.page.locator("body").press("ArrowRight")
    for token in solution:
        keyboard_move(t, token)
    win = t.page.locator("#win")
    win.wait_for(state="visible")
    assert t.s["won"]
    assert "1" in t.page.locator("#win-deal").inner_text()
    t.shot("freecell-won")


def test_freecell_finish_sends_the_last_cards_up_one_by_one(new_table: Any) -> None:
    solution = fc_solve(617)
    t = new_table().open("freecell", "617")
    assert play_tokens(t, solution, until_finish=True)["can_finish"]
    up = t.s["cards_up"]
    assert up < 52
    finish = t.page.get_by_role("button", name="Finish")
    finish.click()
    # Any press stops it at once; Finish carries on.
    t.page.wait_for_function(f"() => window.solitaire.state.s.cards_up > {up}")
    t.page.keyboard.press("Escape")
    t.page.wait_for_timeout(400)
    stopped = t.s["cards_up"]
    assert stopped < 52
    assert not t.page.evaluate("window.solitaire.state.finishing")
    t.page.wait_for_timeout(300)
    assert t.s["cards_up"] == stopped
    t.page.get_by_role("button", name="Finish").click()
    t.page.locator("#win").wait_for(state="visible", timeout=30000)
    s = t.s
    assert s["won"]
    assert s["cards_up"] == 52
    assert s["moves"] >= 52 - up


def test_klondike_says_tap_to_finish_and_a_tap_sends_the_cards_up(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = new_table().open("klondike", kept_deals["klondike"])
    assert play_tokens(t, KLONDIKE_LINE, until_finish=True)["can_finish"]
    assert t.s["cards_up"] < 52
    t.page.locator("#notice", has_text="tap anywhere").wait_for()
    t.pile("tableau:3").click()
    t.page.locator("#win").wait_for(state="visible", timeout=30000)
    assert t.s["won"]
    assert t.s["cards_up"] == 52
