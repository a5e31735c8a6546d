"""The daily board (leaderboards/ranking.py, docs/api.md "Boards and statistics"): wins
first, unfinished attempts after them with their status, the asking player's own row, and
pages of at most 100 rows."""

from __future__ import annotations

from tests.conftest import fc_solve


def _first_moves(c, game: str, n: int):
    s = c.start(game)
    for seq in range(n):
        legal = c.get(f"/api/sessions/{s['id']}/").json()["legal_moves"]
        assert c.move(s, seq, legal[0]["move"]).status_code == 200
    return s


def test_wins_first_then_unfinished_with_their_status_and_my_own_row(api):
    trier, quitter, winner = api(), api(), api()
    _first_moves(trier, "freecell", 3)
    gone = _first_moves(quitter, "freecell", 2)
    assert quitter.post(f"/api/sessions/{gone['id']}/resign/", {}).status_code == 200
    day = gone["date"]
    before = api().get(f"/api/leaderboards/freecell/{day}/").json()
    # Unfinished attempts by cards up, then fewer moves: the two-move one first.
    assert [e["status"] for e in before["entries"]] == ["resigned", "playing"]
    assert not any(e["won"] for e in before["entries"])
    s = winner.start("freecell")
    for seq, token in enumerate(fc_solve(s["deal_number"])):
        assert winner.move(s, seq, token).status_code == 200
    board = trier.get(f"/api/leaderboards/freecell/{day}/").json()
    assert [e["status"] for e in board["entries"]] == ["won", "resigned", "playing"]
    assert board["entries"][0]["rank"] == 1
    assert board["total"] == 3
    assert board["offset"] == 0
    me = board["me"]
    assert me["status"] == "playing"
    assert me["rank"] is None
    assert me["player"] == trier.me["display_name"]
    mine = winner.get(f"/api/leaderboards/freecell/{day}/").json()["me"]
    assert mine["rank"] == 1
    assert mine["won"]
    assert mine["session"] == s["id"]
    assert api().get(f"/api/leaderboards/freecell/{day}/").json()["me"] is None


def test_the_board_comes_in_pages(api):
    players = [api() for _ in range(3)]
    for i, c in enumerate(players):
        _first_moves(c, "bakers-dozen", i + 1)
    day = players[0].get("/api/daily/").json()["date"]
    c = players[0]
    whole = c.get(f"/api/leaderboards/bakers-dozen/{day}/").json()["entries"]
    pages = [
        c.get(f"/api/leaderboards/bakers-dozen/{day}/?offset={i}&limit=1").json() for i in range(4)
    ]
    assert [p["entries"][0]["session"] for p in pages[:3]] == [e["session"] for e in whole]
    assert [p["entries"][0]["rank"] for p in pages[:3]] == [1, 2, 3]
    assert pages[3]["entries"] == []
    assert all(p["total"] == 3 for p in pages)
    for bad in ("offset=-1", "offset=x", "limit=0", "limit=101", "offset=10001"):
        r = c.get(f"/api/leaderboards/bakers-dozen/{day}/?{bad}")
        assert r.status_code == 400, bad
        assert r.json()["reason"], bad


def test_an_attempt_won_since_its_order_was_written_shows_once(api, settings):
    """The unfinished attempts' order is written at most every BOARD_COUNT_SECONDS; a player
    who wins meanwhile is on the board once, with the wins, not also among the unfinished
    (a watcher's board listed them twice)."""
    settings.BOARD_COUNT_SECONDS = 3600  # the order written once, then kept
    trier, winner = api(), api()
    _first_moves(trier, "freecell", 2)
    s = _first_moves(winner, "freecell", 1)
    day = s["date"]
    before = api().get(f"/api/leaderboards/freecell/{day}/").json()["entries"]
    assert s["id"] in {e["session"] for e in before}
    assert len(before) == 2
    state = winner.get(f"/api/sessions/{s['id']}/").json()
    assert winner.post(f"/api/sessions/{s['id']}/undo/", {"seq": 1}).status_code == 200
    for seq, token in enumerate(fc_solve(s["deal_number"]), start=state["seq"] + 1):
        assert winner.move(s, seq, token).status_code == 200
    board = api().get(f"/api/leaderboards/freecell/{day}/").json()
    sessions = [e["session"] for e in board["entries"]]
    assert sessions.count(s["id"]) == 1
    assert board["entries"][0]["session"] == s["id"]
    assert board["entries"][0]["won"]
