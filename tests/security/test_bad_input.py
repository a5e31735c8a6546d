"""Bad input is refused with a 4xx JSON answer that names the problem, echoes (almost)
nothing the client sent, and stores nothing: over HTTP (the body parser in
games/api/parsers.py, the date helper in leaderboards/views.py) and over the play socket
(the same parser).  Bodies too large to read: test_body_size.py."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.api.parsers import MAX_BODY_BYTES, MAX_DEPTH
from games.models import GameSession

from .refusals import SHORT, post_bytes, refused, sessions_of


def nested(depth: int, inner: str = "1") -> str:
    """A JSON object whose ``deal`` makes the whole body ``depth`` containers deep."""
    lists = depth - 1
    return '{"game": "klondike", "deal": ' + "[" * lists + inner + "]" * lists + "}"


# --- deep nesting --------------------------------------------------------------------------


DEEP = {
    "50,000 brackets": "[" * 50_000,
    "50,000 deep under a key, closed": nested(50_000),  # 100 KB: over the body limit
    "20,000 deep under a key, closed": nested(20_000),  # under the body limit
    "just past the depth limit": nested(MAX_DEPTH + 1),
}


@pytest.mark.parametrize("body", DEEP.values(), ids=DEEP.keys())
def test_a_deeply_nested_body_is_refused_on_start_and_on_a_move(api, body):
    c = api()
    s = c.start("freecell", 617)
    before = sessions_of(c)
    expected = (413, "too_large") if len(body) > MAX_BODY_BYTES else (400, "bad_json")
    refused(c.post("/api/sessions/", raw=body), *expected)
    move_body = body.replace('"game": "klondike", "deal"', '"seq": 0, "move"')
    refused(c.post(f"/api/sessions/{s['id']}/moves/", raw=move_body), *expected)
    assert sessions_of(c) == before
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.moves == []
    assert stored.seq == 0


def test_the_depth_limit_leaves_room_for_every_real_body(api):
    c = api()
    # As deep as allowed: the parser takes it, and the serializer words what is wrong.
    body = refused(c.post("/api/sessions/", raw=nested(MAX_DEPTH)), 400, "bad_request")
    assert body["reason"].startswith("deal:")
    assert sessions_of(c) == 0


# --- NUL and lone surrogates ---------------------------------------------------------------


BAD_STRINGS = {
    "NUL in a value": '{"game": "klondike", "deal": "abc\\u0000"}',
    "raw NUL in a value": '{"game": "klondike", "deal": "abc\x00"}',
    "NUL in a key": '{"game": "klondike", "deal": "random", "x\\u0000": 1}',
    "NUL deep in a list": '{"game": "klondike", "deal": "random", "x": [["\\u0000"]]}',
    "lone high surrogate": '{"game": "klondike", "deal": "\\ud800"}',
    "lone low surrogate": '{"game": "klondike", "deal": "x\\udc00y"}',
    "lone surrogate in a key": '{"game": "klondike", "deal": "random", "\\ud83d": 1}',
}


@pytest.mark.parametrize("body", BAD_STRINGS.values(), ids=BAD_STRINGS.keys())
def test_nul_and_lone_surrogates_anywhere_are_refused(api, body):
    c = api()
    refused(c.post("/api/sessions/", raw=body), 400, "bad_json")
    assert sessions_of(c) == 0


def test_a_proper_surrogate_pair_is_just_text(api):
    c = api()
    # An emoji written as an escaped pair is a valid deal id as far as JSON goes: refused
    # only because there is no such deal.
    body = refused(
        c.post("/api/sessions/", raw='{"game": "klondike", "deal": "\\ud83d\\ude00"}'),
        400,
        "bad_request",
    )
    assert "no deal" in body["reason"]


INVALID_BYTES = {
    "invalid UTF-8": b'{"game": "klondike", "deal": "\xff\xfe"}',
    "UTF-8 encoded surrogate": b'{"game": "klondike", "deal": "\xed\xa0\x80"}',
    "truncated sequence": b'{"game": "klondike", "deal": "\xe2\x82"}',
    "latin-1 text": '{"game": "klondike", "deal": "café"}'.encode("latin-1"),
}


@pytest.mark.parametrize("body", INVALID_BYTES.values(), ids=INVALID_BYTES.keys())
def test_bytes_that_are_not_utf8_are_refused(api, body):
    c = api()
    refused(post_bytes(c, "/api/sessions/", body), 400, "bad_json")
    assert sessions_of(c) == 0


# --- numbers, types ------------------------------------------------------------------------


NUMBERS = {
    "1e400": ('{"seq": 1e400, "move": "8a"}', "bad_json"),
    "-1e400": ('{"seq": -1e400, "move": "8a"}', "bad_json"),
    "2**80": (json.dumps({"seq": 2**80, "move": "8a"}), "bad_json"),
    "2**63": (json.dumps({"seq": 2**63, "move": "8a"}), "bad_json"),
    "-2**63 - 1": (json.dumps({"seq": -(2**63) - 1, "move": "8a"}), "bad_json"),
    "2**80 elsewhere": (json.dumps({"seq": 0, "move": "8a", "x": [2**80]}), "bad_json"),
    "-1": ('{"seq": -1, "move": "8a"}', "bad_request"),
    "0.0": ('{"seq": 0.0, "move": "8a"}', "bad_request"),
    "NaN": ('{"seq": NaN, "move": "8a"}', "bad_json"),
    "Infinity": ('{"seq": Infinity, "move": "8a"}', "bad_json"),
}


@pytest.mark.parametrize(("body", "code"), NUMBERS.values(), ids=NUMBERS.keys())
def test_numbers_out_of_range_are_refused_and_nothing_moves(api, body, code):
    c = api()
    s = c.start("freecell", 617)
    refused(c.post(f"/api/sessions/{s['id']}/moves/", raw=body), 400, code)
    refused(
        c.post(f"/api/sessions/{s['id']}/undo/", raw=body.replace('"move": "8a"', '"x": 1')),
        400,
        code,
    )
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.moves == []
    assert stored.seq == 0
    # The same session still plays: nothing was left half done.
    assert c.move(s, 0, "8a").status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        "[]",
        "[1, 2]",
        '"klondike"',
        "1",
        "null",
        "true",
        "",
        "{",
        '{"game": "klondike"} x',
        "\ufeff{}",
    ],
)
def test_a_body_that_is_not_one_json_object_is_refused(api, body):
    c = api()
    s = c.start("freecell", 617)
    before = sessions_of(c)
    refused(c.post("/api/sessions/", raw=body), 400, "bad_json", "bad_request")
    refused(c.post(f"/api/sessions/{s['id']}/moves/", raw=body), 400, "bad_json", "bad_request")
    assert sessions_of(c) == before
    assert GameSession.objects.get(pk=s["id"]).moves == []


# --- no echo -------------------------------------------------------------------------------


def test_a_huge_unknown_deal_id_is_not_echoed(api):
    c = api()
    for deal in ("x" * 60_000, "y" * 25):
        body = refused(
            c.post("/api/sessions/", {"game": "klondike", "deal": deal}), 400, "bad_request"
        )
        assert deal[:25] not in body["reason"]
        assert "24" in body["reason"]
    # An id that could be real is named back, so the player sees which one was wrong.
    body = refused(
        c.post("/api/sessions/", {"game": "klondike", "deal": "z" * 24}), 400, "bad_request"
    )
    assert "z" * 24 in body["reason"]
    assert sessions_of(c) == 0


def test_a_huge_unknown_game_is_not_echoed(api):
    c = api()
    body = refused(c.post("/api/sessions/", {"game": "g" * 60_000}), 400, "bad_request")
    assert "klondike" in body["reason"]
    body = refused(c.get("/api/leaderboards/" + "g" * 4000 + "/2026-01-01/"), 400, "bad_request")
    assert "g" * 40 not in body["reason"]
    refused(c.get("/api/leaderboards/" + "g" * 4000 + "/week/2026-01-01/"), 400, "bad_request")
    refused(c.get("/api/leaderboards/" + "g" * 4000 + "/all-time/"), 400, "bad_request")
    assert sessions_of(c) == 0


@pytest.mark.parametrize("deal", ["²", "٣", "9" * 5000, "1" * 25, 2**62, -5, 0])
def test_a_deal_number_that_is_not_one_is_refused(api, deal):
    c = api()
    body = refused(c.post("/api/sessions/", {"game": "freecell", "deal": deal}), 400, "bad_request")
    assert "9" * 30 not in body["reason"]
    assert "1" * 25 not in body["reason"]
    assert sessions_of(c) == 0


def test_a_huge_content_type_is_not_echoed(api):
    c = api()
    r = c.client.post(
        "/api/sessions/", b"{}", content_type="text/" + "x" * 5000, HTTP_X_CSRFTOKEN=c.csrf
    )
    body = refused(r, 415, "unsupported_media_type")
    assert "application/json" in body["reason"]
    assert sessions_of(c) == 0


# --- dates in URLs -------------------------------------------------------------------------


DATE_URLS = ["/api/leaderboards/klondike/{}/", "/api/leaderboards/klondike/week/{}/"]
BAD_DATES = [
    "9999-12-31",
    "9999-12-27",
    "0001-01-01",
    "0001-01-07",
    "1899-12-31",
    "2026-02-30",
    "20260101",
    "2026-W01-1",
    "2026-1-1",
    "+2026-01-01",
    "２０２６-01-01",
    "2026-01-01T00:00",
    "x" * 3000,
]


@pytest.mark.parametrize("url", DATE_URLS)
@pytest.mark.parametrize("day", BAD_DATES)
def test_a_date_outside_the_supported_range_or_format_is_400(api, url, day):
    body = refused(api().get(url.format(day)), 400, "bad_request")
    assert "YYYY-MM-DD" in body["reason"]
    assert day[:20] not in body["reason"]


@pytest.mark.parametrize("url", DATE_URLS)
@pytest.mark.parametrize("day", ["2000-01-01", "2026-03-01", "2999-12-31"])
def test_a_date_inside_the_range_is_answered(api, url, day):
    r = api().get(url.format(day))
    assert r.status_code == 200, r.content[:300]
    assert r.json()["entries"] == []


# --- the play socket -----------------------------------------------------------------------


SOCKET_FRAMES = {
    "50,000 brackets": ("[" * 50_000, "bad_json"),
    "past the depth limit": (
        '{"type": "move", "seq": 0, "move": ' + "[" * MAX_DEPTH + '"8a"' + "]" * MAX_DEPTH + "}",
        "bad_json",
    ),
    "NUL in the move": ('{"type": "move", "seq": 0, "move": "8a\\u0000"}', "bad_json"),
    "NUL in a key": ('{"type": "move", "seq": 0, "move": "8a", "\\u0000": 1}', "bad_json"),
    "escaped lone surrogate": ('{"type": "move", "seq": 0, "move": "\\ud800"}', "bad_json"),
    "raw lone surrogate": ('{"type": "move", "seq": 0, "move": "\ud800"}', "bad_json"),
    "seq 2**80": (json.dumps({"type": "move", "seq": 2**80, "move": "8a"}), "bad_json"),
    "seq 1e400": ('{"type": "move", "seq": 1e400, "move": "8a"}', "bad_json"),
    "too large": (json.dumps({"type": "move", "seq": 0, "move": "8" * MAX_BODY_BYTES}), "bad_json"),
    "a list": ("[1, 2]", "bad_request"),
    "not JSON": ("move 8a", "bad_json"),
}


@pytest.mark.django_db(transaction=True)
def test_the_socket_refuses_the_same_input_and_stays_open(api):
    c = api()
    s = c.start("freecell", 617)

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        ok, _ = await ws.connect()
        assert ok
        await ws.receive_json_from()
        answers = []
        for text, _ in SOCKET_FRAMES.values():
            await ws.send_input({"type": "websocket.receive", "text": text})
            answers.append(await ws.receive_json_from(timeout=20))
        await ws.send_input({"type": "websocket.receive", "bytes": b'{"type": "resume"}'})
        binary = await ws.receive_json_from(timeout=20)
        await ws.send_json_to({"type": "move", "seq": 0, "move": "8a"})
        played = await ws.receive_json_from(timeout=20)
        await ws.disconnect()
        return answers, binary, played

    answers, binary, played = asyncio.run(scenario())
    for (name, (_, code)), answer in zip(SOCKET_FRAMES.items(), answers, strict=True):
        assert set(answer) == {"type", "error", "reason"}, (name, answer)
        assert answer["type"] == "error", (name, answer)
        assert answer["error"] == code, (name, answer)
        assert isinstance(answer["reason"], str), (name, answer)
        assert len(answer["reason"]) > 10, (name, answer)
        assert len(json.dumps(answer)) < SHORT, name
    assert binary["type"] == "error"
    assert binary["error"] == "bad_json"
    assert played["type"] == "state", played
    assert played["seq"] == 1, played
    stored = GameSession.objects.get(pk=s["id"])
    assert [t for t, _ in stored.moves] == ["8a"]
