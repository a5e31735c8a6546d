"""Generated messages on /ws/sessions/<id>/ (hypothesis): wrong types, huge payloads, wrong
seq, unknown moves, binary frames.  Every message is answered with a state or a clear error,
the socket stays usable, and the stored session only ever changes by a move the server
acknowledged: after every answer the stored move list replays through the engine to the
stored counters, and its length is the last acknowledged seq."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from games.engine import replay
from games.models import GameSession
from tests.reliability.stack import run_async

pytestmark = pytest.mark.django_db(transaction=True)

CURRENT = object()  # stands for the session's seq at the time the message is sent
GAMES = ["klondike", "freecell", "bakers-dozen", "whitehorse"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
seqs = st.one_of(
    st.just(CURRENT),
    st.just(CURRENT),
    st.just(CURRENT),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.just(-1),
    st.just(10**6),
    st.none(),
    st.booleans(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
)
tokens = st.one_of(
    st.sampled_from(
        [
            "s",
            "r",
            "w1",
            "wh",
            "1h",
            "7h",
            "12",
            "17",
            "8a",
            "a1",
            "ah",
            "1",
            "u",
            "undo",
            "fH3",
            "fS1",
            "26v4",
            "26va",
            "kh",
            "th",
            "LEGAL",
            "LEGAL",
            "LEGAL",
        ]
    ),
    st.text(max_size=20),
    st.text(alphabet="0123456789abcdefhjkqrstuvwfHCDS", max_size=6),
    st.integers(),
    st.none(),
    st.lists(st.text(max_size=3), max_size=3),
    st.just("x" * 100_000),
)
structured = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["move", "move", "move", "undo", "finish", "resume", "state", "hint", "fly", "", "MOVE"]
        )
    },
    optional={"seq": seqs, "move": tokens, "extra": json_values},
)
frames = st.one_of(
    structured,
    structured,
    structured,
    st.builds(lambda v: ("json", v), json_values),
    st.builds(lambda b: ("bytes", b), st.binary(max_size=64)),
    st.builds(lambda t: ("text", t), st.text(max_size=64)),
    st.sampled_from(
        [
            ("text", "[" * 100_000),
            ("text", '{"type": "move", "move": "' + "9" * 1_000_000 + '"}'),
            ("text", ""),
            ("bytes", b"\xff\xfe\x00"),
        ]
    ),
)


def stored(session_id: str) -> dict[str, Any]:
    s = GameSession.objects.select_related("deal").get(pk=session_id)
    g = replay(s.game, s.deal.seed, s.tokens)  # raises if a stored move is not legal
    return {
        "seq": s.seq,
        "moves": len(s.moves),
        "score": s.score,
        "cards_up": s.cards_up,
        "engine_cards_up": g.cards_up,
        "engine_score": g.score if g.has_score else None,
        "won": s.status == GameSession.WON,
        "engine_won": g.won,
    }


def encode(frame: Any, state: dict[str, Any]) -> tuple[str | None, bytes | None]:
    if isinstance(frame, tuple):
        kind, value = frame
        if kind == "bytes":
            return None, value
        if kind == "text":
            return value, None
        return json.dumps(value), None
    msg = dict(frame)
    if msg.get("seq") is CURRENT:
        msg["seq"] = state["seq"]
    if msg.get("move") == "LEGAL" and state.get("legal_moves"):
        msg["move"] = state["legal_moves"][0]["move"]
    return json.dumps(msg), None


@override_settings(HINT_BUDGET_SECONDS=0.05)
@settings(
    max_examples=30,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(game=st.sampled_from(GAMES), messages=st.lists(frames, min_size=1, max_size=12))
def test_any_message_gets_a_clear_answer_and_only_acknowledged_moves_are_stored(
    api, game, messages
):
    c = api()
    start = c.start(game, "random")
    sid = start["id"]

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{sid}/", headers=c.ws_headers())
        ok, _ = await ws.connect()
        assert ok
        state = await ws.receive_json_from()
        assert state["type"] == "hello"  # the greeting
        for frame in messages:
            text, data = encode(frame, state)
            # Sent raw: the test helper refuses empty frames, a real client may send them.
            frame_in = (
                {"type": "websocket.receive", "text": text}
                if data is None
                else {"type": "websocket.receive", "bytes": data}
            )
            await ws.send_input(frame_in)
            answer = await ws.receive_json_from(timeout=20)
            assert answer["type"] in {"state", "error"}, answer
            if answer["type"] == "error":
                assert isinstance(answer["reason"], str), answer
                assert answer["reason"], answer
                assert answer["error"] in {
                    "bad_json",
                    "bad_request",
                    "stale_seq",
                    "illegal_move",
                }, answer
            else:
                state = answer
            now = await sync_to_async(stored)(sid)
            assert now["seq"] == now["moves"] == state["seq"], (frame, now, state["seq"])
            assert now["cards_up"] == now["engine_cards_up"]
            assert now["won"] == now["engine_won"]
            if not now["won"]:
                assert now["score"] == now["engine_score"]
        # The socket still plays a legal move after all that.
        if state["legal_moves"] and not state["won"]:
            await ws.send_json_to(
                {"type": "move", "seq": state["seq"], "move": state["legal_moves"][0]["move"]}
            )
            after = await ws.receive_json_from(timeout=20)
            assert after["type"] == "state", after
            assert after["seq"] == state["seq"] + 1, after
        await ws.disconnect()

    run_async(scenario())


def test_a_deeply_nested_frame_is_answered_as_bad_json(api):
    c = api()
    s = c.start("klondike", "random")

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        await ws.connect()
        await ws.receive_json_from()
        await ws.send_to(text_data="[" * 200_000)
        answer = await ws.receive_json_from(timeout=20)
        await ws.send_to(bytes_data=b"\x00\x01binary")
        binary = await ws.receive_json_from(timeout=20)
        await ws.disconnect()
        return answer, binary

    answer, binary = run_async(scenario())
    assert answer["type"] == "error"
    assert answer["error"] == "bad_json"
    assert binary["type"] == "error"
    assert binary["error"] == "bad_json"
    assert GameSession.objects.get(pk=s["id"]).moves == []
