"""Playing over HTTP exactly as docs/api.md describes it."""

from __future__ import annotations

import json
import re

import pytest

from games.engine import DAILY_GAMES, GAMES
from games.models import GameSession

CARD = re.compile(r'"([A2-9TJQK][CDHS])"')


@pytest.mark.parametrize("game", DAILY_GAMES)
def test_a_player_starts_each_daily_and_plays_its_legal_moves(api, game):
    c = api()
    daily = c.get("/api/daily/").json()
    assert [d["game"] for d in daily["deals"]] == list(DAILY_GAMES)
    s = c.start(game)
    assert s["game"] == game
    assert s["seq"] == 0
    assert s["ranked"] is True
    assert s["status"] == "playing"
    for key in ("view", "legal_moves", "score", "cards_up", "id"):
        assert key in s
    for step in range(5):
        non_stock = [m for m in s["legal_moves"] if "stock" not in (m["from"], m["to"])]
        m = (non_stock or s["legal_moves"])[0]
        assert {"move", "from", "to", "count"} <= set(m)
        r = c.move(s, step, m["move"])
        assert r.status_code == 200, r.content
        s = r.json()
        assert s["seq"] == step + 1
    stored = GameSession.objects.get(pk=s["id"])
    assert len(stored.moves) == 5
    assert all(isinstance(at, int) for _, at in stored.moves)
    assert stored.started_at is not None


def test_an_illegal_move_is_refused_with_the_engines_reason_and_nothing_changes(api):
    c = api()
    s = c.start("freecell", 1)
    r = c.move(s, 0, "1h")  # deal 1's first column ends in a jack
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "illegal_move"
    assert "foundation" in body["reason"]
    # The same refusal as a stable code with its details, for pages in other languages.
    card = s["view"]["piles"]["tableau:0"][-1]
    assert body["code"] == "not_yet"
    assert body["params"] == {"card": card, "suit": card[1], "rank": "ace"}
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.moves == []
    assert stored.started_at is None


def test_a_repeated_seq_is_answered_409_with_the_current_seq_and_applied_once(api):
    c = api()
    s = c.start("freecell", 1)
    m = s["legal_moves"][0]["move"]
    assert c.move(s, 0, m).status_code == 200
    again = c.move(s, 0, m)
    assert again.status_code == 409
    assert again.json()["seq"] == 1
    assert c.move(s, 7, m).status_code == 409
    assert len(GameSession.objects.get(pk=s["id"]).moves) == 1


@pytest.mark.parametrize(
    "raw",
    [
        '{"seq": 0, "move": ',
        "[1, 2]",
        '{"move": "1a"}',
        '{"seq": "x", "move": "1a"}',
        '{"seq": 0, "move": 5}',
        '{"seq": 0}',
        '{"seq": 0, "move": "zz"}',
        '{"seq": 0, "move": "u"}',
    ],
)
def test_bad_json_and_unknown_moves_get_a_clear_4xx_and_nothing_is_stored(api, raw):
    c = api()
    s = c.start("freecell", 617)
    r = c.post(f"/api/sessions/{s['id']}/moves/", raw=raw)
    assert 400 <= r.status_code < 500
    assert r.json()["reason"]
    assert GameSession.objects.get(pk=s["id"]).moves == []


def test_a_session_of_another_player_is_refused(api):
    alice, mallory = api(), api()
    s = alice.start("klondike")
    m = s["legal_moves"][0]["move"]
    assert mallory.move(s, 0, m).status_code == 404
    assert mallory.get(f"/api/sessions/{s['id']}/").status_code == 404
    assert mallory.post(f"/api/sessions/{s['id']}/undo/").status_code == 404
    assert mallory.post(f"/api/sessions/{s['id']}/hint/").status_code == 404
    assert GameSession.objects.get(pk=s["id"]).moves == []
    assert alice.get(f"/api/sessions/{s['id']}/").status_code == 200


def test_a_write_without_the_csrf_header_is_refused(api):
    c = api()
    r = c.client.post(
        "/api/sessions/", json.dumps({"game": "klondike"}), content_type="application/json"
    )
    assert r.status_code == 403
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("game", sorted(k for k, cls in GAMES.items() if cls.draw))
def test_a_klondike_deal_shows_only_its_seven_face_up_cards(api, game):
    c = api()
    deal = "daily" if game in DAILY_GAMES else "random"
    r = c.post("/api/sessions/", {"game": game, "deal": deal})
    text = r.content.decode()
    expected = 7
    assert len(set(CARD.findall(text))) == expected
    body = r.json()
    assert body["view"]["stock"] == (45 if game == "whitehorse" else 24)
    stored = GameSession.objects.get(pk=body["id"])
    assert str(stored.deal.seed) not in text


def test_klondike_answers_never_show_a_card_still_face_down_or_in_the_stock(api):
    from games.engine import new_game
    from games.engine.undo import is_undo

    c = api()
    s = c.start("klondike")
    seed = GameSession.objects.get(pk=s["id"]).deal.seed
    for seq in range(30):
        text = json.dumps(s)
        g = new_game("klondike", seed)
        for token, _ in GameSession.objects.get(pk=s["id"]).moves:
            g.undo() if is_undo(token) else g.play(token)
        hidden = {c for p, d in zip(g.tab, g.down, strict=True) for c in p[:d]} | set(g.stock)
        from games.engine.cards import CODE

        assert not {CODE[h] for h in hidden} & set(CARD.findall(text))
        moves = s["legal_moves"]
        pick = next((m for m in moves if m["to"].startswith("foundation")), None)
        pick = pick or next((m for m in moves if m["from"] != "stock"), moves[0])
        s = c.move(s, seq, pick["move"]).json()


def test_undo_takes_back_a_move_and_is_counted(api):
    c = api()
    s = c.start("freecell", 617)
    s = c.move(s, 0, "8a").json()
    r = c.post(f"/api/sessions/{s['id']}/undo/", {"seq": 1})
    assert r.status_code == 200
    body = r.json()
    assert body["seq"] == 2
    assert body["moves"] == 0
    assert body["undo_count"] == 1
    assert body["view"]["piles"]["cell:0"] == []
    nothing = c.post(f"/api/sessions/{s['id']}/undo/", {"seq": 2})
    assert nothing.status_code == 422
    assert "undo" in nothing.json()["reason"]
    assert nothing.json()["code"] == "no_undo"


def test_a_hint_is_a_legal_move_marked_with_its_source_and_counted(api):
    c = api()
    s = c.start("klondike")
    r = c.post(f"/api/sessions/{s['id']}/hint/")
    assert r.status_code == 200
    body = r.json()
    assert body["hint"] in s["legal_moves"]
    assert body["source"] in {"heuristic", "solver"}
    assert body["verdict"] in {"solved", "unknown"}
    assert GameSession.objects.get(pk=s["id"]).hint_count == 1


def test_a_practice_deal_by_number_or_public_id_is_never_ranked(api):
    c = api()
    s = c.start("freecell", 617)
    assert s["ranked"] is False
    assert s["deal_number"] == 617
    again = c.start("freecell", s["deal"])
    assert again["deal"] == s["deal"]
    assert again["ranked"] is False
    assert c.post("/api/sessions/", {"game": "klondike", "deal": 5}).status_code == 400
    assert c.post("/api/sessions/", {"game": "chess"}).status_code == 400
    assert c.post("/api/sessions/", {"game": "freecell", "deal": "nope"}).status_code == 400


def test_the_openapi_document_lists_the_play_endpoints(api):
    c = api()
    r = c.get("/api/schema/?format=json")
    assert r.status_code == 200
    schema = json.loads(r.content)
    paths = schema["paths"]
    for p in (
        "/api/me/",
        "/api/daily/",
        "/api/sessions/",
        "/api/sessions/{session_id}/moves/",
        "/api/leaderboards/{game}/{date}/",
    ):
        assert p in paths
    move = paths["/api/sessions/{session_id}/moves/"]["post"]
    assert {"200", "409", "422"} <= set(move["responses"])
    body = move["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/MoveInRequest")


def test_answers_carry_every_field_the_openapi_document_promises(api):
    c = api()
    components = json.loads(c.get("/api/schema/?format=json").content)["components"]["schemas"]

    def promised(name):
        schema = components[name]
        return set(schema.get("required", [])), set(schema["properties"])

    s = c.start("klondike")
    required, known = promised("SessionOut")
    assert required <= set(s)
    assert set(s) <= known | {"deal_number"}
    moved = c.move(s, 0, s["legal_moves"][0]["move"]).json()
    assert required <= set(moved)
    required, _ = promised("MoveObject")
    assert all(required <= set(m) for m in moved["legal_moves"])
    hint = c.post(f"/api/sessions/{s['id']}/hint/").json()
    assert promised("HintOut")[0] <= set(hint)
    refused = c.move(s, 1, "zz").json()
    assert promised("IllegalOut")[0] <= set(refused)
    stale = c.move(s, 0, "s").json()
    assert promised("ConflictOut")[0] <= set(stale)
    required, _ = promised("PlayerOut")
    assert required <= set(c.get("/api/me/").json())
    required, _ = promised("DailyOut")
    assert required <= set(c.get("/api/daily/").json())
