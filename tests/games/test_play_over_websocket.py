"""Play over /ws/sessions/<id>/ on the Redis channel layer, through the same operations."""

from __future__ import annotations

import asyncio
import random

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from games.engine import endgame, new_game, seen
from games.models import GameSession
from games.play import tables, verdicts
from tests.games.sockets import connect, opened

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_channel_layer_under_test_is_redis():
    assert "Redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"]


def test_the_owner_plays_over_the_socket_and_a_repeated_seq_is_applied_once(api):
    c = api()
    s = c.start("freecell", 617)

    async def scenario():
        ws = connect(c, s["id"])
        ok, _ = await ws.connect()
        assert ok
        first = await ws.receive_json_from()
        # The greeting is not an answer: its own type, so no client reads it as one.
        assert first["type"] == "hello"
        assert first["seq"] == 0
        assert "answers" not in first
        await ws.send_json_to({"type": "move", "seq": 0, "move": "8a"})
        after = await ws.receive_json_from()
        await ws.send_json_to({"type": "move", "seq": 0, "move": "8a"})
        again = await ws.receive_json_from()
        await ws.send_json_to({"type": "move", "seq": 1, "move": "1h"})
        refused = await ws.receive_json_from()
        await ws.send_json_to({"type": "undo", "seq": 1})
        undone = await ws.receive_json_from()
        await ws.disconnect()
        return after, again, refused, undone

    after, again, refused, undone = asyncio.run(scenario())
    assert after["type"] == "state", after
    assert after["seq"] == 1, after
    assert after["view"]["piles"]["cell:0"] != []
    assert again == {
        "type": "error",
        "error": "stale_seq",
        "reason": again["reason"],
        "seq": 1,
        "answers": {"type": "move", "seq": 0, "op": None},
    }
    assert after["answers"] == {"type": "move", "seq": 0, "op": None}
    assert refused["type"] == "error"
    assert refused["error"] == "illegal_move"
    assert refused["reason"]
    assert refused["code"]
    assert isinstance(refused["params"], dict)
    assert undone["type"] == "state"
    assert undone["seq"] == 2
    assert undone["undo_count"] == 1
    stored = GameSession.objects.get(pk=s["id"])
    assert [t for t, _ in stored.moves] == ["8a", "u"]
    assert c.get(f"/api/sessions/{s['id']}/").json()["seq"] == 2


def test_a_reconnecting_client_resumes_from_the_last_stored_move(api):
    c = api()
    s = c.start("freecell", 617)
    c.move(s, 0, "8a")

    async def scenario():
        ws = connect(c, s["id"])
        await ws.connect()
        hello = await ws.receive_json_from()
        await ws.send_json_to({"type": "resume", "seq": 0})
        resumed = await ws.receive_json_from()
        await ws.disconnect()
        return hello, resumed

    hello, resumed = asyncio.run(scenario())
    assert hello["seq"] == 1
    assert resumed["seq"] == 1
    assert resumed["view"] == hello["view"]


def _socket_connections(terminate: bool = False) -> int:
    from django.db import connection

    from games.live import driver

    what = "pg_terminate_backend(pid)" if terminate else "pid"
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {what} FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name = %s",
                [driver.APPLICATION_NAME],
            )
            return len(cursor.fetchall())
    finally:
        connection.close()  # this thread's own connection must not outlive the test database


def test_socket_moves_go_on_when_the_database_drops_their_connections(api):
    """Socket moves are stored on their own asyncio connections; when the server drops
    them (as a restart does) the next move is still stored, once."""
    c = api()
    s = c.start("freecell", 617)

    async def scenario():
        ws = await opened(c, s["id"])
        await ws.send_json_to({"type": "move", "seq": 0, "move": "8a"})
        first = await ws.receive_json_from()
        used = await asyncio.to_thread(_socket_connections)
        dropped = await asyncio.to_thread(_socket_connections, True)
        token = first["legal_moves"][0]["move"]
        await ws.send_json_to({"type": "move", "seq": 1, "move": token})
        second = await ws.receive_json_from()
        await ws.disconnect()
        return first, used, dropped, token, second

    first, used, dropped, token, second = asyncio.run(scenario())
    assert first["type"] == "state"
    assert first["seq"] == 1
    assert used >= 1
    assert dropped == used
    assert second["type"] == "state", second
    assert second["seq"] == 2, second
    stored = GameSession.objects.get(pk=s["id"])
    assert [t for t, _ in stored.moves] == ["8a", token]
    assert stored.seq == 2


def test_moves_from_many_sockets_share_statements_and_a_stale_one_among_them_is_refused(api):
    """Moves that arrive together are stored by fewer statements than moves, each on its own
    session and once; one whose row moved on behind this process's back (another process
    stored a move) is answered stale_seq while the others in its batch are stored."""
    from games.live import driver
    from games.models import Player
    from games.play import operations, tables

    clients = [api() for _ in range(8)]
    sessions = [c.start("freecell", 617) for c in clients]

    async def scenario():
        sockets = [await opened(c, s["id"]) for c, s in zip(clients, sessions, strict=True)]
        for ws in sockets:  # a session's first move takes the locked path: it is not timed
            await ws.send_json_to({"type": "move", "seq": 0, "move": "8a"})
            await ws.receive_json_from()
        return sockets

    async def together(sockets, stale_token):
        sent = dict(driver.SENT)
        for i, ws in enumerate(sockets):
            await ws.send_json_to(
                {"type": "move", "seq": 1, "move": stale_token if i == 0 else "8b"}
            )
        answers = [await ws.receive_json_from() for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return answers, {k: driver.SENT[k] - sent.get(k, 0) for k in ("statements", "rows")}

    loop = asyncio.new_event_loop()
    try:
        sockets = loop.run_until_complete(scenario())
        first = GameSession.objects.get(pk=sessions[0]["id"])
        stale = tables.take(first.pk, 1)  # "another process", without this table, stores
        assert stale is not None  # move 2 of the first session
        owner = Player.objects.get(pk=first.player_id)
        operations.play_move(first.pk, owner, 1, "8b")
        stale_token = seen.move_objects(stale)[0]["move"]
        tables.keep(first.pk, 1, stale, (owner.pk, first.deal, first.ranked))
        answers, sent = loop.run_until_complete(together(sockets, stale_token))
    finally:
        loop.close()
    assert answers[0]["type"] == "error"
    assert answers[0]["error"] == "stale_seq"
    assert answers[0]["seq"] == 2
    assert all(a["type"] == "state" and a["seq"] == 2 for a in answers[1:]), answers
    assert 1 <= sent["statements"] < sent["rows"]
    assert sent["rows"] >= 7
    rows = {str(r.pk): r for r in GameSession.objects.filter(pk__in=[s["id"] for s in sessions])}
    assert [t for t, _ in rows[sessions[0]["id"]].moves] == ["8a", "8b"]
    assert all([t for t, _ in rows[s["id"]].moves] == ["8a", "8b"] for s in sessions[1:])


def test_an_old_client_can_ask_for_the_old_greeting_for_one_release(api):
    c = api()
    s = c.start("freecell", 617)

    async def scenario():
        ws = WebsocketCommunicator(
            application, f"/ws/sessions/{s['id']}/?protocol=1", headers=c.ws_headers()
        )
        await ws.connect()
        first = await ws.receive_json_from()
        await ws.send_json_to({"type": "move", "seq": 0, "move": "8a", "op": "k1"})
        after = await ws.receive_json_from()
        await ws.disconnect()
        return first, after

    first, after = asyncio.run(scenario())
    assert first["type"] == "state"
    assert first["seq"] == 0
    assert after["answers"] == {"type": "move", "seq": 0, "op": "k1"}
    assert after["op"] == "k1"


def _line_to_a_searched_dead_end(key: str, seed: int) -> list[str]:
    """Random moves (the stock among them) from deal ``seed`` to a position that only the
    search proves dead: it still has legal moves, none of which can change the outcome."""
    for salt in range(400):
        rng = random.Random(salt)
        g = new_game(key, seed)
        tokens: list[str] = []
        for _ in range(250):
            moves = list(g.legal_moves())
            if not moves:
                break
            move = rng.choice(moves)
            tokens.append(g.notation(move))
            g.apply(move)
            if endgame.no_move_matters(g) and not endgame.no_legal_move(g):
                return tokens
    raise AssertionError("no searched dead end found")


def _started(client, key):
    """A new session on a random deal, its seed and a line to a searched dead end."""
    s = client.start(key, "random")
    seed = GameSession.objects.select_related("deal").get(pk=s["id"]).deal.seed
    return s, seed, _line_to_a_searched_dead_end(key, seed)


@pytest.fixture
def verdicts_deferred(settings):
    """Every dead-end verdict that needs a search is settled in the worker, none on the loop."""
    settings.DEAD_END_LOOP_MS = 0
    settings.DEAD_END_SETTLE_MS = 0
    # The workers started now, so that the first verdicts do not wait for them.
    asyncio.run(verdicts.settle(verdicts.detached(new_game("klondike", 1))))
    yield
    verdicts.reset()


def test_a_dead_end_the_loop_had_no_time_for_is_told_after_the_answer(api, verdicts_deferred):
    c = api()
    s, _, tokens = _started(c, "klondike-1-pass")

    async def scenario():
        ws = await opened(c, s["id"])
        got = []
        for seq, token in enumerate(tokens):
            await ws.send_json_to({"type": "move", "seq": seq, "move": token})
            got.append(await ws.receive_json_from(timeout=10))
        # The last position is dead: its verdict follows the answer.
        got.append(await ws.receive_json_from(timeout=30))
        await ws.send_json_to({"type": "resume"})
        got.append(await ws.receive_json_from(timeout=10))
        await ws.disconnect()
        return got

    *answers, verdict, resumed = asyncio.run(scenario())
    # Every position before the last was live: no answer (and no verdict) said otherwise.
    assert all(a["type"] == "state" and not a["no_legal_move"] for a in answers), [
        a for a in answers if a["type"] != "state" or a["no_legal_move"]
    ][:1]
    assert [a["seq"] for a in answers] == list(range(1, len(tokens) + 1))
    assert verdict == {"type": "verdict", "seq": len(tokens), "no_legal_move": True}
    assert resumed["type"] == "state"
    assert resumed["no_legal_move"] is True
    assert c.get(f"/api/sessions/{s['id']}/").json()["no_legal_move"] is True
    # The worker's findings were left on the kept table, for the next move's verdict.
    kept = tables.peek(s["id"], len(tokens))
    assert kept is None or kept.dead_end_memo is None or kept.dead_end_memo[0] is True


def test_each_deferred_verdict_is_the_exact_one(api, verdicts_deferred):
    """Along random play with the stock, waiting after each move: a verdict message comes
    exactly where a fresh search says no move matters, and never elsewhere."""
    c = api()
    s, seed, tokens = _started(c, "klondike-1-pass")
    g = new_game("klondike-1-pass", seed)
    wanted = []
    for token in tokens:
        g.play(token)
        fresh = g.copy()
        fresh.dead_end_memo = None
        wanted.append(endgame.no_move_matters(fresh))

    async def scenario():
        ws = await opened(c, s["id"])
        said = []
        for seq, token in enumerate(tokens):
            await ws.send_json_to({"type": "move", "seq": seq, "move": token})
            answer = await ws.receive_json_from(timeout=10)
            dead = answer["no_legal_move"]
            if not await ws.receive_nothing(timeout=0.3 if not dead else 0.01):
                follow = await ws.receive_json_from()
                assert follow["type"] == "verdict", follow
                assert follow["seq"] == answer["seq"], follow
                dead = follow["no_legal_move"]
            said.append(dead)
        await ws.disconnect()
        return said

    assert asyncio.run(scenario()) == wanted
