"""Finishing and taps in a real browser, as docs/rules.md says (Finish and auto finish, Mouse
and touch): Klondike's "tap to finish" only once every card is face up and the stock is
empty, a tap on the bare table or Enter to start it, any press to stop it, undo one card at
a time; a double click on a foundation card sends up every card that can go; Baker's
Dozen's Auto finish only where it wins, with Send up beside it; a Klondike tap sends a
card to its best destination, a column as well as a foundation."""

from __future__ import annotations

from typing import Any

from games.engine import Game, endgame, new_game
from tests.engine.kept_deals import LINES

from .helpers import play_tokens


def _open(new_table: Any, kept_deals: dict[str, str], game: str, **kw: Any) -> Any:
    """A table of ``game``'s kept deal (tests/engine/kept_deals.py): the same on any date."""
    return new_table(**kw).open(game, kept_deals[game])


def _until(game: str, want: Any) -> tuple[list[str], Game]:
    """The first moves of the kept line of ``game`` after which ``want(g)``, and the table
    they lead to (found with the engine: the browser never sees it)."""
    seed, line = LINES[game]
    g = new_game(game, seed)
    done: list[str] = []
    for tok in line:
        if want(g):
            return done, g
        g.play(tok)
        done.append(tok)
    raise AssertionError(f"the kept line of {game} never reaches such a table")


def _all_face_up_with_a_stock(t: Any) -> Game:
    """Klondike's kept deal played until every card is face up, the stock then refilled if
    the line had emptied it: the table is shown with cards in the stock."""
    path, g = _until("klondike", lambda g: not any(g.down) and (g.stock or g.waste))
    if not g.stock:
        path.append("r")
        g.play("r")
    play_tokens(t, path)
    return g


def _felt(t: Any) -> tuple[float, float]:
    """A point of the table that is no pile: bare felt."""
    point = t.page.evaluate("""() => {
        const r = document.getElementById('table').getBoundingClientRect();
        for (let y = r.top + 3; y < r.bottom; y += 5) for (let x = r.left + 3; x < r.right; x += 5) {
            const el = document.elementFromPoint(x, y);
            if (el && el.closest('#table') && !el.closest('.pile')) return [x, y];
        }
        return null;
    }""")
    assert point, "no bare felt on the table"
    return point[0], point[1]


def _idle(t: Any) -> None:
    t.page.wait_for_function("() => !window.solitaire.state.finishing")


def test_klondike_offers_tap_to_finish_only_with_the_stock_empty_then_a_tap_on_bare_felt_wins(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = _open(new_table, kept_deals, "klondike")
    _all_face_up_with_a_stock(t)
    s = t.s
    assert s["view"]["stock"] > 0
    assert not s["can_finish"]
    assert "tap anywhere" not in t.page.locator("#notice").inner_text()
    # Bare felt does nothing while nothing is offered.
    seq = t.seq()
    t.page.mouse.click(*_felt(t))
    t.page.wait_for_timeout(300)
    assert t.seq() == seq
    stock = t.page.get_by_role("button", name="stock")
    while t.s["view"]["stock"]:
        assert not t.s["can_finish"]
        seq = t.seq()
        stock.click()
        t.wait_seq(seq)
    t.page.locator("#notice", has_text="tap anywhere").wait_for()
    assert t.s["can_finish"]
    t.shot("klondike-tap-to-finish")
    t.settle()
    t.page.mouse.click(*_felt(t))
    t.page.locator("#win").wait_for(state="visible", timeout=60000)
    assert t.s["won"]
    assert t.s["cards_up"] == 52
    assert not t.errors


def _ready_to_finish(t: Any) -> Game:
    """Klondike's kept deal with every card face up and the stock turned out: tap to finish."""
    g = _all_face_up_with_a_stock(t)
    turns = []
    while g.stock:
        g.play("s")
        turns.append("s")
    assert endgame.can_finish(g)
    body = play_tokens(t, turns)
    assert body["can_finish"]
    return g


def test_enter_finishes_any_press_stops_it_and_undo_brings_the_cards_back_one_at_a_time(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = _open(new_table, kept_deals, "klondike")
    _ready_to_finish(t)
    up, start = t.s["cards_up"], t.s["moves"]
    assert up < 50
    t.page.keyboard.press("Enter")
    t.page.wait_for_function(f"() => window.solitaire.state.s.cards_up >= {up + 2}")
    # A press anywhere (here on a column's card) stops it, and does nothing else.
    # (A locator's click: the table is drawn again with every move, so an element found
    # a moment ago may already have been replaced.)
    t.page.locator('#table .card[data-pile^="tableau:"]').first.click(position={"x": 20, "y": 5})
    _idle(t)
    t.page.wait_for_timeout(500)  # a move in flight may land
    stopped = t.s["cards_up"]
    assert up + 2 <= stopped < 52
    assert not t.s["won"]
    assert t.page.evaluate("window.solitaire.state.sel") is None
    t.page.wait_for_timeout(400)
    assert t.s["cards_up"] == stopped
    # Undo takes the moves back one by one: one card (or one turn of the stock) each.
    undo = t.page.get_by_role("button", name="Undo")
    while t.s["moves"] > start:
        before, seq = t.s, t.seq()
        undo.click()
        t.wait_seq(seq)
        after = t.s
        assert after["moves"] == before["moves"] - 1
        assert before["cards_up"] - after["cards_up"] in (0, 1)
    assert t.s["cards_up"] == up
    # Back where it was: the finish is offered again, and a key stops it too.
    t.page.locator("#notice", has_text="tap anywhere").wait_for()
    t.page.evaluate("document.activeElement.blur()")  # Enter on the Undo button is Undo
    t.page.keyboard.press("Enter")
    t.page.wait_for_function(f"() => window.solitaire.state.s.cards_up >= {up + 1}")
    t.page.keyboard.press("x")
    _idle(t)
    assert not t.s["won"]
    # Started, stopped and started again at once, a move still in flight: one run goes on,
    # never two sending the same card, and the game is won.
    for key in ("Enter", "x", "Enter"):
        t.page.keyboard.press(key)
    t.page.locator("#win").wait_for(state="visible", timeout=60000)
    assert t.s["won"]
    assert not t.page.locator("#notice.refusal").count()
    assert not t.errors


def _foundation_top(t: Any) -> Any:
    piles = t.s["view"]["piles"]
    name = next(p for p in piles if p.startswith("foundation:") and piles[p])
    return t.card(name, len(piles[name]) - 1)


def _ups(g: Game) -> tuple[int, int]:
    """The moves that send cards up one after another now, without the stock, and the
    cards they send up (in Baker's Dozen an ace a move uncovers goes up with it)."""
    g2 = g.copy()
    n = 0
    while (m := endgame.foundation_move(g2)) is not None:
        g2.apply(m)
        n += 1
    return n, g2.cards_up - g.cards_up


def test_a_double_click_on_a_foundation_card_sends_up_every_card_that_can_go(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = _open(new_table, kept_deals, "klondike")
    path, g = _until(
        "klondike", lambda g: _ups(g)[0] >= 2 and g.cards_up and not endgame.can_finish(g)
    )
    play_tokens(t, path)
    s = t.s
    n, cards = _ups(g)
    want = s["cards_up"] + cards
    t.settle()
    _foundation_top(t).dblclick()
    t.page.wait_for_function(f"() => window.solitaire.state.s.cards_up === {want}")
    _idle(t)
    s2 = t.s
    assert s2["view"]["stock"] == s["view"]["stock"], "the stock is not touched"
    assert not [
        m
        for m in s2["legal_moves"]
        if m["to"].startswith("foundation") and not m["from"].startswith("foundation")
    ]
    assert s2["moves"] == s["moves"] + n
    assert not t.errors


def test_a_double_click_on_a_foundation_card_while_tap_to_finish_shows_finishes(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    """The first click starts the finish; the second is the same gesture, not a press
    that stops it."""
    t = _open(new_table, kept_deals, "klondike")
    _ready_to_finish(t)
    t.page.locator("#notice", has_text="tap anywhere").wait_for()
    t.settle()
    _foundation_top(t).dblclick()
    t.page.locator("#win").wait_for(state="visible", timeout=60000)
    assert t.s["won"]


def test_bakers_dozen_offers_auto_finish_only_where_it_wins_and_send_up_beside_it(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = _open(new_table, kept_deals, "bakers-dozen")
    path, g = _until("bakers-dozen", lambda g: _ups(g)[0] and not endgame.can_finish(g))
    play_tokens(t, path)
    third = t.page.locator("#btn-third")
    send_up = t.page.get_by_role("button", name="Send up")
    assert not t.s["can_finish"]
    assert third.inner_text() == "New deal"
    assert send_up.is_enabled()
    up = t.s["cards_up"]
    n, cards = _ups(g)
    send_up.click()
    t.page.wait_for_function(f"() => window.solitaire.state.s.cards_up === {up + cards}")
    _idle(t)
    assert not t.s["won"]
    assert third.inner_text() == "New deal"
    t.page.wait_for_function("() => document.getElementById('btn-send-up').disabled")

    # Further along the same line, where sending everything up wins: Auto finish.  The
    # table differs from the line's by the cards sent up: undo them, then play on.
    rest, h = _until("bakers-dozen", endgame.can_finish)
    assert len(rest) > len(path)
    assert h.cards_up < 52
    undo = t.page.get_by_role("button", name="Undo")
    for _ in range(n):
        seq = t.seq()
        undo.click()
        t.wait_seq(seq)
    assert t.s["cards_up"] == up
    play_tokens(t, rest[len(path) :])
    assert t.s["can_finish"]
    t.page.get_by_role("button", name="Auto finish").click()
    t.page.locator("#win").wait_for(state="visible", timeout=60000)
    assert t.s["won"]
    assert t.s["cards_up"] == 52
    assert not t.errors


def test_a_klondike_tap_sends_a_card_to_its_best_destination_a_column_too(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = _open(new_table, kept_deals, "klondike")
    for _ in range(60):
        s = t.s
        ups = {
            (m["from"], m["count"]) for m in s["legal_moves"] if m["to"].startswith("foundation")
        }
        col = [
            m
            for m in s["legal_moves"]
            if m.get("best")
            and m["to"].startswith("tableau")
            and (m["from"], m["count"]) not in ups
        ]
        if col:
            break
        seq = t.seq()
        t.pile("stock").click()
        t.wait_seq(seq)
    else:
        raise AssertionError("no column move in the kept deal")
    m = col[0]
    others = [
        x["to"] for x in s["legal_moves"] if x["from"] == m["from"] and x["count"] == m["count"]
    ]
    seq = t.seq()
    t.tap(t.source(m))
    t.wait_seq(seq)
    assert t.page.evaluate("window.solitaire.state.sel") is None, "sent, not picked"
    dest = t.s["view"]["piles"][m["to"]]
    assert dest[-m["count"]] == m["card"], (m, others)
    assert not t.errors


def test_a_double_tap_with_a_finger_on_a_foundation_card_sends_the_cards_up(
    new_table: Any, kept_deals: dict[str, str]
) -> None:
    t = _open(new_table, kept_deals, "bakers-dozen", width=390, height=844, touch=True)
    path, g = _until("bakers-dozen", lambda g: _ups(g)[0] and not endgame.can_finish(g))
    play_tokens(t, path)
    up = t.s["cards_up"]
    t.settle()
    card = _foundation_top(t)
    box = card.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + 10
    t.page.touchscreen.tap(x, y)
    t.page.touchscreen.tap(x, y)
    t.page.wait_for_function(f"() => window.solitaire.state.s.cards_up === {up + _ups(g)[1]}")
    _idle(t)
    assert not t.errors
