"""Installable and playable offline (frontend/offline.py, pwa.js, offline.js): Chromium sees
a valid manifest and an active service worker; with the network cut, a practice table opens
on the engine running in the browser (Pyodide), survives a reload, and FreeCell and
Klondike deals are played to a win through the page's own move path; with the network back
the games are uploaded, replayed by the server and counted as practice.  A ranked table
says it is offline as soon as the network goes."""

from __future__ import annotations

from typing import Any

from games.engine.solver import solve_deal

READY = "() => document.querySelector('#table[data-ready]')"


def play_offline(t: Any, game: str, tries: int = 4) -> None:
    """Open ``game``'s table offline and win it with the solver's line for the seed the
    browser dealt (a deal the solver cannot settle is dealt again)."""
    for _ in range(tries):
        t.page.goto(f"{t.base}/play/{game}/?deal=random")
        t.page.wait_for_function(READY, timeout=60000)
        s = t.s
        assert s["ranked"] is False
        assert s["offline"]["seed"]
        line = solve_deal(game, int(s["offline"]["seed"]), 5.0)
        if line.solved:
            break
        t.page.evaluate("() => document.getElementById('btn-third').click()")  # another deal
    assert line.solved
    # A reload with the network still cut: the same table, from the moves kept on the device.
    t.page.evaluate(f"async () => {{ await window.solitaire.move({line.moves[0]!r}); }}")
    before = t.s["view"]
    t.page.reload()
    t.page.wait_for_function(READY, timeout=60000)
    assert t.s["view"] == before
    assert t.s["seq"] == 1
    t.page.evaluate(
        """async (moves) => {
        for (const m of moves) { if (!await window.solitaire.move(m)) throw new Error(m); }
    }""",
        line.moves[1:],
    )
    assert t.s["won"] is True
    assert t.s["status"] == "won"


def test_offline_practice_on_the_engine_in_the_browser(new_table: Any) -> None:
    t = new_table()
    t.page.goto(t.base + "/")
    manifest = t.api("/manifest.webmanifest")["body"]
    assert manifest["display"] == "standalone"
    assert len(manifest["icons"]) == 3
    href = t.page.evaluate("() => document.querySelector('link[rel=manifest]').href")
    assert href.endswith("/manifest.webmanifest")
    t.page.wait_for_function("async () => (await navigator.serviceWorker.ready).active !== null")
    t.page.click("#offline-toggle")
    t.page.wait_for_function("() => localStorage.getItem('ds:offline:on') === '1'", timeout=60000)
    t.page.context.set_offline(True)
    play_offline(t, "freecell")
    play_offline(t, "klondike")
    assert not t.errors, t.errors
    # The network back: both games go up, are replayed there and count as practice.
    t.page.context.set_offline(False)
    t.page.wait_for_function(
        "() => Number(document.documentElement.dataset.offlineSent) >= 2", timeout=20000
    )
    stats = t.api("/api/me/stats/")["body"]["games"]
    assert stats["freecell"]["won"] == 1
    assert stats["klondike"]["won"] == 1


def test_a_ranked_table_says_offline_at_once_and_sends_the_waiting_move(new_table: Any) -> None:
    t = new_table().open("klondike")
    assert t.s["ranked"] is True
    t.page.wait_for_function("() => window.solitaire.conn.socket.isOpen()")
    t.page.context.set_offline(True)
    t.page.wait_for_selector("#notice.offline", timeout=1000)
    move = next(m for m in t.s["legal_moves"] if m["from"] == "stock")
    t.page.evaluate("(m) => { window.solitaire.move(m); }", move["move"])
    t.page.wait_for_timeout(300)
    assert t.seq() == 0  # the move waits
    t.page.context.set_offline(False)
    t.wait_seq(0)
    t.page.wait_for_selector("#notice.offline", state="hidden", timeout=10000)
    assert t.s["seq"] == 1
    assert t.s["ranked"] is True
