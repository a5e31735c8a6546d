"""A body too large is refused unread with a 413 JSON answer, whether it says its length or
comes in chunks (the body limit in config/errors.py), and stores nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from config.asgi import application
from games.api.parsers import MAX_BODY_BYTES
from games.models import GameSession

from .refusals import SHORT, post_bytes, refused, sessions_of

# --- size ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 3 * 2**20, 10 * 2**20])
def test_an_oversized_body_is_413_json_and_not_echoed(api, size):
    c = api()
    s = c.start("freecell", 617)
    before = sessions_of(c)
    filler = "9" * size
    body = json.dumps({"game": "klondike", "deal": filler})
    refused(c.post("/api/sessions/", raw=body), 413, "too_large")
    move = json.dumps({"seq": 0, "move": filler})
    refused(c.post(f"/api/sessions/{s['id']}/moves/", raw=move), 413, "too_large")
    assert sessions_of(c) == before
    assert GameSession.objects.get(pk=s["id"]).moves == []


def test_a_body_just_under_the_limit_is_read(api):
    c = api()
    body = json.dumps({"game": "klondike", "deal": "random", "pad": ""})
    body = body.replace('""', '"' + "p" * (MAX_BODY_BYTES - len(body)) + '"')
    assert len(body) == MAX_BODY_BYTES
    assert c.post("/api/sessions/", raw=body).status_code == 201
    assert sessions_of(c) == 1


def test_a_content_length_that_is_not_a_number_is_refused(api):
    c = api()
    for length in ("abc", "-5", "1e3"):
        refused(
            post_bytes(c, "/api/sessions/", b'{"game": "klondike"}', CONTENT_LENGTH=length),
            400,
            "bad_request",
        )
    assert sessions_of(c) == 0


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
def test_djangos_own_body_limit_also_answers_json_under_the_api(api):
    c = api()
    body = json.dumps({"game": "klondike", "deal": "random", "pad": "p" * 200})
    refused(c.post("/api/sessions/", raw=body), 413, "too_large")
    # A form post is read by Django itself (the CSRF check), not by the API's parser.
    r = c.client.post(
        "/api/sessions/",
        "a=" + "b" * 200,
        content_type="application/x-www-form-urlencoded",
        HTTP_X_CSRFTOKEN=c.csrf,
    )
    refused(r, 413, "too_large")
    assert sessions_of(c) == 0


def _asgi_post(client: Any, path: str, chunks: list[bytes]) -> tuple[int, bytes, bytes]:
    """POST ``chunks`` as a chunked body (no Content-Length) through the ASGI application
    Daphne serves: (status, content type, body)."""
    cookies = "; ".join(f"{k}={m.value}" for k, m in client.client.cookies.items())
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
            (b"cookie", cookies.encode()),
            (b"x-csrftoken", client.csrf.encode()),
        ],
    }

    async def exchange() -> tuple[int, bytes, bytes]:
        app = ApplicationCommunicator(application, scope)
        for i, chunk in enumerate(chunks):
            await app.send_input(
                {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
            )
        start = await app.receive_output(timeout=30)
        assert start["type"] == "http.response.start"
        body = b""
        while True:
            part = await app.receive_output(timeout=30)
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        await app.wait(timeout=5)
        headers = {name.lower(): value for name, value in start["headers"]}
        content_type = headers.get(b"content-type", b"")
        return start["status"], content_type, body

    return asyncio.run(exchange())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 10 * 2**20])
def test_an_oversized_chunked_body_is_413_json(api, size):
    c = api()
    head = b'{"game": "klondike", "deal": "'
    filler = b"9" * size
    chunks = [head] + [filler[i : i + 2**16] for i in range(0, size, 2**16)] + [b'"}']
    status, content_type, body = _asgi_post(c, "/api/sessions/", chunks)
    assert status == 413, body[:300]
    assert content_type.startswith(b"application/json")
    assert len(body) < SHORT
    assert json.loads(body)["error"] == "too_large"
    assert sessions_of(c) == 0


@pytest.mark.django_db(transaction=True)
def test_a_small_chunked_body_is_read_and_checked_like_any_other(api):
    c = api()
    status, _, body = _asgi_post(
        c, "/api/sessions/", [b'{"game": "klon', b'dike", "deal": "random"}']
    )
    assert status == 201, body[:300]
    status, _, body = _asgi_post(
        c, "/api/sessions/", [b'{"game": "klondike", ', b'"deal": "\\u0000"}']
    )
    assert status == 400, body[:300]
    assert json.loads(body)["error"] == "bad_json", body[:300]
    assert sessions_of(c) == 1
