"""``GET /api/me/`` answers a plain GET itself (config/patches/rest_framework.py) and hands the rest to its
DRF view: both give the same answer, and what only DRF does (an ``indent`` asked for, a
``?format=`` it has no renderer for) still happens."""

from __future__ import annotations

import json

from django.test import Client


def test_the_plain_get_answers_as_the_drf_view_does(db):
    browser = Client()
    plain = browser.get("/api/me/")
    by_drf = browser.get("/api/me/", headers={"Accept": "application/json; q=1"})
    assert plain.status_code == by_drf.status_code == 200
    for header in (
        "Content-Type",
        "Allow",
        "Vary",
        "X-Frame-Options",
        "Content-Language",
        "X-Content-Type-Options",
        "Referrer-Policy",
    ):
        assert plain[header] == by_drf[header], header
    assert sorted(plain["Content-Security-Policy"].split("; ")) == sorted(
        by_drf["Content-Security-Policy"].split("; ")
    )
    mine, theirs = plain.json(), by_drf.json()
    assert mine.pop("csrf_token")
    assert theirs.pop("csrf_token")  # masked anew each time
    assert mine == theirs
    assert mine["guest"] is True
    assert (
        plain.content
        == json.dumps(
            {**mine, "csrf_token": json.loads(plain.content)["csrf_token"]}, separators=(",", ":")
        ).encode()
    )
    indented = browser.get("/api/me/", headers={"Accept": "application/json; indent=2"})
    assert b'\n  "id": ' in indented.content
    assert browser.get("/api/me/?format=xml").status_code == 404
