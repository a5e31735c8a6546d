"""What every refusal of bad input looks like, for the bad-input tests."""

from __future__ import annotations

from typing import Any

from games.models import GameSession

SHORT = 400  # bytes: an error answer is a code and a sentence, never the client's input


def refused(response: Any, status: int, *codes: str) -> dict[str, Any]:
    """The answer is ``status`` with a short JSON ``{"error", "reason", "request_id"}``
    object."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    assert len(response.content) < SHORT, response.content[:300]
    body = response.json()
    # request_id: the request's id (config/logs.py), on every error answer.
    assert isinstance(body, dict), body
    assert set(body) == {"error", "reason", "request_id"}, body
    assert body["request_id"] == response["X-Request-ID"], body
    assert body["error"] in codes, body
    assert isinstance(body["reason"], str), body
    assert len(body["reason"]) > 10, body
    return body


def sessions_of(client: Any) -> int:
    return GameSession.objects.filter(player_id=client.me["id"]).count()


def post_bytes(client: Any, path: str, body: bytes, **extra: Any) -> Any:
    return client.client.post(
        path, body, content_type="application/json", HTTP_X_CSRFTOKEN=client.csrf, **extra
    )
