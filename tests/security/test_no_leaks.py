"""No face-down or stock card (nor the deal's seed) ever reaches a player of a game that
hides cards, whatever they play, over HTTP or the socket; boards carry no cards at all."""

from __future__ import annotations

import random

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.engine import GAMES, HIDDEN_CARD_GAMES
from games.models import GameSession
from tests.reliability.stack import run_async
from tests.security.leaks import assert_no_leak, cards_named, hidden_cards

pytestmark = pytest.mark.django_db(transaction=True)

# Every game that declares it hides cards (Table.hides_cards), whoever adds it.
HIDING = sorted(HIDDEN_CARD_GAMES)
DAILY = {g for g in HIDING if GAMES[g].daily}
MOVES_PER_SESSION = 60
# Tokens that are refused on most tables: the refusal's reason must not name hidden cards.
WRONG = ["1h", "7w", "w1", "fS2", "17", "r", "h1", "zz"]


def deal_for(game: str, i: int) -> str:
    return "daily" if game in DAILY and i == 0 else "random"


def test_the_family_under_test_is_the_one_with_hidden_cards():
    assert {"klondike", "klondike-draw3", "whitehorse"} <= set(HIDING)
    assert "freecell" not in HIDING


@pytest.mark.parametrize("game", HIDING)
def test_random_play_over_http_never_names_a_hidden_card(api, game):
    rng = random.Random(f"http-{game}")
    scanned = 0
    for i in range(2):
        c = api()
        state = c.start(game, deal_for(game, i))
        sid = state["id"]
        hidden, seed = hidden_cards(sid)
        assert hidden, "a fresh Klondike-family table has hidden cards"
        assert_no_leak(state, hidden, seed)
        for _ in range(MOVES_PER_SESSION):
            roll = rng.random()
            if roll < 0.08 and state["can_undo"]:
                r = c.post(f"/api/sessions/{sid}/undo/", {"seq": state["seq"]})
            elif roll < 0.16:
                r = c.move(sid, state["seq"], rng.choice(WRONG))
            elif roll < 0.18:
                r = c.post(f"/api/sessions/{sid}/finish/", {"seq": state["seq"]})
            elif roll < 0.20:
                r = c.move(sid, max(0, state["seq"] - 1), "s")  # a stale seq
            elif state["legal_moves"]:
                r = c.move(sid, state["seq"], rng.choice(state["legal_moves"])["move"])
            else:
                break
            answer = r.json()
            assert r.status_code in (200, 409, 422), answer
            hidden, _ = hidden_cards(sid)
            assert_no_leak(answer, hidden, seed)
            scanned += 1
            if r.status_code == 200:
                state = answer
            if state["won"]:
                break
        for path in (f"/api/sessions/{sid}/", "/api/daily/", "/api/me/"):
            assert_no_leak(c.get(path).json(), hidden, seed)
        r = c.post(f"/api/sessions/{sid}/hint/")
        assert r.status_code == 200
        assert_no_leak(r.json(), hidden, seed)
    assert scanned >= MOVES_PER_SESSION


@pytest.mark.parametrize("game", HIDING)
def test_random_play_over_the_socket_never_names_a_hidden_card(api, game):
    c = api()
    s = c.start(game, deal_for(game, 0))
    rng = random.Random(f"ws-{game}")
    hidden0, seed = hidden_cards(s["id"])

    async def scenario():
        from asgiref.sync import sync_to_async

        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        ok, _ = await ws.connect()
        assert ok
        received = []
        state = await ws.receive_json_from()
        received.append((state, hidden0))
        for _ in range(MOVES_PER_SESSION):
            roll = rng.random()
            if roll < 0.1 and state["can_undo"]:
                msg = {"type": "undo", "seq": state["seq"]}
            elif roll < 0.2:
                msg = {"type": "move", "seq": state["seq"], "move": rng.choice(WRONG)}
            elif roll < 0.22:
                msg = {"type": "resume"}
            elif state["legal_moves"]:
                msg = {
                    "type": "move",
                    "seq": state["seq"],
                    "move": rng.choice(state["legal_moves"])["move"],
                }
            else:
                break
            await ws.send_json_to(msg)
            answer = await ws.receive_json_from(timeout=10)
            hidden, _ = await sync_to_async(hidden_cards)(s["id"])
            received.append((answer, hidden))
            if answer["type"] == "state":
                state = answer
        await ws.disconnect()
        return received

    received = run_async(scenario())
    assert len(received) > MOVES_PER_SESSION // 2
    assert any(a["type"] == "state" and a["seq"] > 0 for a, _ in received)
    for answer, hidden in received:
        assert_no_leak(answer, hidden, seed)


def test_a_klondike_table_sent_to_the_player_hides_exactly_the_hidden_cards(api):
    """The scan above is only as good as its oracle: check the view against the engine."""
    c = api()
    s = c.start("klondike")
    hidden, _ = hidden_cards(s["id"])
    shown = cards_named(s["view"])
    assert len(hidden) == 21 + 24  # 21 face down in the piles, 24 in the stock
    assert len(shown) == 7
    assert not shown & hidden
    nulls = sum(p.count(None) for p in s["view"]["piles"].values())
    assert nulls == 21
    assert s["view"]["stock"] == 24


def test_board_and_presence_messages_carry_no_cards(api, solve_freecell):
    from games.daily.deals import today

    c = api()
    s = c.start("klondike")
    day = today().isoformat()

    async def scenario():
        board = WebsocketCommunicator(
            application, f"/ws/leaderboards/klondike/{day}/", headers=c.ws_headers()
        )
        assert (await board.connect())[0]
        messages = [await board.receive_json_from(), await board.receive_json_from()]
        play = WebsocketCommunicator(
            application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers()
        )
        assert (await play.connect())[0]
        await play.receive_json_from()
        messages.append(await board.receive_json_from(timeout=5))
        await play.disconnect()
        messages.append(await board.receive_json_from(timeout=5))
        await board.disconnect()
        return messages

    messages = run_async(scenario())
    kinds = [m["type"] for m in messages]
    assert kinds == ["leaderboard", "presence", "presence", "presence"]
    assert [m["playing"] for m in messages[1:]] == [0, 1, 0]
    for m in messages:
        assert cards_named(m) == set(), m

    # A won FreeCell board (the one daily with entries we can reach quickly) names no card.
    f = api()
    fs = f.start("freecell")
    for seq, token in enumerate(solve_freecell(fs["deal_number"])):
        r = f.move(fs, seq, token)
    assert r.json()["won"]
    board = c.get(f"/api/leaderboards/freecell/{day}/").json()
    assert len(board["entries"]) == 1
    assert cards_named(board) == set()
    assert GameSession.objects.filter(pk=s["id"]).exists()
