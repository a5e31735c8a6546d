"""Browser sessions are read through Redis (games/accounts/session_life.py): a visit finds
its session there without a query, a signed-out session stays signed out whatever was
cached, and an unreachable cache leaves the database to answer."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext


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
    down = {**settings.CACHES, "sessions": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        "OPTIONS": {"socket_timeout": 0.2, "socket_connect_timeout": 0.2},
    }}
    with override_settings(CACHES=down):  # Django makes its caches again from these
        with CaptureQueriesContext(connection) as queries:
            assert c.get("/api/me/").json()["id"] == c.me["id"]
    assert _session_queries(queries)  # the database answered
