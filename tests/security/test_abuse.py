"""Abuse: rate limits (Redis-backed, 429 with Retry-After), CSRF on every unsafe call."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings
from django.urls import get_resolver

from config.asgi import application
from games.models import GameSession
from tests.reliability.stack import run_async

pytestmark = pytest.mark.django_db(transaction=True)


def limits(**kw):
    from django.conf import settings

    # A fresh key prefix: player ids repeat between test runs sharing this Redis.
    return override_settings(
        RATE_LIMITS={**settings.RATE_LIMITS, **{k: (v, 60) for k, v in kw.items()}},
        REDIS_KEY_PREFIX=f"test-rl-{uuid.uuid4().hex[:10]}",
    )


def test_starting_sessions_past_the_limit_is_429_with_retry_after(api):
    c, other = api(), api()
    with limits(sessions=3):
        answers = [
            c.post("/api/sessions/", {"game": "freecell", "deal": "random"}) for _ in range(5)
        ]
        assert (
            other.post("/api/sessions/", {"game": "freecell", "deal": "random"}).status_code == 201
        )  # the limit is per player
    assert [r.status_code for r in answers] == [201, 201, 201, 429, 429]
    r = answers[3]
    assert r.json()["error"] == "rate_limited"
    assert r.json()["reason"]
    assert 1 <= int(r["Retry-After"]) <= 60
    assert GameSession.objects.filter(player_id=c.me["id"]).count() == 3


def test_moves_past_the_limit_are_refused_over_http_and_the_socket_and_not_stored(api):
    c = api()
    s = c.start("freecell", 617)
    with limits(moves=2):
        first = c.move(s, 0, "8a")
        second = c.post(f"/api/sessions/{s['id']}/undo/", {"seq": 1})
        third = c.move(s, 2, "8a")

        async def over_socket():
            ws = WebsocketCommunicator(
                application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers()
            )
            await ws.connect()
            await ws.receive_json_from()
            await ws.send_json_to({"type": "move", "seq": 2, "move": "8a"})
            answer = await ws.receive_json_from()
            await ws.disconnect()
            return answer

        socket_answer = run_async(over_socket())
    assert (first.status_code, second.status_code, third.status_code) == (200, 200, 429)
    assert int(third["Retry-After"]) >= 1
    assert socket_answer["type"] == "error"
    assert socket_answer["error"] == "rate_limited"
    assert socket_answer["retry_after"] >= 1
    assert [t for t, _ in GameSession.objects.get(pk=s["id"]).moves] == ["8a", "u"]


def test_a_socket_move_refused_by_the_rules_counts_once_towards_the_limit(api):
    import time

    import redis
    from django.conf import settings

    c = api()
    s = c.start("freecell", 617)
    r = redis.Redis.from_url(settings.REDIS_URL)
    windows = {int(time.time() // 60)}
    with limits(moves=100):  # steps of 2 moves reach Redis
        prefix = f"{settings.REDIS_KEY_PREFIX}:rl:moves:p{c.me['id']}:"

        async def over_socket():
            ws = WebsocketCommunicator(
                application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers()
            )
            await ws.connect()
            await ws.receive_json_from()
            answers = []
            for seq, move in [(0, "1h"), (0, "8a"), (1, "8b")]:  # refused, played, played
                await ws.send_json_to({"type": "move", "seq": seq, "move": move})
                answers.append(await ws.receive_json_from())
            await ws.disconnect()
            return answers

        answers = run_async(over_socket())
    windows.add(int(time.time() // 60))
    sent = sum(int(r.get(f"{prefix}{w}") or 0) for w in windows)
    assert [a.get("error", a["type"]) for a in answers] == ["illegal_move", "state", "state"]
    # Three messages, three counts: two sent to Redis, the third waits for its step.
    # Counted twice, the refused move would have sent four.
    assert sent == 2, sent


def _from(client, address, path, body):
    return client.client.post(
        path,
        json.dumps(body),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.csrf,
        REMOTE_ADDR=address,
    )


def test_sign_in_attempts_past_the_limit_are_429_even_with_the_right_password(api):
    address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
    owner = api()
    assert (
        owner.post(
            "/api/auth/signup/", {"username": "limited", "password": "pw-lim-12345"}
        ).status_code
        == 201
    )
    guesser = api()
    with limits(auth=3):
        wrong = [
            _from(
                guesser, address, "/api/auth/signin/", {"username": "limited", "password": f"x{i}"}
            )
            for i in range(3)
        ]
        right = _from(
            guesser,
            address,
            "/api/auth/signin/",
            {"username": "limited", "password": "pw-lim-12345"},
        )
        signup = _from(
            api(), address, "/api/auth/signup/", {"username": "another", "password": "pw-12345678"}
        )
        elsewhere = _from(
            api(),
            address + "0",
            "/api/auth/signin/",
            {"username": "limited", "password": "pw-lim-12345"},
        )
    assert [r.status_code for r in wrong] == [400, 400, 400]
    assert right.status_code == 429
    assert int(right["Retry-After"]) >= 1
    assert right.json()["error"] == "rate_limited"
    assert signup.status_code == 429  # same address, same scope
    assert elsewhere.status_code == 200  # another address is not held back


def test_the_count_lives_in_redis_so_every_server_process_shares_it(api):
    import time

    import redis
    from django.conf import settings

    c = api()
    r = redis.Redis.from_url(settings.REDIS_URL)
    windows = {int(time.time() // 60)}
    with limits(sessions=5):
        prefix = f"{settings.REDIS_KEY_PREFIX}:rl:sessions:p{c.me['id']}:"
        c.post("/api/sessions/", {"game": "freecell", "deal": "random"})
        c.post("/api/sessions/", {"game": "freecell", "deal": "random"})
    windows.add(int(time.time() // 60))
    counts = {w: int(r.get(f"{prefix}{w}") or 0) for w in windows}
    assert sum(counts.values()) == 2, counts
    assert all(0 < r.ttl(f"{prefix}{w}") <= 61 for w, n in counts.items() if n)


def test_a_process_adds_its_moves_to_redis_in_steps_and_sees_the_other_processes_count():
    import time

    import redis
    from django.conf import settings

    from games.fairplay import ratelimit

    prefix = f"test-rl-{uuid.uuid4().hex[:10]}"
    # A day-long window, so the test never straddles two; limit 200: steps of 200 // 50 = 4.
    with override_settings(RATE_LIMITS={"moves": (200, 86400)}, REDIS_KEY_PREFIX=prefix):
        r = redis.Redis.from_url(settings.REDIS_URL)
        key = f"{prefix}:rl:moves:pX:{int(time.time() // 86400)}"
        first = [ratelimit.hit("moves", "pX") for _ in range(3)]
        unsent = int(r.get(key) or 0)
        # The fourth call is due to send the step; from an event loop (local_only) it is
        # answered at once and the step reaches Redis from a background thread.
        fourth = ratelimit.hit("moves", "pX", local_only=True)
        deadline = time.monotonic() + 5
        while int(r.get(key) or 0) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = int(r.get(key))
        r.incrby(key, 195)  # other processes' moves
        later = [ratelimit.hit("moves", "pX") for _ in range(4)]
    assert first == [None, None, None]
    assert unsent == 0
    assert fourth is None
    assert sent == 4
    # 4 + 195 = 199 shared: the next step (calls 5-8) brings the total to 203, over 200.
    assert later[:3] == [None, None, None]
    assert later[3] is not None
    assert later[3] >= 1


UNSAFE = [
    ("patch", "/api/me/", {"display_name": "Sneaky"}),
    ("post", "/api/auth/signup/", {"username": "csrfvictim", "password": "pw-csrf-12345"}),
    ("post", "/api/auth/signin/", {"username": "csrfvictim", "password": "pw-csrf-12345"}),
    ("post", "/api/auth/signout/", {}),
    ("post", "/api/sessions/", {"game": "freecell", "deal": 617}),
    ("post", "/api/sessions/{sid}/moves/", {"seq": 0, "move": "8a"}),
    ("post", "/api/sessions/{sid}/undo/", {}),
    ("post", "/api/sessions/{sid}/hint/", {}),
    ("post", "/api/sessions/{sid}/finish/", {}),
    (
        "post",
        "/api/offline-games/",
        {"game": "freecell", "seed": "617", "moves": ["8a"], "client": "csrf-forged"},
    ),
]


def test_every_unsafe_api_call_without_the_csrf_token_is_refused(api):
    c = api()
    s = c.start("freecell", 617)
    before = GameSession.objects.count()
    for method, path, body in UNSAFE:
        url = path.format(sid=s["id"])
        for headers in ({}, {"HTTP_X_CSRFTOKEN": "wrong" * 7}):
            r = getattr(c.client, method)(
                url, json.dumps(body), content_type="application/json", **headers
            )
            assert r.status_code == 403, (method, url, r.status_code)
            assert "CSRF" in r.json()["reason"]
    assert GameSession.objects.count() == before
    assert GameSession.objects.get(pk=s["id"]).moves == []
    me = c.get("/api/me/").json()
    assert me["display_name"] == c.me["display_name"]
    assert me["guest"]


def test_the_csrf_list_above_covers_every_unsafe_api_route():
    covered = {p.split("{")[0].rstrip("/") for _, p, _ in UNSAFE}
    routes = set()
    for pattern in get_resolver().url_patterns:
        if str(pattern.pattern) != "api/":
            continue
        for sub in pattern.url_patterns:
            view = getattr(sub.callback, "view_class", None)
            if view and any(m in view.__dict__ for m in ("post", "patch", "put", "delete")):
                routes.add("/api/" + str(sub.pattern).split("<")[0].rstrip("/"))
    missing = {r for r in routes if not any(c.startswith(r) or r.startswith(c) for c in covered)}
    assert routes, missing
    assert not missing, missing


def test_signing_out_through_a_plain_form_post_from_elsewhere_is_refused(api):
    c = api()
    outsider = Client(enforce_csrf_checks=True)
    outsider.cookies = c.client.cookies  # a forged form on another site sends the cookies
    r = outsider.post("/api/auth/signout/", {"next": "/"})  # form-encoded, no token
    assert r.status_code in (403, 415)  # refused before anything runs
    assert c.get("/api/me/").json()["id"] == c.me["id"]


def test_the_schema_documents_the_csrf_rate_limit_and_outage_answers(api):
    doc = api().get("/api/schema/?format=json").json()
    start = doc["paths"]["/api/sessions/"]["post"]["responses"]
    assert {"403", "429", "503"} <= set(start)
    assert "Retry-After" in start["429"]["headers"]
    assert "Retry-After" in start["503"]["headers"]
    assert "503" in doc["paths"]["/api/daily/"]["get"]["responses"]
    assert "429" not in doc["paths"]["/api/daily/"]["get"]["responses"]
