"""Open data (leaderboards/export.py, docs/api.md "Open data"): a closed day's deals and
ranked sessions as newline-delimited JSON, by HTTP and by command.

Why it gives nothing away: a day is exported only once it is closed, when its games are
over and its seeds revealed anyway; before that, 404, since the moves would show the
cards each player turned and the seed every hidden card.  Practice sessions are not
exported, and a player who asked is "anonymous" with no id.  What it proves: with the
revealed seed and the moves, every session replays with the engine to its stored result.
"""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.daily.deals import today
from games.engine import DAILY_GAMES
from games.engine.record import replay
from games.models import Deal
from leaderboards.models import Entry
from leaderboards.tasks import close_day
from tests.conftest import fc_solve


def _play_a_day(api) -> tuple[dt.date, dict[str, object]]:
    """Three players on today's dailies (one FreeCell win, one Klondike attempt, one
    anonymous player), then the whole day moved back to yesterday and closed."""
    winner, trier, shy = api(), api(), api()
    fc = winner.start("freecell")
    for seq, token in enumerate(fc_solve(fc["deal_number"])):
        assert winner.move(fc, seq, token).status_code == 200
    kl = trier.start("klondike")
    seq = 0
    for _ in range(12):
        moves = [m["move"] for m in trier.get(f"/api/sessions/{kl['id']}/").json()["legal_moves"]]
        if not moves:
            break
        assert trier.move(kl, seq, moves[0]).status_code == 200
        seq += 1
    assert shy.patch("/api/me/", {"anonymous": True}).json()["anonymous"] is True
    bd = shy.start("bakers-dozen")
    first = shy.get(f"/api/sessions/{bd['id']}/").json()["legal_moves"][0]["move"]
    assert shy.move(bd, 0, first).status_code == 200
    practice = winner.start("freecell")  # a second try: practice, not exported
    assert practice["ranked"] is False
    yesterday = today() - dt.timedelta(days=1)
    Deal.objects.filter(date=today()).update(date=yesterday)
    Entry.objects.filter(date=today()).update(date=yesterday)
    close_day(yesterday.isoformat())
    return yesterday, {
        "winner": winner.me,
        "shy": shy.me,
        "practice": practice["id"],
        "sessions": {fc["id"], kl["id"], bd["id"]},
        "shy_session": bd["id"],
    }


def test_a_closed_day_exports_every_ranked_session_and_each_replays_to_its_result(api):
    day, who = _play_a_day(api)
    r = api().get(f"/api/export/{day.isoformat()}/")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/x-ndjson"
    body = b"".join(r.streaming_content).decode()
    lines = [json.loads(line) for line in body.splitlines()]
    deals = {d["game"]: d for d in lines if d["type"] == "deal"}
    sessions = [s for s in lines if s["type"] == "session"]
    made = set(Deal.objects.filter(date=day).values_list("game", flat=True))
    assert set(deals) == made
    assert made <= set(DAILY_GAMES)
    assert len(made) == 3
    named = {s["session"] for s in sessions if s["player"] != "anonymous"}
    assert named | {who["shy_session"]} == who["sessions"]  # the practice try is not
    for s in sessions:
        deal = deals[s["game"]]
        g = replay(s["game"], int(deal["seed"]), [m[0] for m in s["moves"]])
        assert g.won == (s["status"] == "won"), s["session"]
        assert g.cards_up == s["cards_up"], s["session"]
        assert s["score"] is None or g.score == s["score"], s["session"]  # games with a score
        assert all(isinstance(m[1], int) and len(m) == 2 for m in s["moves"])
    won = next(s for s in sessions if s["game"] == "freecell")
    assert won["player"] == who["winner"]["display_name"]
    assert won["final_rank"] == 1
    assert won["player_id"] == who["winner"]["id"]
    assert won["time_ms"] > 0
    shy = next(s for s in sessions if s["game"] == "bakers-dozen")
    assert shy["player"] == "anonymous"
    assert shy["player_id"] is None
    assert who["shy"]["display_name"] not in body
    assert shy["session"].startswith("anon-")
    assert who["shy_session"] not in body


def test_an_anonymous_players_export_line_joins_nothing_on_any_public_route(api):
    """The export named an anonymous player "anonymous" but kept the session id the public
    board and its replay link carried beside the name: one join named them.  Now that line
    has an id of the export's own, and no public route shows the player's session id.
    (The board still shows the name with the result: the game itself; what the export
    promises is that no id links its line to a route that names the player.)"""
    day, who = _play_a_day(api)
    export = b"".join(api().get(f"/api/export/{day.isoformat()}/").streaming_content).decode()
    line = next(json.loads(t) for t in export.splitlines() if '"anonymous"' in t)
    stranger = api()
    routes = [f"/api/leaderboards/{g}/{day.isoformat()}/" for g in DAILY_GAMES]
    routes += [f"/api/leaderboards/{g}/week/{day.isoformat()}/" for g in DAILY_GAMES]
    routes += [f"/api/leaderboards/{g}/all-time/" for g in DAILY_GAMES]
    routes += [
        f"/api/players/{who['shy']['id']}/stats/",
        f"/api/daily/{day.isoformat()}/",
        f"/leaderboards/bakers-dozen/?date={day.isoformat()}",
    ]
    for route in routes:
        r = stranger.get(route)
        assert r.status_code == 200, route
        text = r.content.decode()
        assert line["session"] not in text, route
        assert who["shy_session"] not in text, route
    board = stranger.get(f"/api/leaderboards/bakers-dozen/{day.isoformat()}/").json()
    row = next(e for e in board["entries"] if e["player"] == who["shy"]["display_name"])
    assert row["session"] is None
    for sid in (line["session"], who["shy_session"]):
        assert stranger.get(f"/api/sessions/{sid}/replay/").status_code == 404
        page = stranger.get(f"/replay/{sid}/")  # a shell: the API above decides
        assert who["shy"]["display_name"] not in page.content.decode()


def test_the_command_writes_the_same_lines(api, tmp_path):
    day, _ = _play_a_day(api)
    http = b"".join(api().get(f"/api/export/{day.isoformat()}/").streaming_content).decode()
    out = tmp_path / "day.ndjson"
    call_command("export_day", day.isoformat(), "--output", str(out), stderr=StringIO())
    assert out.read_text() == http
    printed = StringIO()
    call_command("export_day", day.isoformat(), stdout=printed, stderr=StringIO())
    assert printed.getvalue() == http


@pytest.mark.django_db
def test_a_day_still_open_or_not_a_day_is_refused(api):
    c = api()
    c.start("klondike")  # today exists and is being played
    r = c.get(f"/api/export/{today().isoformat()}/")
    assert r.status_code == 404
    assert "not closed" in r.json()["reason"]
    assert c.get("/api/export/1999-01-01/").status_code == 400
    assert c.get("/api/export/2026-02-30/").status_code == 400
    assert c.get("/api/export/2099-01-01/").status_code == 404
    with pytest.raises(CommandError, match="not closed yet"):
        call_command("export_day", today().isoformat(), stdout=StringIO())
    with pytest.raises(CommandError, match="not a day"):
        call_command("export_day", "yesterday", stdout=StringIO())


def test_the_anonymous_choice_is_a_boolean(api):
    c = api()
    assert c.me["anonymous"] is False
    for bad in ("yes", 1, None):
        r = c.patch("/api/me/", {"anonymous": bad})
        assert r.status_code == 400, bad
    assert c.patch("/api/me/", {}).status_code == 400
    assert c.get("/api/me/").json()["anonymous"] is False


def test_whole_days_and_whole_games_are_rate_limited(api, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "records": (2, 60)}
    c = api()
    s = c.start("klondike", "random")
    codes = [c.get(f"/api/sessions/{s['id']}/replay/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    # The open data counts in the same scope.
    r = c.get(f"/api/export/{today().isoformat()}/")
    assert r.status_code == 429
    assert int(r["Retry-After"]) > 0
