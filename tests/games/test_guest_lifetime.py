"""A guest lasts as long as it plays: its session lives a year and is renewed (at most
once a day) on every visit and every socket it opens; expired sessions are deleted on the
beat schedule.  New guests are throttled per client address."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.utils import timezone

from config.asgi import application
from games.accounts.session_life import SessionStore
from games.models import Player
from tests.reliability.stack import run_async

YEAR = 365 * 24 * 3600


def _row(client) -> Session:
    return Session.objects.get(
        session_key=client.client.cookies[settings.SESSION_COOKIE_NAME].value
    )


def _age(session: Session) -> float:
    return (session.expire_date - timezone.now()).total_seconds()


def _a_day_and_more_ago(client) -> dt.datetime:
    """As if the session was last renewed two days ago."""
    row = _row(client)
    row.expire_date -= dt.timedelta(days=2)
    row.save(update_fields=["expire_date"])
    SessionStore(row.session_key).forget_cached()  # the copy in Redis is days old too
    return row.expire_date


def test_the_session_cookie_lives_a_year(api):
    c = api()
    cookie = c.client.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == YEAR >= 365 * 24 * 3600
    assert _age(_row(c)) > YEAR - 60


def test_a_guest_playing_a_day_later_keeps_a_full_year(api):
    c = api()
    s = c.start("klondike")
    old = _a_day_and_more_ago(c)
    r = c.move(s, 0, s["legal_moves"][0]["move"])
    assert r.status_code == 200, r.content
    assert c.get("/api/me/").json()["id"] == c.me["id"]
    renewed = _row(c).expire_date
    assert renewed > old + dt.timedelta(days=1)
    assert _age(_row(c)) > YEAR - 60
    sent = r.cookies[settings.SESSION_COOKIE_NAME]
    assert int(sent["max-age"]) == YEAR


def test_a_session_renewed_today_is_not_written_again(api):
    c = api()
    before = _row(c).expire_date
    for _ in range(3):
        r = c.get("/api/me/")
        assert r.status_code == 200
        assert settings.SESSION_COOKIE_NAME not in r.cookies  # nothing saved, nothing sent
    assert _row(c).expire_date == before


@pytest.mark.django_db(transaction=True)
def test_opening_a_game_socket_renews_the_session(api):
    c = api()
    s = c.start("freecell", 617)
    old = _a_day_and_more_ago(c)

    async def connect():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        await ws.connect()
        first = await ws.receive_json_from()
        await ws.disconnect()
        return first

    assert run_async(connect())["type"] == "hello"
    assert _row(c).expire_date > old + dt.timedelta(days=1)
    assert _age(_row(c)) > YEAR - 60


def test_the_beat_task_deletes_expired_sessions_and_keeps_live_ones(db):
    from games.tasks import clear_expired_sessions

    now = timezone.now()
    Session.objects.bulk_create(
        [
            Session(
                session_key=f"dead{i:028d}",
                session_data="x",
                expire_date=now - dt.timedelta(seconds=1 + i),
            )
            for i in range(3)
        ]
        + [
            Session(
                session_key=f"live{i:028d}",
                session_data="x",
                expire_date=now + dt.timedelta(days=300),
            )
            for i in range(2)
        ]
    )
    clear_expired_sessions.delay()
    left = set(Session.objects.values_list("session_key", flat=True))
    assert not any(k.startswith("dead") for k in left)
    assert {f"live{i:028d}" for i in range(2)} <= left
    entry = [
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "games.tasks.clear_expired_sessions"
    ]
    assert entry
    assert entry[0]["schedule"].remaining_estimate(now) <= dt.timedelta(days=1)


def _guests(limit: int):
    return override_settings(
        RATE_LIMITS={**settings.RATE_LIMITS, "guests": (limit, 60)},
        REDIS_KEY_PREFIX=f"test-rl-{uuid.uuid4().hex[:10]}",
    )


def test_one_address_making_guests_past_the_limit_gets_429_with_retry_after(db):
    address = f"10.77.{uuid.uuid4().int % 256}.{uuid.uuid4().int % 254 + 1}"
    with _guests(3):
        browsers = [Client(REMOTE_ADDR=address) for _ in range(5)]
        answers = [b.get("/api/me/") for b in browsers]
        again = browsers[0].get("/api/me/")  # a guest already made is not a new one
        elsewhere = Client(REMOTE_ADDR="10.78.0.1").get("/api/me/")
        stats = Client(REMOTE_ADDR=address).get("/api/me/stats/")
        page = Client(REMOTE_ADDR=address).get("/")
        signup = Client(REMOTE_ADDR=address).post(
            "/api/auth/signup/",
            {"username": "latecomer", "password": "pw-late-1234"},
            content_type="application/json",
        )
    assert [r.status_code for r in answers] == [200, 200, 200, 429, 429]
    over = answers[3]
    assert over["Content-Type"] == "application/json"
    assert over.json()["error"] == "rate_limited"
    assert "try again" in over.json()["reason"]
    assert 1 <= int(over["Retry-After"]) <= 60
    assert again.status_code == 200
    assert again.json()["id"] == answers[0].json()["id"]
    assert elsewhere.status_code == 200
    assert stats.status_code == 429
    assert int(stats["Retry-After"]) >= 1
    assert stats.json()["error"] == "rate_limited"
    assert page.status_code == 200  # pages are served without making a player
    assert signup.status_code == 429  # its guest would be one too many
    assert Player.objects.count() == 4
