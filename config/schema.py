"""Answers every API operation may give besides its own, added to /api/schema/ so that
clients (and the schemathesis tests) find them documented:

- 403 on unsafe calls without the CSRF token;
- 429 with ``Retry-After`` where a rate limit applies (games/fairplay/ratelimit.py): a view's own
  ``rate_limit_scope``, and the limit on new guests wherever a first visit makes one
  (a view with ``makes_guest``: ``GET /api/me/`` among them);
- 503 with ``Retry-After`` while the database is unavailable (config/errors.py).
"""

from __future__ import annotations

from typing import Any

ERROR = {"$ref": "#/components/schemas/ErrorOut"}
RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": "seconds to wait before trying again",
    }
}


def _answer(description: str, retry: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "content": {"application/json": {"schema": ERROR}},
        "description": description,
    }
    if retry:
        out["headers"] = RETRY_AFTER
    return out


def _limited(generator: Any) -> set[tuple[str, str]]:
    """(path, method) of the operations a rate limit can refuse, read from their views."""
    found = set()
    for path, _regex, method, callback in getattr(generator, "endpoints", None) or []:
        view = getattr(callback, "cls", None)
        if getattr(view, "rate_limit_scope", None) or getattr(view, "makes_guest", False):
            found.add((path, method.lower()))
    return found


def add_common_answers(
    result: dict[str, Any], generator: Any = None, **kwargs: Any
) -> dict[str, Any]:
    limited = _limited(generator)
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/") or path == "/api/schema/":
            continue
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = operation["responses"]
            if method in {"post", "put", "patch", "delete"}:
                answers.setdefault("403", _answer("no CSRF token, or a wrong one", False))
            if (path, method) in limited:
                answers.setdefault("429", _answer("rate limited", True))
            answers.setdefault("503", _answer("the database is unavailable", True))
    return result
