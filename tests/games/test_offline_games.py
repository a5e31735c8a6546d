"""Practice games played offline: uploaded, replayed with the engine, stored as practice
(games/play/offline.py, POST /api/offline-games/), and the files offline play needs."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from frontend.offline_table import OfflineTable, call
from games.daily import deals as daily
from games.engine import new_game, seen
from games.models import Deal, GameSession

# FreeCell deal 1 is won by fc-solve's line; the first two moves of it are legal anywhere.
URL = "/api/offline-games/"


def upload(c, game="freecell", seed="1", moves=("3a",), client="g1", **extra):
    return c.post(
        URL, {"game": game, "seed": seed, "moves": list(moves), "client": client, **extra}
    )


def test_a_won_offline_game_is_stored_once_as_practice_and_counts_in_the_stats(api, solve_freecell):
    c = api()
    line = solve_freecell(1)
    r = upload(c, moves=line, client="won-1")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["status"] == "won"
    assert body["ranked"] is False
    assert body["repeated"] is False
    stored = GameSession.objects.get(pk=body["id"])
    assert stored.tokens == line
    assert not stored.ranked
    assert stored.time_ms is None
    assert stored.deal.date is None
    assert stored.deal.seed == 1
    # A retry (the connection dropped before the answer) finds the same game.
    again = upload(c, moves=line, client="won-1")
    assert again.status_code == 200
    assert again.json()["id"] == body["id"]
    assert again.json()["repeated"] is True
    assert GameSession.objects.filter(offline_id="won-1").count() == 1
    stats = c.get("/api/me/stats/").json()["games"]["freecell"]
    assert stats["played"] == 1
    assert stats["won"] == 1
    assert stats["best_time_ms"] is None
    assert stats["current_streak"] == 0  # streaks are dailies' alone


def test_an_unfinished_game_is_stored_as_left_where_it_stood(api):
    c = api()
    r = upload(c, moves=["3a", "u", "3b"], client="left")
    assert r.status_code == 201, r.content
    stored = GameSession.objects.get(pk=r.json()["id"])
    assert stored.status == GameSession.RESIGNED
    assert stored.undo_count == 1
    assert stored.move_count == 1


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"game": "chess"}, 400, "unknown game"),
        ({"seed": "0"}, 400, "seed"),
        ({"seed": "12x"}, 400, "seed"),
        ({"seed": 7}, 400, "seed"),
        ({"moves": []}, 400, "at least one move"),
        ({"moves": ["3a"] * 5001}, 400, "moves"),
        ({"client": "bad id!"}, 400, "client"),
        ({"moves": ["3a", "3a"]}, 422, ""),
    ],
)
def test_bad_uploads_are_refused_with_a_reason_and_change_nothing(api, change, status, words):
    c = api()
    deals = Deal.objects.count()
    r = upload(c, **{"client": "bad", **change})
    assert r.status_code == status, r.content
    body = r.json()
    assert body["error"]
    assert words in body["reason"]
    if status == 422:
        # The first move the rules refuse, by its index in the list.
        assert body["seq"] == 1
        assert body["error"] == "illegal_move"  # cell a is taken
    assert GameSession.objects.count() == 0
    assert Deal.objects.count() == deals


def test_a_dailys_seed_cannot_be_uploaded_so_no_upload_is_ever_ranked(api):
    c = api()
    deal = daily.todays_deal("freecell")
    r = upload(c, seed=str(deal.seed), client="daily")
    assert r.status_code == 400
    assert "daily" in r.json()["reason"]
    assert not GameSession.objects.exists()


# What does an uploaded fabricated "win" buy?  The moves are replayed by the engine from
# the deal the seed gives, so it is a real win of that deal, or it is refused.  Nothing
# ranks: it is practice (ranked=False), on a non-daily deal (a daily's seed is refused, so
# no leaderboard, streak or medal of a day), with no time (the server never saw the
# clock, so no best time) and a score without the time bonus.  The most it buys is a
# practice win in the player's own statistics, the same as playing that deal online with
# the solver's hints at hand; a script can flood such uploads no faster than new sessions
# (the "sessions" rate limit).
def test_uploads_are_rate_limited_like_new_sessions(api, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sessions": (2, 60)}
    c = api()
    codes = [upload(c, client=f"flood{i}").status_code for i in range(4)]
    assert codes[:2] == [201, 201]
    assert codes[-1] == 429


def test_the_offline_table_answers_as_the_server_does(api):
    """The table played in the browser is the engine's state, in the server's shape."""
    t = OfflineTable("klondike", str(2**64 + 12345), "x")
    out = json.loads(call(t, "move", t.g.notation(next(iter(t.g.legal_moves())))))
    g = new_game("klondike", 2**64 + 12345)
    g.play(out["offline"]["moves"][0])
    assert out["view"] == seen.state(g)["view"]
    assert out["legal_moves"] == seen.state(g)["legal_moves"]
    c = api()
    server = c.start("klondike", "random")
    assert set(server) - set(out) <= {
        "clock_ms",
        "created_at",
        "started_at",
        "finished_at",
        "review",
        "active_ms",
    }
    refused = json.loads(call(t, "move", "zz"))
    assert refused["code"] == "bad_notation"
    assert out["seq"] == 1


def test_the_site_serves_the_manifest_the_worker_and_the_engine(client):
    m = client.get("/manifest.webmanifest").json()
    assert m["display"] == "standalone"
    assert m["start_url"]
    assert m["theme_color"]
    sizes = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert m["id"] == "/"
    assert m["lang"] == "en"
    assert m["dir"] == "ltr"
    assert {s["form_factor"] for s in m["screenshots"]} == {"wide", "narrow"}
    fr = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert fr["lang"] == "fr"
    assert fr["description"] != m["description"]
    sw = client.get("/sw.js")
    assert sw.status_code == 200
    assert sw["Content-Type"].startswith("text/javascript")
    text = sw.content.decode()
    config = json.loads(text.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert "/offline/" in config["shell"]
    assert "/play/freecell/" in config["tables"]
    # The install dialog's pictures are not kept for every visitor.
    assert not any("/screenshots/" in u for u in config["shell"])
    engine = next(u for u in config["runtime"] if u.startswith("/offline/engine."))
    z = client.get(engine)
    assert z.status_code == 200
    assert "immutable" in z["Cache-Control"]
    names = zipfile.ZipFile(io.BytesIO(z.content)).namelist()
    assert "offline_table.py" in names
    assert "games/engine/seen.py" in names
    assert not any(n.startswith(("games/play", "games/models", "frontend/")) for n in names)
    assert client.get("/offline/engine.000000000000.zip").status_code == 404
    page = client.get("/play/freecell/")
    assert "'wasm-unsafe-eval'" in page["Content-Security-Policy"]
    assert "wasm-unsafe-eval" not in client.get("/")["Content-Security-Policy"]


def test_a_bad_move_in_an_upload_says_which_and_what_is_wrong(api):
    """The error read "moves: 0": DRF's errors for a list's item, joined as they came."""
    c = api()
    for moves, where in ((["", "8a"], "moves[0]"), (["8a", "x" * 17], "moves[1]")):
        r = c.post(
            "/api/offline-games/",
            {"game": "freecell", "seed": "617", "moves": moves, "client": "bad-move"},
        )
        assert r.status_code == 400
        reason = r.json()["reason"]
        assert reason.startswith(where + ":"), reason
        assert len(reason) > len(where) + 10, reason
