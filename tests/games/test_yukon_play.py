"""Yukon played as a player plays it: started, moved, undone and won over HTTP, played over
the socket, its face-down cards never sent, its hints a move of its own."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.engine import new_game
from games.models import Deal, GameSession
from tests.engine.yukon_deal import GROUP, LINE, SEED

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r'"([A2-9TJQK][CDHS])"')


def started(api):
    deal = Deal.objects.create(game="yukon", seed=SEED)
    c = api()
    return c, c.start("yukon", deal.public_id)


def test_a_deal_shows_its_31_face_up_cards_and_no_stock(api):
    c, s = started(api)
    piles = s["view"]["piles"]
    assert [len(piles[f"tableau:{i}"]) for i in range(7)] == [1, 6, 7, 8, 9, 10, 11]
    shown = [card for i in range(7) for card in piles[f"tableau:{i}"] if card]
    assert len(shown) == 31
    assert "stock" not in s["view"]
    assert "waste" not in piles
    assert s["ranked"] is False
    assert s["score"] == 0
    # Every face-down card stays on the server.
    g = new_game("yukon", SEED)
    hidden = {g.layout()["tableau"][i][j] for i in range(7) for j in range(g.down[i])}
    assert len(hidden) == 21
    assert not hidden & set(CARD.findall(json.dumps(s)))


def test_a_group_out_of_order_moves_is_undone_and_the_line_wins(api):
    c, s = started(api)
    # 64v3: the last three cards of pile 6, whatever their order, onto pile 4.
    group = s["view"]["piles"]["tableau:5"][-3:]
    assert group == GROUP
    assert {
        "move": "64v3",
        "from": "tableau:5",
        "to": "tableau:3",
        "count": 3,
        "card": group[0],
    } in s["legal_moves"]
    r = c.move(s, 0, "64v3")
    assert r.status_code == 200, r.content
    assert r.json()["view"]["piles"]["tableau:3"][-3:] == group
    undone = c.post(f"/api/sessions/{s['id']}/undo/", {"seq": 1})
    assert undone.status_code == 200
    assert undone.json()["view"] == s["view"]
    refused = c.move(s, 2, "s")
    assert refused.status_code == 422
    assert refused.json()["code"] == "no_stock"
    seq = 2
    for token in LINE:
        r = c.move(s, seq, token)
        assert r.status_code == 200, (token, r.content)
        seq += 1
    body = r.json()
    assert body["won"]
    assert body["cards_up"] == 52
    assert body["score"] == 52
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.status == "won"
    assert [t for t, _ in stored.moves][:2] == ["64v3", "u"]


def test_the_finish_sends_up_the_rest_once_every_card_is_face_up(api):
    c, s = started(api)
    seq = 0
    for token in LINE:
        s = c.move(s, seq, token).json()
        seq += 1
        if s["can_finish"]:
            break
    assert not s["won"]
    assert not any(None in p for p in s["view"]["piles"].values())
    r = c.post(f"/api/sessions/{s['id']}/finish/", {"seq": seq})
    assert r.status_code == 200
    assert r.json()["won"]


def test_a_hint_is_one_of_the_tables_legal_moves(api):
    c, s = started(api)
    r = c.post(f"/api/sessions/{s['id']}/hint/")
    assert r.status_code == 200
    body = r.json()
    assert body["hint"] in s["legal_moves"]
    assert body["source"] == "heuristic"


def test_yukon_plays_over_the_socket(api):
    c, s = started(api)

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        ok, _ = await ws.connect()
        assert ok
        hello = await ws.receive_json_from()
        answers = []
        for message in (
            {"type": "move", "seq": 0, "move": "64v3"},
            {"type": "move", "seq": 1, "move": "12"},
            {"type": "undo", "seq": 1},
            {"type": "move", "seq": 2, "move": "64v3"},
        ):
            await ws.send_json_to(message)
            answers.append(await ws.receive_json_from())
        await ws.disconnect()
        return hello, answers

    hello, (moved, refused, undone, again) = asyncio.run(scenario())
    assert hello["type"] == "hello"
    assert hello["seq"] == 0
    assert moved["type"] == "state"
    assert moved["seq"] == 1
    assert moved["view"]["piles"]["tableau:3"][-3:] == s["view"]["piles"]["tableau:5"][-3:]
    assert refused["type"] == "error"
    assert refused["error"] == "illegal_move"
    assert undone["type"] == "state"
    assert undone["seq"] == 2
    assert undone["view"] == s["view"]
    assert again["type"] == "state"
    assert again["seq"] == 3
    assert [t for t, _ in GameSession.objects.get(pk=s["id"]).moves] == ["64v3", "u", "64v3"]
