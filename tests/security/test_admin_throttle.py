"""Guessing passwords is throttled (django-axes): on the admin's sign-in and the API's,
per username and client address, so the right password from the guesser's address is
refused for a while, and the owner signing in from elsewhere is not held back."""

from __future__ import annotations

import json
import random

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Player


def _address() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def _admin_sign_in(client: Client, password: str) -> int:
    r = client.post(
        "/admin/login/?next=/admin/",
        {"username": "operator1", "password": password, "next": "/admin/"},
    )
    return r.status_code


@pytest.fixture
def operator(db):
    return get_user_model().objects.create_superuser("operator1", "op@x.example", "right-pw-12345")


def test_forty_wrong_admin_passwords_then_the_right_one_is_refused(operator):
    guesser = Client(REMOTE_ADDR=_address())
    answers = [_admin_sign_in(guesser, f"wrong-{i}") for i in range(40)]
    assert answers[0] == 200  # the form again, with its error
    assert answers[-1] == 429
    right = guesser.post(
        "/admin/login/?next=/admin/",
        {"username": "operator1", "password": "right-pw-12345", "next": "/admin/"},
    )
    assert right.status_code == 429, right.status_code
    assert "_auth_user_id" not in guesser.session
    assert guesser.get("/admin/").status_code == 302  # still sent to the sign-in page


def test_the_operator_signs_in_from_another_address_meanwhile(operator):
    guesser = Client(REMOTE_ADDR=_address())
    for i in range(settings.AXES_FAILURE_LIMIT + 2):
        _admin_sign_in(guesser, f"wrong-{i}")
    assert _admin_sign_in(guesser, "right-pw-12345") == 429
    owner = Client(REMOTE_ADDR=_address())
    assert _admin_sign_in(owner, "right-pw-12345") == 302
    assert owner.get("/admin/").status_code == 200


def test_below_the_limit_the_right_password_still_works_and_clears_the_count(operator):
    c = Client(REMOTE_ADDR=_address())
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _admin_sign_in(c, f"wrong-{i}") == 200
    assert _admin_sign_in(c, "right-pw-12345") == 302
    c.logout()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):  # a fresh count after a success
        assert _admin_sign_in(c, f"wrong-again-{i}") == 200
    assert _admin_sign_in(c, "right-pw-12345") == 302


def _api_sign_in(client, address: str, password: str):
    return client.client.post(
        "/api/auth/signin/",
        json.dumps({"username": "guessed", "password": password}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.csrf,
        REMOTE_ADDR=address,
    )


def test_the_api_tells_a_locked_out_client_when_to_come_back(api):
    owner = api()
    assert (
        owner.post(
            "/api/auth/signup/", {"username": "guessed", "password": "pw-guess-123"}
        ).status_code
        == 201
    )
    guesser, address = api(), _address()
    wrong = [_api_sign_in(guesser, address, f"nope-{i}") for i in range(40)]
    statuses = [r.status_code for r in wrong]
    limit = settings.AXES_FAILURE_LIMIT
    assert statuses[: limit - 1] == [400] * (limit - 1)
    assert statuses[limit - 1 :] == [429] * (40 - limit + 1)
    right = _api_sign_in(guesser, address, "pw-guess-123")
    for r in (wrong[-1], right):
        assert r.status_code == 429
        assert r["Content-Type"] == "application/json"
        assert r.json()["error"] == "rate_limited"
        assert "try again in" in r.json()["reason"]
        assert "password" in r.json()["reason"]
        cool_off = settings.AXES_COOLOFF_TIME.total_seconds()
        assert 1 <= int(r["Retry-After"]) <= cool_off
    assert guesser.get("/api/me/").json()["guest"] is True  # never signed in
    elsewhere = api()
    ok = _api_sign_in(elsewhere, _address(), "pw-guess-123")
    assert ok.status_code == 200
    assert ok.json()["id"] == owner.me["id"]
    assert Player.objects.filter(pk=owner.me["id"], user__username="guessed").exists()
