"""Small files that never change are answered from memory (config/patches/servestatic.py, SmallFiles.small):
the same status, headers and body as ServeStatic's own answer, each encoding, HEAD with no
body, and no thread started to serve one; a range, a conditional request or a big file still
goes to ServeStatic."""

from __future__ import annotations

import asyncio
import gzip
import threading
from pathlib import Path
from typing import Any

import brotli
import pytest

from config.patches.servestatic import SMALL
from config.static import StaticFiles

NAME = "frontend/js/notice.0123456789ab.js"
BIG = "frontend/js/big.0123456789ab.js"
PLAIN = "frontend/js/plain.js"  # no hash in its name: may change, never kept


@pytest.fixture
def static(tmp_path: Path, settings: Any) -> StaticFiles:
    settings.DEBUG = False
    settings.STATIC_ROOT = str(tmp_path)
    body = b"export const notice = 'x';\n" * 40
    for name, content in ((NAME, body), (BIG, b"// " + b"y" * (SMALL * 2) + b"\n"), (PLAIN, body)):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    (tmp_path / (NAME + ".br")).write_bytes(brotli.compress(body))
    (tmp_path / (NAME + ".gz")).write_bytes(gzip.compress(body))

    async def django(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"not static"})

    return StaticFiles(django)


def get(
    app: StaticFiles, url: str, method: str = "GET", **headers: str
) -> tuple[int, dict[str, str], bytes, int]:
    """The answer to one request, and how many threads were started while it was served."""
    scope = {
        "type": "http",
        "method": method,
        "path": url,
        "query_string": b"",
        "headers": [(k.replace("_", "-").lower().encode(), v.encode()) for k, v in headers.items()],
    }
    sent: list[dict[str, Any]] = []
    started = [0]
    plain_start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started[0] += 1
        plain_start(thread)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    threading.Thread.start = counted  # type: ignore[method-assign]
    try:
        asyncio.run(app(scope, receive, send))
    finally:
        threading.Thread.start = plain_start  # type: ignore[method-assign]
    head = {k.decode(): v.decode() for k, v in sent[0].get("headers", [])}
    return sent[0]["status"], head, b"".join(m.get("body", b"") for m in sent[1:]), started[0]


def test_a_small_hashed_file_is_answered_from_memory_as_servestatic_answers_it(
    static: StaticFiles, tmp_path: Path
) -> None:
    url = "/static/" + NAME
    for encoding, suffix in (("", ""), ("gzip", ".gz"), ("br", ".br"), ("gzip, br", ".br")):
        on_disk = (tmp_path / (NAME + suffix)).read_bytes()
        answers = [get(static, url, accept_encoding=encoding) for _ in range(3)]
        for status, head, body, threads in answers:
            assert status == 200
            assert body == on_disk
            assert threads == 0  # ServeStatic's responder starts one for every file
            assert head["content-length"] == str(len(on_disk))
            assert head.get("content-encoding", "") == suffix.replace(".gz", "gzip").strip(".")
            assert head["cache-control"] == "public, max-age=31536000, immutable"
            assert head["x-content-type-options"] == "nosniff"
            assert head["content-type"].startswith("text/javascript")
            assert "etag" in head
            assert head["vary"] == "Accept-Encoding"
        assert answers[0][1] == answers[2][1]  # read once, answered the same
    status, head, body, threads = get(static, url, "HEAD", accept_encoding="br")
    assert (status, body, threads) == (200, b"", 0)
    assert head["content-length"] == str(len((tmp_path / (NAME + ".br")).read_bytes()))


def test_what_memory_does_not_answer_goes_to_servestatic(
    static: StaticFiles, tmp_path: Path
) -> None:
    url = "/static/" + NAME
    full = (tmp_path / NAME).read_bytes()
    status, head, body, _ = get(static, url, range="bytes=0-9")
    assert (status, body) == (206, full[:10])
    assert head["content-range"].endswith(f"/{len(full)}")
    etag = get(static, url)[1]["etag"]
    status, _, body, _ = get(static, url, if_none_match=etag)
    assert (status, body) == (304, b"")
    # A big file, and one whose name has no hash (its content may change), are ServeStatic's:
    # the same bytes, read through its responder (a thread).
    for name in (BIG, PLAIN):
        status, _, body, threads = get(static, "/static/" + name)
        assert status == 200
        assert body == (tmp_path / name).read_bytes()
        assert threads >= 1
    assert get(static, url, "POST")[0] == 405
    assert get(static, "/static/frontend/js/none.0123456789ab.js")[2] == b"not static"
