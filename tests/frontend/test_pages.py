"""The pages around the table in a real browser: a reload, dropped connections, French,
live boards, accounts and the profile, the clock, a phone, a dead end, the home page."""

from __future__ import annotations

from typing import Any

from games.engine import DAILY_GAMES, GAMES
from tests.conftest import fc_solve

from .helpers import play_tokens, refused_pair, table_move, tokens_to_dead_end


def test_a_reload_restores_the_game_exactly(new_table: Any) -> None:
    t = new_table().open("klondike-draw3")
    for _ in range(2):
        m = table_move(t)
        seq = t.seq()
        t.drag(t.source(m), m["to"])
        t.wait_seq(seq)
    before = t.s
    t.page.reload()
    t.page.wait_for_selector("#table[data-ready]")
    after = t.s
    assert after["id"] == before["id"]
    assert after["view"] == before["view"]
    assert after["moves"] == before["moves"]
    assert after["legal_moves"] == before["legal_moves"]


def test_a_dropped_connection_resumes_without_losing_a_move(new_table: Any) -> None:
    t = new_table().open("freecell", "1")
    ctx = t.page.context
    ctx.set_offline(True)
    t.card("tableau:0", len(t.s["view"]["piles"]["tableau:0"]) - 1).click()
    t.pile("cell:0").click()
    t.page.locator("#notice.offline").wait_for(timeout=10000)
    ctx.set_offline(False)
    t.wait_seq(0, timeout=15000)
    assert t.s["moves"] == 1
    assert t.s["view"]["piles"]["cell:0"]


def test_a_dropped_socket_reconnects_by_itself_and_play_goes_on(new_table: Any) -> None:
    t = new_table().open("freecell", "6")
    page = t.page
    page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
    page.evaluate("window.solitaire.conn.socket.drop()")
    # While it is down the move goes over HTTP...
    t.tap(t.card("tableau:0", len(t.s["view"]["piles"]["tableau:0"]) - 1))
    t.pile("cell:0").click()
    t.wait_seq(0)
    # ...and the socket comes back by itself and carries the next one.
    page.wait_for_function("() => window.solitaire.conn.socket.isOpen()", timeout=10000)
    seq = t.seq()
    page.get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert t.s["moves"] == 0
    assert t.s["view"]["piles"]["cell:0"] == []


def test_the_table_speaks_french(new_table: Any) -> None:
    t = new_table(locale="fr-FR").open("freecell", "1")
    page = t.page
    assert page.get_by_role("button", name="Annuler").count() == 1
    assert page.get_by_role("group", name="colonne 1", exact=True).count() == 1
    assert page.get_by_role("group", name="fondation cœur").count() == 1
    # The engine's refusal, said in French.
    a, b = refused_pair(t)
    t.drag(t.card(a, len(t.s["view"]["piles"][a]) - 1), b)
    notice = page.locator("#notice.refusal")
    notice.wait_for()
    assert "ne peut pas aller sur" in notice.inner_text()


def test_a_leaderboard_updates_live_when_another_player_wins(new_table: Any) -> None:
    watcher = new_table()
    watcher.page.goto(f"{watcher.base}/leaderboards/freecell/")
    watcher.page.wait_for_selector("body[data-ready]")
    player = new_table().open("freecell")
    number = player.s["deal_number"]
    name = player.api("/api/me/", None)["body"]["display_name"]
    sid = player.s["id"]
    seq = player.s["seq"]
    for tok in fc_solve(number):
        r = player.api(f"/api/sessions/{sid}/moves/", {"seq": seq, "move": tok})
        assert r["status"] == 200
        seq = r["body"]["seq"]
    assert r["body"]["won"]
    watcher.page.locator(f'#board-rows tr[data-player="{name}"]').wait_for(timeout=15000)


def test_a_guest_renames_signs_up_and_sees_the_profile(new_table: Any) -> None:
    t = new_table()
    page = t.page
    page.goto(f"{t.base}/account/")
    page.locator("#acct-name").filter(has_text=" ").or_(page.locator("#acct-name")).wait_for()
    page.get_by_label("Display name").fill("Tester Tabby")
    page.locator("#f-rename button").click()
    page.locator("#acct-name", has_text="Tester Tabby").wait_for()
    page.locator("#f-signup").get_by_label("Username", exact=True).fill("tabby")
    page.locator("#f-signup").get_by_label("Password", exact=True).fill("a-long-pass-phrase")
    page.locator("#f-signup button").click()
    page.locator("#f-signout").wait_for()
    page.goto(f"{t.base}/profile/")
    page.locator("#me-name", has_text="Tester Tabby").wait_for()
    page.locator("#me-stats tr").first.wait_for()
    assert page.locator("#me-stats tr").count() == len(GAMES)


def test_the_clock_stops_while_the_tab_is_hidden(new_table: Any) -> None:
    t = new_table().open("freecell", "3")
    t.tap(t.card("tableau:0", len(t.s["view"]["piles"]["tableau:0"]) - 1))
    t.pile("cell:0").click()
    t.wait_seq(0)
    hide = """hidden => { Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
        document.dispatchEvent(new Event('visibilitychange')); }"""
    t.page.evaluate(hide, True)
    before = t.page.evaluate("window.solitaire.state.elapsed")
    t.page.wait_for_timeout(1300)
    assert t.page.evaluate("window.solitaire.state.elapsed") == before
    t.page.evaluate(hide, False)
    t.page.wait_for_timeout(1300)
    assert t.page.evaluate("window.solitaire.state.elapsed") > before


def test_a_phone_plays_by_touch(new_table: Any) -> None:
    t = new_table(390, 844, touch=True).open("freecell", "4")
    s = t.s
    m = next(x for x in s["legal_moves"] if x["to"].startswith("tableau") and x["count"] == 1)
    t.settle()
    t.source(m).tap()
    t.page.wait_for_function("() => window.solitaire.state.sel")
    t.pile(m["to"]).tap()
    t.wait_seq(0)
    assert t.s["view"]["piles"][m["to"]][-1] == m["card"]

    # A finger drags a card (real touch events through the DevTools protocol).
    m = next(x for x in t.s["legal_moves"] if x["to"].startswith("cell"))
    t.settle()
    a = t.source(m).bounding_box()
    b = t.pile(m["to"]).bounding_box()
    cdp = t.page.context.new_cdp_session(t.page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + 6
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for k in range(1, 7):
        p = {"x": x0 + (x1 - x0) * k / 6, "y": y0 + (y1 - y0) * k / 6}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [p]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    t.wait_seq(1)
    assert t.s["view"]["piles"][m["to"]] == [m["card"]]


def test_a_dead_end_says_so_at_once_with_its_three_exits(new_table: Any) -> None:
    t = new_table().open("freecell", "2")
    play_tokens(t, tokens_to_dead_end(2))
    notice = t.page.locator("#notice.dead")
    notice.wait_for()
    assert "No more moves" in notice.inner_text()
    exits = notice.get_by_role("button")
    assert [exits.nth(i).inner_text() for i in range(exits.count())] == [
        "Undo",
        "Replay this deal",
        "Another deal",
    ]
    # A hint here is the solver's proof: said plainly, with four exits, the game not ended.
    t.page.get_by_role("button", name="Hint", exact=True).first.click()
    t.page.locator("#notice", has_text="no solution").wait_for(timeout=30000)
    exits = t.page.locator("#notice").get_by_role("button")
    assert [exits.nth(i).inner_text() for i in range(exits.count())] == [
        "Undo",
        "Hint",
        "Replay this deal",
        "Another deal",
    ]
    assert t.s["status"] == "playing"
    seq = t.seq()
    t.page.locator("#notice").get_by_role("button", name="Undo").click()
    t.wait_seq(seq)
    assert not t.s["no_legal_move"]
    assert not t.page.locator("#notice.dead").is_visible()


def test_home_lists_todays_dailies_with_how_many_are_playing(new_table: Any) -> None:
    player = new_table().open("freecell")
    visitor = new_table()
    visitor.page.goto(f"{visitor.base}/")
    dailies = visitor.page.locator("#dailies .daily")
    assert dailies.count() == len(DAILY_GAMES)
    count = visitor.page.locator('.daily[data-game="freecell"] [data-count]')
    count.filter(has_text="playing now").wait_for(timeout=10000)
    assert player.s["status"] == "playing"
    visitor.page.locator('.daily[data-game="freecell"] a.daily-play').click()
    visitor.page.wait_for_selector("#table[data-ready]")
    assert visitor.s["game"] == "freecell"
    assert visitor.s["date"]
