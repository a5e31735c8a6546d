"""A guest's random start answered on the event loop (games/api/loop_start.py) is the chain's
answer in the request thread, and what it cannot make exactly reaches the chain untouched.

Each call goes through the ASGI application as Daphne calls it, once with ``LoopStart``
ahead of the request threads and once without, for the same guest, on the real PostgreSQL
(its rows committed: the loop's connection is not the test's) and Redis.  Which path
answered is seen by LeanStartMiddleware's two entries: ``_given`` (a start made on the
loop) and ``_answer`` (made in the thread).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any

import psycopg
import pytest
from django.conf import settings as django_settings
from django.core.cache import caches

from config import redis_async
from config.patches.django import Handler, RequestThreads
from games.accounts import player_cache, session_life
from games.api import loop_start, starts
from games.live import driver
from games.models import GameSession, Player
from games.play import tables

pytestmark = pytest.mark.django_db(transaction=True)
VOLATILE = ("id", "created_at", "clock_ms", "request_id")
RANDOM = {"game": "freecell", "deal": "random"}


@pytest.fixture
def paths(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[int]]]:
    """Calls of LeanStartMiddleware's entries: on the loop ("loop"), in the thread
    ("thread")."""
    settings.PLAYER_CACHE_SECONDS = 60  # off in the test run; the loop reads the copies
    loop_start.usable.cache_clear()
    seen: dict[str, list[int]] = {"loop": [], "thread": []}
    given, answer = starts.LeanStartMiddleware._given, starts.LeanStartMiddleware._answer

    def on_loop(self: Any, *args: Any) -> Any:
        seen["loop"].append(1)
        return given(self, *args)

    def in_thread(self: Any, *args: Any) -> Any:
        seen["thread"].append(1)
        return answer(self, *args)

    monkeypatch.setattr(starts.LeanStartMiddleware, "_given", on_loop)
    monkeypatch.setattr(starts.LeanStartMiddleware, "_answer", in_thread)
    yield seen
    loop_start.usable.cache_clear()


class Guest:
    """A guest made through the chain, its session and player in Redis as a visit leaves
    them."""

    def __init__(self, api: Any) -> None:
        self.api = api()
        assert self.api.get("/api/me/").status_code == 200  # its player's copy cached
        self.cookies = {k: m.value for k, m in self.api.client.cookies.items()}

    def scope(self, query: bytes = b"", **headers: str) -> dict[str, Any]:
        given = {
            "host": "testserver",
            "content-type": "application/json",
            "x-csrftoken": self.api.csrf,
            "cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            **headers,
        }
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": starts.PATH,
            "raw_path": starts.PATH.encode(),
            "query_string": query,
            "root_path": "",
            "headers": [(k.encode(), v.encode()) for k, v in given.items() if v],
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }


async def _call(app: Any, scope: dict[str, Any], body: bytes) -> dict[str, Any]:
    from asgiref.testing import ApplicationCommunicator

    comm = ApplicationCommunicator(app, scope)
    await comm.send_input({"type": "http.request", "body": body})
    start = await comm.receive_output(10)
    content = b""
    while True:
        message = await comm.receive_output(10)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await comm.wait(10)
    headers: dict[str, Any] = {}
    cookies = SimpleCookie()
    for k, v in start["headers"]:
        if k.lower() == b"set-cookie":
            cookies.load(v.decode())
        else:
            headers[k.decode().lower()] = v.decode()
    return {
        "status": start["status"],
        "headers": headers,
        "body": json.loads(content),
        "cookies": {
            n: {a: m[a] for a in ("max-age", "path", "httponly", "samesite")}
            for n, m in cookies.items()
        },
    }


def _both(
    guest: Guest, body: Any = RANDOM, query: bytes = b"", other: Guest | None = None, **headers: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answers with LoopStart and without (to ``other`` if given), on one loop."""
    raw = json.dumps(body).encode()

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        handler = Handler()
        threads = RequestThreads(handler, 2)
        try:
            with_loop = await _call(
                loop_start.LoopStart(threads, handler), guest.scope(query, **headers), raw
            )
            without = await _call(threads, (other or guest).scope(query, **headers), raw)
        finally:
            await redis_async.close_all()
        return with_loop, without

    return asyncio.run(go())


def _same(a: dict[str, Any], b: dict[str, Any], shape_only: bool = False) -> None:
    assert a["status"] == b["status"], (a, b)
    skip = {"x-request-id", "content-length", "retry-after"}
    assert {k: v for k, v in a["headers"].items() if k not in skip} == {
        k: v for k, v in b["headers"].items() if k not in skip
    }
    assert a["cookies"] == b["cookies"]
    if shape_only:
        assert sorted(a["body"]) == sorted(b["body"])
    else:
        mask = lambda d: {k: "~" if k in VOLATILE else v for k, v in d.items()}  # noqa: E731
        assert mask(a["body"]) == mask(b["body"])


def test_a_random_start_is_made_on_the_loop_as_the_thread_makes_it(api, paths):
    guest = Guest(api)
    loop, thread = _both(guest)
    assert paths == {"loop": [1], "thread": [1]}
    assert loop["status"] == 201
    _same(loop, thread, shape_only=True)
    stored = GameSession.objects.get(pk=loop["body"]["id"])
    other = GameSession.objects.get(pk=thread["body"]["id"])
    assert stored.player_id == other.player_id  # the guest's, both
    assert stored.deal.date is None
    assert stored.seq == 0
    assert not stored.ranked
    # The table is kept for the next move, as the thread keeps it, and the move is taken.
    assert tables.peek(stored.pk, 0) is not None
    moved = guest.api.move(loop["body"]["id"], 0, loop["body"]["legal_moves"][0]["move"])
    assert moved.status_code == 200, moved.content


@pytest.mark.parametrize(
    ("body", "query", "headers"),
    [
        ({"game": "freecell", "deal": 7}, b"", {}),  # a numbered deal: the chain's
        ({"game": "klondike"}, b"", {}),  # today's daily: ranked checks in a transaction
        (RANDOM, b"format=json", {}),  # a query string
        (RANDOM, b"", {"accept": "text/html"}),
        (RANDOM, b"", {"x-csrftoken": "x" * 32}),  # a CSRF failure
        ({"game": "nope", "deal": "random"}, b"", {}),
        (RANDOM, b"", {"content-type": "application/json; x=" + "y" * 100}),  # BodyLimit's 415
    ],
)
def test_what_it_cannot_make_reaches_the_chain_untouched(api, paths, body, query, headers):
    loop, thread = _both(Guest(api), body, query, Guest(api), **headers)
    assert paths["loop"] == []
    _same(loop, thread, shape_only=body == RANDOM)


def test_a_session_or_player_not_in_redis_is_read_by_the_chain(api, paths):
    guest = Guest(api)
    player_id = Player.objects.order_by("-pk").values_list("pk", flat=True).first()
    caches["default"].delete(f"{player_cache.PREFIX}{player_id}")
    loop, thread = _both(guest)
    assert paths["loop"] == []
    assert loop["status"] == thread["status"] == 201
    caches["sessions"].delete(session_life.CACHE_PREFIX + guest.cookies["sessionid"])
    loop, thread = _both(guest)
    assert paths["loop"] == []
    assert loop["status"] == 201


def test_redis_down_hands_the_start_to_the_chain(api, paths, settings):
    guest = Guest(api)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    loop, thread = _both(guest)
    assert paths["loop"] == []
    assert loop["status"] == thread["status"] == 201  # the chain reads around Redis


def test_the_rate_limit_answers_on_the_loop_as_in_the_thread(api, paths, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sessions": (1, 60)}
    first, second = Guest(api), Guest(api)
    assert _both(first)[0]["status"] == 201  # the thread's start: the other guest's
    loop, thread = _both(first)
    assert loop["status"] == 429
    assert paths["loop"] == [1, 1]
    _same(loop, thread)
    assert loop["headers"]["retry-after"]
    assert _both(second)[0]["status"] == 201


def test_a_merged_guest_is_refused_as_the_thread_refuses_it(api, paths):
    guest = Guest(api)
    player = Player.objects.order_by("-pk").first()
    target = Player.objects.create()
    Player.objects.filter(pk=player.pk).update(merged_into=target)  # the cached copy stays
    before = GameSession.objects.count()
    loop, thread = _both(guest)
    assert paths["loop"] == [1]
    assert loop["status"] >= 400
    assert loop["status"] < 500
    _same(loop, thread)
    assert GameSession.objects.count() == before


def test_postgresql_down_is_a_503_and_nothing_is_stored(api, paths, monkeypatch):
    guest = Guest(api)
    before = GameSession.objects.count()

    async def unreachable() -> Any:  # a server that refuses the connection, for real
        return await psycopg.AsyncConnection.connect(host="127.0.0.1", port=1, connect_timeout=2)

    monkeypatch.setattr(driver, "_connect", unreachable)
    loop, _ = _both(guest)
    assert paths["loop"] == [1]
    assert loop["status"] == 503
    assert loop["body"]["error"]
    assert loop["headers"]["retry-after"]
    assert loop["body"]["request_id"] == loop["headers"]["x-request-id"]
    assert GameSession.objects.count() == before + 1  # the thread's start only


def test_only_a_session_key_django_could_have_made_is_looked_up():
    name = django_settings.SESSION_COOKIE_NAME
    for value, key in (
        ("../x", None),
        ("a" * 32, "a" * 32),
        ("short", None),
        ("a" * 32 + ";", "a" * 32),
    ):
        scope = {"headers": [(b"cookie", f"{name}={value}".encode())]}
        assert loop_start._session_key(scope) == key


def test_a_seed_that_is_a_daily_is_started_by_the_chain_and_counted_once(
    api, paths, settings, monkeypatch
):
    from games.daily import deals as daily
    from games.engine import GAMES

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sessions": (2, 60)}
    today = daily.ensure_daily("freecell", daily.today())
    drawn = GAMES["freecell"].random_seed
    monkeypatch.setattr(GAMES["freecell"], "random_seed", lambda: today.seed)
    guest = Guest(api)
    before = GameSession.objects.count()

    async def one() -> dict[str, Any]:
        handler = Handler()
        try:
            return await _call(
                loop_start.LoopStart(RequestThreads(handler, 2), handler),
                guest.scope(),
                json.dumps(RANDOM).encode(),
            )
        finally:
            await redis_async.close_all()

    first = asyncio.run(one())
    # The loop counted it and stored nothing; the thread started it (on the daily, as a
    # random draw of a daily's number always has) without counting it again.
    assert first["status"] == 201
    assert first["body"]["date"] == today.date.isoformat()
    assert paths == {"loop": [], "thread": [1]}
    assert GameSession.objects.count() == before + 1
    monkeypatch.setattr(GAMES["freecell"], "random_seed", drawn)
    assert asyncio.run(one())["status"] == 201  # the second of two
    assert paths["loop"] == [1]
    assert asyncio.run(one())["status"] == 429


def test_the_loop_path_goes_with_the_lean_views_patch(settings):
    loop_start.usable.cache_clear()
    settings.PLAYER_CACHE_SECONDS = 60
    try:
        assert loop_start.usable()
        settings.FRAMEWORK_PATCHES = [p for p in settings.FRAMEWORK_PATCHES if p != "lean_views"]
        loop_start.usable.cache_clear()
        assert not loop_start.usable()  # LeanStartMiddleware is not in the chain then
    finally:
        loop_start.usable.cache_clear()
