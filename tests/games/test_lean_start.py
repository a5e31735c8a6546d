"""``POST /api/sessions/`` answered by games/api/starts.py gives the DRF view's answer.

Two guests make the same calls, one through the site's middleware (where a guest's start
is answered without DRF) and one through the same chain without ``LeanStartMiddleware``
(the DRF view answers every call): the status, every header but the request id, the
cookies set and the body (but for the ids and clocks of the sessions) are the same.  The
requests the middleware leaves to the DRF view (a first visit, an account, a body that is
not a JSON object of valid fields, a CSRF failure, another ``Accept``) are seen to reach
it, and the ones it answers are seen not to.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import override_settings

from config.metrics import REQUESTS
from games.api import views
from games.daily import deals as daily
from games.play import operations

LEAN = "games.api.starts.LeanStartMiddleware"
# Differ between any two starts: the session's id and clocks, the request's id.
VOLATILE = ("id", "session", "created_at", "clock_ms", "request_id")


@pytest.fixture
def drf_posts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The DRF view's starts, counted (the view itself still answers)."""
    calls: list[int] = []
    real = views.SessionsView.post

    def counted(self: Any, request: Any) -> Any:
        calls.append(1)
        return real(self, request)

    monkeypatch.setattr(views.SessionsView, "post", counted)
    return calls


@pytest.fixture
def pair(api: Callable[[], Any]) -> tuple[Any, Any]:
    """(a guest whose starts the middleware answers, a guest whose starts DRF answers)."""
    assert LEAN in settings.MIDDLEWARE
    lean = api()
    with override_settings(MIDDLEWARE=[m for m in settings.MIDDLEWARE if m != LEAN]):
        drf = api()  # its test client builds its chain now, without the middleware
    for c in (lean, drf):
        c.client.raise_request_exception = False  # a 500 is an answer to compare too
    return lean, drf


def _masked(body: Any, shape_only: bool) -> Any:
    if not isinstance(body, dict):
        return body
    if shape_only:  # a random deal: the same fields, not the same cards
        return sorted(body)
    out = {k: ("~" if k in VOLATILE else v) for k, v in body.items()}
    if isinstance(out.get("reason"), str):  # a wait in seconds may tick between the two
        out["reason"] = re.sub(r"\d+", "N", out["reason"])
    if "retry_after" in out:
        out["retry_after"] = "N"
    return out


def _cookies(response: Any) -> dict[str, dict[str, Any]]:
    return {
        name: {a: m[a] for a in ("max-age", "path", "httponly", "samesite", "secure")}
        for name, m in response.cookies.items()
    }


def _same(lean: Any, drf: Any, shape_only: bool = False) -> None:
    assert lean.status_code == drf.status_code, (lean.content, drf.content)
    skip = {"X-Request-ID", "Content-Length", "Retry-After"}
    assert {k: v for k, v in lean.headers.items() if k not in skip} == {
        k: v for k, v in drf.headers.items() if k not in skip
    }
    assert ("Retry-After" in lean.headers) == ("Retry-After" in drf.headers)
    assert lean.headers["Content-Length"] == str(len(lean.content))
    assert lean.headers["X-Request-ID"] != drf.headers["X-Request-ID"]
    assert _cookies(lean) == _cookies(drf)
    a, b = json.loads(lean.content), json.loads(drf.content)
    assert _masked(a, shape_only) == _masked(b, shape_only)
    if lean.status_code >= 400:
        assert a["request_id"] == lean.headers["X-Request-ID"]


def _both(
    pair: tuple[Any, Any],
    drf_posts: list[int],
    body: Any = None,
    raw: str | None = None,
    answered_here: bool = True,
    shape_only: bool = False,
    **extra: Any,
) -> Any:
    lean, drf = pair
    responses, reached = [], []
    for c in (lean, drf):
        before = len(drf_posts)
        payload = raw if raw is not None else json.dumps(body)
        headers = {"content_type": "application/json", "HTTP_X_CSRFTOKEN": c.csrf, **extra}
        responses.append(c.client.post("/api/sessions/", payload, **headers))
        reached.append(len(drf_posts) - before)
    # Answered here, the view is not reached; else it is, as often as without the middleware
    # (JSON DRF cannot read fails in its CSRF check and a throttled call in its throttle,
    # both before the view).
    assert reached[0] == (0 if answered_here else reached[1]), (reached, body, raw)
    if responses[1].status_code == 201:
        assert reached[1] == 1  # the chain without the middleware: the view started it
    _same(*responses, shape_only=shape_only)
    return responses[0]


def test_a_guests_starts_and_refusals_are_the_drf_views(pair, drf_posts):
    both = lambda **kw: _both(pair, drf_posts, **kw)  # noqa: E731
    assert both(body={"game": "freecell", "deal": 617}).status_code == 201
    assert both(body={"game": "klondike", "deal": "random"}, shape_only=True).status_code == 201
    ranked = both(body={"game": "klondike"}).json()  # "daily" by default
    assert ranked["ranked"] is True
    again = both(body={"game": "klondike", "deal": "daily"}).json()
    assert again["error"] == "ranked_attempt_open"
    assert again["session"] == ranked["id"]
    assert both(body={"game": "klondike", "deal": ranked["deal"]}).status_code == 409
    for refused in (
        {"game": "freecell", "deal": 0},
        {"game": "freecell", "deal": "x" * 200},
        {"game": "klondike", "deal": "nope"},
        {"game": "klondike", "deal": 12},
        {"game": "bakers-dozen", "deal": "x" * 12},
    ):
        assert both(body=refused).status_code == 400
    assert both(body={"game": "freecell", "deal": "daily", "extra": 1}).status_code == 201
    # What the DRF view answers itself: fields it refuses, bodies that are no object, JSON
    # it cannot read, another content type or Accept, a query string.
    for body, raw in (
        ({"game": "nope"}, None),
        ({"game": "freecell", "deal": True}, None),
        ({}, None),
        (None, "[1]"),
        (None, "{"),
        (None, ""),
        (None, '"freecell"'),
    ):
        assert both(body=body, raw=raw, answered_here=False).status_code == 400
    assert (
        both(body={"game": "freecell"}, answered_here=False, HTTP_ACCEPT="text/html").status_code
        == 406
    )
    assert (
        both(
            body={"game": "freecell", "deal": 5},
            answered_here=False,
            HTTP_ACCEPT="application/json; indent=2",
        ).status_code
        == 201
    )
    assert (
        both(
            body={"game": "freecell", "deal": 5}, answered_here=False, content_type="text/plain"
        ).status_code
        == 415
    )
    drf_posts.clear()
    for c in pair:  # a query string: DRF reads ?format=
        r = c.client.post(
            "/api/sessions/?format=json",
            json.dumps({"game": "freecell", "deal": 6}),
            content_type="application/json",
            HTTP_X_CSRFTOKEN=c.csrf,
        )
        assert r.status_code == 201
    assert len(drf_posts) == 2  # the view answered both


def test_csrf_and_origin_failures_are_the_drf_views(pair, drf_posts):
    lean, drf = pair
    for extra in (
        {"HTTP_X_CSRFTOKEN": ""},
        {"HTTP_X_CSRFTOKEN": "x" * 32},
        {"HTTP_ORIGIN": "http://elsewhere.example"},
        {"HTTP_ORIGIN": "null"},
        {"HTTP_X_CSRFTOKEN": lean.csrf[::-1]},
    ):
        answers = []
        for c in (lean, drf):
            headers = {"HTTP_X_CSRFTOKEN": c.csrf, **extra}
            answers.append(
                c.client.post(
                    "/api/sessions/",
                    json.dumps({"game": "freecell"}),
                    content_type="application/json",
                    **headers,
                )
            )
        assert answers[0].status_code == 403, answers[0].content
        _same(*answers)
    assert len(drf_posts) == 0  # refused before the view in both chains
    ok = _both(
        pair, drf_posts, body={"game": "freecell", "deal": 9}, HTTP_ORIGIN="http://testserver"
    )
    assert ok.status_code == 201


def test_the_rate_limit_answers_as_drfs_throttle(pair, drf_posts, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sessions": (2, 60)}
    for _ in range(2):
        _both(pair, drf_posts, body={"game": "klondike", "deal": "random"}, shape_only=True)
    limited = _both(pair, drf_posts, body={"game": "freecell", "deal": 3})
    assert limited.status_code == 429
    assert limited.json()["error"] == "rate_limited"
    assert int(limited["Retry-After"]) >= 1
    # Refused bodies as the view refuses them: fields after the limit, unreadable JSON before.
    assert _both(pair, drf_posts, body={"game": "nope"}, answered_here=False).status_code == 429
    assert _both(pair, drf_posts, raw="{", answered_here=False).status_code == 400


def test_a_first_visit_and_an_account_are_started_by_the_drf_view(pair, drf_posts):
    lean, drf = pair
    for c in (lean, drf):
        del c.client.cookies[settings.SESSION_COOKIE_NAME]
    first = _both(pair, drf_posts, body={"game": "freecell", "deal": 11}, answered_here=False)
    assert settings.SESSION_COOKIE_NAME in first.cookies  # a new guest, in a new session
    for c, name in ((lean, "lean-account"), (drf, "drf-account")):
        r = c.post("/api/auth/signup/", {"username": name, "password": "correct horse 42"})
        assert r.status_code == 201, r.content
        c.csrf = c.client.cookies["csrftoken"].value
    account = _both(pair, drf_posts, body={"game": "freecell", "deal": 12}, answered_here=False)
    assert account.status_code == 201


def test_practice_on_a_closed_days_daily_and_a_sealed_future_deal(pair, drf_posts, past_midnight):
    lean, drf = pair
    ranked = [c.start("klondike") for c in pair]
    for c, s in zip(pair, ranked, strict=True):
        assert c.post(f"/api/sessions/{s['id']}/resign/", {}).status_code == 200
    drf_posts.clear()
    past_midnight()  # yesterday's daily: its day is over, its deal still open to practice
    practice = _both(pair, drf_posts, body={"game": "klondike", "deal": ranked[0]["deal"]})
    assert practice.status_code == 201
    assert practice.json()["ranked"] is False
    sealed = daily.ensure_daily("klondike", daily.today() + dt.timedelta(days=1))
    refused = _both(pair, drf_posts, body={"game": "klondike", "deal": sealed.public_id})
    assert refused.status_code == 400
    assert "not available yet" in refused.json()["reason"]
    today = _both(pair, drf_posts, body={"game": "klondike", "deal": "daily"})
    assert today.json()["ranked"] is True
    assert today.json()["date"] == daily.today().isoformat()


@pytest.mark.parametrize(
    ("fault", "status"), [(OperationalError("server closed"), 503), (RuntimeError("a bug"), 500)]
)
def test_a_database_outage_and_a_bug_are_answered_as_in_the_chain(
    pair, drf_posts, monkeypatch, fault, status
):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise fault

    monkeypatch.setattr(operations, "start_session", broken)
    answer = _both(pair, drf_posts, body={"game": "freecell", "deal": 4})
    assert answer.status_code == status


def test_the_metrics_count_the_start_under_the_views_name(pair, drf_posts):
    def count() -> float:
        return REQUESTS.labels("sessions", "201")._value.get()

    before = count()
    _both(pair, drf_posts, body={"game": "freecell", "deal": 21})
    assert count() == before + 2


@pytest.mark.parametrize(
    "body",
    [
        {"game": "freecell", "deal": "random"},
        {"game": "klondike"},
        {"game": "freecell", "deal": 7},
        {"game": "klondike", "deal": "daily", "more": [1]},
        {"game": "freecell", "deal": True},
        {"game": "freecell", "deal": None},
        {"game": "freecell", "deal": 1.5},
        {"deal": 1},
        {"game": ""},
        {"game": 1},
        {"game": "FreeCell"},
        {"game": ["freecell"]},
        [],
        "freecell",
        {"game": "klondike", "deal": ""},
        {"game": "freecell", "deal": -3},
        {"game": None},
        {"game": "bakers-dozen", "deal": {"seed": 1}},
        {"game": "freecell", "deal": 2**70},
    ],
)
def test_the_bodys_fields_are_read_as_the_drf_serializer_reads_them(body):
    from games.api.serializers import StartSessionIn
    from games.api.starts import _fields

    ser = StartSessionIn(data=body) if isinstance(body, dict) else None
    expected = dict(ser.validated_data) if ser is not None and ser.is_valid() else None
    assert _fields(body) == expected
