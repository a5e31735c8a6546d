"""Browser sessions and players are read through Redis (games/accounts/session_life.py,
player_cache.py): a visit finds both there without a query, a signed-out session stays
signed out whatever was cached, a changed player is seen at once, and an unreachable cache
leaves the database to answer."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from games.accounts import player_cache
from games.models import Player


def _session_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "django_session" in q["sql"]]


def test_a_visit_reads_its_session_from_the_cache(api):
    c = api()
    with CaptureQueriesContext(connection) as queries:
        me = c.get("/api/me/").json()
    assert me["id"] == c.me["id"]
    assert _session_queries(queries) == []


def test_a_signed_out_session_is_not_signed_in_again_by_its_cached_copy(api):
    c = api()
    c.post("/api/auth/signup/", {"username": "barbara", "password": "correct horse 42"})
    old = c.client.cookies[settings.SESSION_COOKIE_NAME].value
    assert c.get("/api/me/").json()["guest"] is False  # cached, signed in
    c.csrf = c.client.cookies["csrftoken"].value
    assert c.post("/api/auth/signout/").status_code == 204
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = old  # the cookie from before signing out
    assert replay.get("/api/me/").json()["guest"] is True


def test_an_unreachable_cache_leaves_the_session_to_the_database(api):
    c = api()
    down = {
        **settings.CACHES,
        "sessions": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
            "OPTIONS": {"socket_timeout": 0.2, "socket_connect_timeout": 0.2},
        },
    }
    with override_settings(CACHES=down):  # Django makes its caches again from these
        with CaptureQueriesContext(connection) as queries:
            assert c.get("/api/me/").json()["id"] == c.me["id"]
    assert _session_queries(queries)  # the database answered


@pytest.fixture
def player_cache_on(settings):
    settings.PLAYER_CACHE_SECONDS = 60  # off by default in the test run (settings.py)


def test_a_visit_reads_its_player_from_the_cache_and_a_rename_is_seen_at_once(api, player_cache_on):
    c = api()
    player_cache.forget(c.me["id"])
    c.get("/api/me/")
    with CaptureQueriesContext(connection) as queries:
        assert c.get("/api/me/").json()["id"] == c.me["id"]
    assert not [q for q in queries.captured_queries if "games_player" in q["sql"]]
    assert c.patch("/api/me/", {"display_name": "Grace H"}).status_code == 200
    assert c.get("/api/me/").json()["display_name"] == "Grace H"
    assert c.patch("/api/me/", {"hide_from_race": True}).status_code == 200
    assert c.get("/api/me/").json()["hide_from_race"] is True
    Player.objects.filter(pk=c.me["id"]).update(display_name="Ada L")  # no signal...
    assert c.get("/api/me/").json()["display_name"] == "Grace H"  # ...so the copy stays
    player_cache.forget(c.me["id"])
    assert c.get("/api/me/").json()["display_name"] == "Ada L"


def test_a_guest_who_signs_up_is_the_account_player_at_once(api, player_cache_on):
    c = api()
    c.get("/api/me/")
    r = c.post("/api/auth/signup/", {"username": "grace", "password": "correct horse 42"})
    assert r.status_code == 201
    me = c.get("/api/me/").json()
    assert me["id"] == c.me["id"]
    assert me["guest"] is False
    assert me["username"] == "grace"


def test_signing_out_or_in_with_the_cache_unreachable_is_a_clear_503_that_changes_nothing(api):
    """A session deleted while its cached copy stays would be signed in again once Redis is
    back: so the copy is dropped first, and when it cannot be, nothing is deleted."""
    c = api()
    c.post("/api/auth/signup/", {"username": "cordelia", "password": "correct horse 42"})
    c.csrf = c.client.cookies["csrftoken"].value
    key = c.client.cookies[settings.SESSION_COOKIE_NAME].value
    down = {
        **settings.CACHES,
        "sessions": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
            "OPTIONS": {"socket_timeout": 0.2, "socket_connect_timeout": 0.2},
        },
    }
    with override_settings(CACHES=down):
        r = c.post("/api/auth/signout/")
        assert r.status_code == 503, r.content
        assert r.json()["error"] == "unavailable"
        assert "session store" in r.json()["reason"]
        assert Session.objects.filter(session_key=key).exists()  # nothing deleted
        assert c.get("/api/me/").json()["guest"] is False  # still signed in
        other = api()
        r = other.post(
            "/api/auth/signin/", {"username": "cordelia", "password": "correct horse 42"}
        )
        assert r.status_code == 503, r.content
    assert c.post("/api/auth/signout/").status_code == 204  # Redis back: it goes through
    assert not Session.objects.filter(session_key=key).exists()


def test_a_new_browser_session_is_stored_by_one_insert_and_never_takes_a_key_in_use(
    db, monkeypatch
):
    """A first visit's session is written without looking its key up first; a key already
    in use is refused by the INSERT and another is drawn, the row holding it untouched."""
    from games.accounts import session_life

    first = Client()
    first.get("/api/me/")
    taken = first.cookies[settings.SESSION_COOKIE_NAME].value
    row = Session.objects.get(session_key=taken)
    with CaptureQueriesContext(connection) as queries:
        Client().get("/api/me/")
    assert not [q for q in _session_queries(queries) if q.lstrip().upper().startswith("SELECT")]
    assert len([q for q in _session_queries(queries) if "INSERT" in q.upper()]) == 1

    keys = iter([taken, "n" * 32])
    monkeypatch.setattr(session_life, "get_random_string", lambda n, chars: next(keys))
    second = Client()
    second.get("/api/me/")
    assert second.cookies[settings.SESSION_COOKIE_NAME].value == "n" * 32
    assert Session.objects.get(session_key=taken).session_data == row.session_data
    assert first.get("/api/me/").json()["id"] != second.get("/api/me/").json()["id"]
