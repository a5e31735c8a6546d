"""The one gate client JSON passes through, over HTTP (``JSONParser``) and the play socket
(``load_json``).

Every body and message the game needs is a small flat object (the largest is a few hundred
bytes, two levels deep), so anything far from that is refused before it reaches a view:

- larger than ``MAX_BODY_BYTES`` (HTTP bodies are also refused earlier, unread, by
  ``config.errors.BodyLimitMiddleware``);
- not UTF-8 JSON text, or with a lone surrogate (PostgreSQL cannot store one);
- nested deeper than ``MAX_DEPTH`` (the standard library's parser recursed into a
  ``RecursionError`` on such bodies);
- a NUL character in any string or key (PostgreSQL refuses NUL in text);
- a number outside the 64-bit range PostgreSQL's integers hold.

Reasons never quote the input: a refusal is answered to whoever sent it, at any size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

import orjson
from rest_framework import parsers
from rest_framework.exceptions import APIException, ParseError

MAX_BODY_BYTES = 64 * 1024
MAX_DEPTH = 32
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
TOO_DEEP = f"the JSON is nested more than {MAX_DEPTH} levels deep; send a flat object"


class BadJSON(ParseError):
    """Not JSON this server takes; over HTTP a 400 with error ``bad_json``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TooLarge(APIException):
    """A body or message over ``MAX_BODY_BYTES``."""

    status_code = 413
    default_code = "too_large"
    code = "too_large"
    reason = f"the JSON is larger than {MAX_BODY_BYTES // 1024} KiB; send one small object"

    def __init__(self) -> None:
        super().__init__(self.reason)


def load_json(data: bytes | str) -> Any:
    """``data`` parsed, or ``BadJSON`` / ``TooLarge`` saying what to send instead."""
    if isinstance(data, str):
        # Characters never outnumber UTF-8 bytes: a huge text is refused before encoding it.
        if len(data) > MAX_BODY_BYTES:
            raise TooLarge
        try:
            data = data.encode()
        except UnicodeEncodeError:
            raise BadJSON("the text holds a lone surrogate; send valid UTF-8 JSON") from None
    if len(data) > MAX_BODY_BYTES:
        raise TooLarge
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        # orjson's message names the problem, never the input itself.  It stops at its own
        # depth limit (1024) rather than recursing, far above ours.
        problem = str(exc).split(":")[0]
        if problem.startswith("depth limit"):
            raise BadJSON(TOO_DEEP) from None
        raise BadJSON(f"send one JSON object in UTF-8 ({problem})") from None
    _check(value)
    return value


def _check(value: Any) -> None:
    # Iterative, so that checking nesting is not itself limited by Python's recursion limit.
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_DEPTH:
                raise BadJSON(TOO_DEEP)
            for key, child in item.items():
                if "\x00" in key:
                    raise BadJSON("a key holds a NUL character; send text without NUL")
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            if depth > MAX_DEPTH:
                raise BadJSON(TOO_DEEP)
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            if "\x00" in item:
                raise BadJSON("a string holds a NUL character; send text without NUL")
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not INT_MIN <= item <= INT_MAX:
                raise BadJSON("a number is outside the 64-bit integer range")
        elif isinstance(item, float) and not -(2.0**63) < item < 2.0**63:
            # orjson turns integers past 64 bits into floats: 2**80 arrives as 1.2e24.
            raise BadJSON("a number is outside the 64-bit integer range")


class JSONParser(parsers.JSONParser):
    """DRF's JSON media type, parsed by ``load_json``.  JSON is UTF-8 by definition
    (RFC 8259), so a charset parameter is not consulted."""

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        # One byte past the limit tells a body that is too large without reading all of it.
        data = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        return load_json(data)
