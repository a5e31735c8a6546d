"""One path per operation: the operations' table (games/play/dispatch.py) behind the socket,
the HTTP views and the page's HTTP fallback; undo as the engine decides it, whichever way
it comes; and a move the optimistic store declines parsed and checked once."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from django.urls import resolve

from games.engine import GAMES, new_game
from games.fairplay import line_share
from games.models import GameSession
from games.play import dispatch, locked, tables
from tests.games.sockets import opened

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def test_every_operation_of_the_table_is_served_at_its_path_and_the_page_posts_there():
    served = {name: op.path for name, op in dispatch.OPERATIONS.items() if op.path}
    assert set(served) == {"move", "undo", "finish", "resign", "hint"}
    for name, path in served.items():
        view = resolve(f"/api/sessions/00000000-0000-0000-0000-000000000000/{path}").func
        assert view.cls.operation == name  # type: ignore[attr-defined]
        assert view.cls.rate_limit_scope == dispatch.OPERATIONS[name].scope == "moves"
    # The page's HTTP fallback reads one map of the same paths (api.js, OPERATIONS).
    js = (ROOT / "frontend/static/frontend/js/api.js").read_text()
    found = re.search(r"OPERATIONS = Object\.freeze\(\{([^}]*)\}\)", js)
    assert found, "api.js has no OPERATIONS map"
    pairs = dict(re.findall(r"(\w+): '([^']*)'", found.group(1)))
    assert pairs == served


def _illegal(game: str, seed: int) -> str:
    """A token that parses on the deal and that the rules refuse."""
    g = new_game(game, seed)
    for token in (f"{c}h" for c in "12345678"):
        if g.reason(g.parse(token)) is not None:
            return token
    raise AssertionError("every column's top goes up on this deal")


def test_a_refused_socket_move_is_parsed_once_and_the_next_move_is_stored_without_a_lock(
    api, monkeypatch
):
    c = api()
    s = c.start("freecell", 617)
    bad = _illegal("freecell", 617)
    good = s["legal_moves"][0]["move"]
    game_class = type(new_game("freecell", 617))
    calls = {"parse": [], "take": 0, "lock": 0}
    parse, take, lock = game_class.parse, tables.take_with_facts, locked.lock

    def counted_parse(self, token):
        calls["parse"].append(token)
        return parse(self, token)

    def counted_take(*args):
        calls["take"] += 1
        return take(*args)

    def counted_lock(*args):
        calls["lock"] += 1
        return lock(*args)

    monkeypatch.setattr(game_class, "parse", counted_parse)
    monkeypatch.setattr(tables, "take_with_facts", counted_take)
    monkeypatch.setattr(tables, "take", lambda *a: pytest.fail("the table was taken again"))
    monkeypatch.setattr(locked, "lock", counted_lock)

    async def scenario():
        ws = await opened(c, s["id"])
        await ws.send_json_to({"type": "move", "seq": 0, "move": bad, "op": "bad-1"})
        refused = await ws.receive_json_from()
        seen = dict(calls, parse=list(calls["parse"]))
        await ws.send_json_to({"type": "move", "seq": 0, "move": good, "op": "good-1"})
        stored = await ws.receive_json_from()
        await ws.disconnect()
        return refused, seen, stored

    refused, seen, stored = asyncio.run(scenario())
    assert refused["error"] == "illegal_move", refused
    assert refused["seq"] == 0
    assert refused["code"]
    assert seen["parse"].count(bad) == 1  # the check on the loop; the lock only read the row
    assert seen["take"] == 1
    assert seen["lock"] == 1  # the refusal is answered once the row is known to be at seq 0
    assert stored["type"] == "state", stored
    assert stored["seq"] == 1
    # The refused move left the table kept with the session's facts: the next move was
    # stored by the optimistic statement, no row lock taken.
    assert calls["lock"] == 1
    assert GameSession.objects.get(pk=s["id"]).tokens == [good]


def test_a_winning_socket_move_is_stored_on_the_table_its_check_played(
    api, solve_freecell, monkeypatch
):
    c = api()
    s = c.start("freecell", 1)
    line = solve_freecell(1)
    seq = 0
    for token in line[:-1]:
        r = c.move(s, seq, token)
        assert r.status_code == 200, r.content
        seq += 1
    game_class = type(new_game("freecell", 1))
    parsed: list[str] = []
    parse = game_class.parse

    def counted_parse(self, token):
        parsed.append(token)
        return parse(self, token)

    monkeypatch.setattr(game_class, "parse", counted_parse)
    monkeypatch.setattr(locked, "rebuild", lambda *a: pytest.fail("the table was rebuilt"))

    async def scenario():
        ws = await opened(c, s["id"])
        await ws.send_json_to({"type": "move", "seq": seq, "move": line[-1], "op": "last"})
        answer = await ws.receive_json_from()
        await ws.disconnect()
        return answer

    answer = asyncio.run(scenario())
    assert answer["type"] == "state", answer
    assert answer["won"] is True
    assert answer["status"] == "won"
    assert parsed.count(line[-1]) == 1
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.status == GameSession.WON
    assert stored.tokens == line


@pytest.mark.parametrize("token", ["u", "UNDO", "Undo "])
def test_an_undo_spelt_any_way_over_http_or_the_socket_is_stored_as_u(api, token):
    c = api()
    s = c.start("freecell", 617)
    first = s["legal_moves"][0]["move"]
    assert c.move(s, 0, first).status_code == 200
    r = c.move(s, 1, token)
    assert r.status_code == 200, r.content
    assert (r.json()["seq"], r.json()["moves"], r.json()["undo_count"]) == (2, 0, 1)
    assert c.move(s, 2, first).status_code == 200

    async def scenario():
        ws = await opened(c, s["id"])
        await ws.send_json_to({"type": "move", "seq": 3, "move": token})
        answer = await ws.receive_json_from()
        await ws.disconnect()
        return answer

    answer = asyncio.run(scenario())
    assert (answer["seq"], answer["moves"], answer["undo_count"]) == (4, 0, 2), answer
    assert GameSession.objects.get(pk=s["id"]).tokens == [first, "u", first, "u"]


def test_an_uploaded_offline_undo_is_stored_as_u_and_read_as_one_by_the_shared_line(api):
    c = api()
    r = c.post(
        "/api/offline-games/",
        {"game": "freecell", "seed": "1", "moves": ["3a", "UNDO", "3b"], "client": "spelt"},
    )
    assert r.status_code == 201, r.content
    session = GameSession.objects.get(pk=r.json()["id"])
    assert session.tokens == ["3a", "u", "3b"]
    assert session.undo_count == 1
    # The line shared reads the stored list: the undone move is off the path.
    assert [move for _, move in line_share.path("freecell", 1, session.tokens)] == ["3b"]


def test_every_game_answers_an_undo_token_as_the_undo_operation_does(api):
    c = api()
    for key in GAMES:
        s = c.start(key, "random")
        first = s["legal_moves"][0]["move"]
        assert c.move(s, 0, first).status_code == 200
        by_token = c.move(s, 1, "undo").json()
        assert c.move(s, 2, first).status_code == 200
        by_view = c.post(f"/api/sessions/{s['id']}/undo/", {"seq": 3}).json()
        assert by_token["view"] == by_view["view"] == s["view"], key
        assert (by_token["undo_count"], by_view["undo_count"]) == (1, 2)
