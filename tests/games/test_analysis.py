"""Where was it lost? (games/daily/analysis.py, games/engine/solver/turning.py): the turning point
of a finished game, found by the solver in a worker task.

Why it gives nothing away: a full-information game (FreeCell) is analysed once it is over;
a Klondike daily, whose analysis knows every hidden card, only once its day is closed and
its seed public anyway; and only the player's own games (each analysis is a worker's
time, which anyone asking for every session of a day could otherwise use up)."""

from __future__ import annotations

import datetime as dt

from games.daily.deals import today
from games.engine import IllegalMove, new_game, seen
from games.engine.record import replay
from games.engine.solver.api import solve
from games.engine.solver.search import UNSOLVABLE, Budget
from games.models import Deal, GameSession
from leaderboards.models import Entry
from leaderboards.tasks import close_day


def losing_line(deal: int) -> list[str]:
    """Four cards into the four cells (one column's, else two columns' two each), then a
    move after which the solver proves no win is left: a lost game made on purpose from a
    winnable deal, whichever deal the day gives."""
    fills = [[col] * 4 for col in "12345678"] + [
        [a, a, b, b] for a in "12345678" for b in "12345678" if a != b
    ]
    for cols in fills:
        g = new_game("freecell", deal)
        cells = [c + cell for c, cell in zip(cols, "abcd", strict=True)]
        try:
            for token in cells:
                g.play(token)
        except IllegalMove:
            continue
        for move in list(seen.state(g)["legal_moves"]):
            after = g.copy()
            after.play(move["move"])
            if solve(after, Budget(2)).status == UNSOLVABLE:
                return [*cells, move["move"]]
    raise AssertionError(f"no quick way to lose deal {deal} found")


def test_a_freecell_daily_lost_on_purpose_gets_a_turning_point_whose_alternative_wins(api):
    c = api()
    s = c.start("freecell")
    moves = losing_line(s["deal_number"])
    for seq, t in enumerate(moves):
        assert c.move(s, seq, t).status_code == 200
    assert c.get(f"/api/sessions/{s['id']}/analysis/").status_code == 400  # still playing
    assert c.post(f"/api/sessions/{s['id']}/resign/", {}).status_code == 200
    r = c.get(f"/api/sessions/{s['id']}/analysis/").json()  # queued, run by the worker
    if r["status"] == "pending":
        r = c.get(f"/api/sessions/{s['id']}/analysis/").json()
    assert r["status"] == "done", r
    assert r["full_knowledge"] is False, r
    tp = r["turning_point"]
    assert tp is not None
    assert r["losing_move"] == moves[tp]
    # From the last winnable position the alternative, then the solver's line, wins.
    line = r["winning_line"]
    assert line[0] == r["winning_alternative"]
    assert line[0] != moves[tp]
    assert replay("freecell", s["deal_number"], moves[:tp] + line).won
    # Asked again: the same answer, from the session, without a new search.
    assert c.get(f"/api/sessions/{s['id']}/analysis/").json() == r
    assert GameSession.objects.get(pk=s["id"]).analysis["turning_point"] == tp
    assert api().get(f"/api/sessions/{s['id']}/analysis/").status_code == 404  # not yours
    # Both moves as move objects, so the page names their cards and piles, not codes.
    g = replay("freecell", s["deal_number"], moves[:tp])
    from games.engine import seen

    assert r["losing"] == seen.move_object(g, g.parse(moves[tp]))
    assert r["alternative"] == seen.move_object(g, g.parse(line[0]))
    assert r["losing"]["card"]
    assert r["losing"]["to"].split(":")[0] in {"tableau", "cell", "foundation"}


def test_a_won_game_has_no_turning_point(api):
    from tests.conftest import fc_solve

    c = api()
    s = c.start("freecell")
    for seq, token in enumerate(fc_solve(s["deal_number"])):
        assert c.move(s, seq, token).status_code == 200
    r = c.get(f"/api/sessions/{s['id']}/analysis/").json()
    r = r if r["status"] != "pending" else c.get(f"/api/sessions/{s['id']}/analysis/").json()
    assert r["status"] == "done"
    assert r["turning_point"] is None


def test_a_klondike_daily_is_analysed_only_after_the_close(api):
    c = api()
    s = c.start("klondike")
    legal = c.get(f"/api/sessions/{s['id']}/").json()["legal_moves"]
    assert c.move(s, 0, legal[0]["move"]).status_code == 200
    assert c.post(f"/api/sessions/{s['id']}/resign/", {}).status_code == 200
    r = c.get(f"/api/sessions/{s['id']}/analysis/").json()
    assert r["status"] == "pending"
    assert "close" in r["waiting_for"]
    assert "turning_point" not in r
    assert GameSession.objects.get(pk=s["id"]).analysis is None
    yesterday = today() - dt.timedelta(days=1)
    Deal.objects.filter(date=today()).update(date=yesterday)
    Entry.objects.filter(date=today()).update(date=yesterday)
    close_day(yesterday.isoformat())
    r = c.get(f"/api/sessions/{s['id']}/analysis/").json()
    r = r if r["status"] != "pending" else c.get(f"/api/sessions/{s['id']}/analysis/").json()
    assert r["status"] in {"done", "unknown"}, r
    assert r["full_knowledge"] is True, r
