"""Django's requests under ASGI (config/patches/django.py): one hand-over to a kept thread a
request, ``request_started`` and ``request_finished`` in that thread, a streaming answer
closed only after its last chunk, a malformed request still answered."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core import signals
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.test import override_settings
from django.urls import path

from config.patches.django import Handler, RequestThreads

events: list[tuple[str, int]] = []


def plain(request: HttpRequest) -> HttpResponse:
    events.append(("view", threading.get_ident()))
    return HttpResponse(b"plain body")


def streamed(request: HttpRequest) -> StreamingHttpResponse:
    def chunks() -> Iterator[bytes]:
        for part in (b"one ", b"two"):
            events.append(("chunk", threading.get_ident()))
            yield part

    return StreamingHttpResponse(chunks())


urlpatterns = [path("plain/", plain), path("streamed/", streamed)]


def _started(**kwargs: Any) -> None:
    events.append(("started", threading.get_ident()))


def _finished(**kwargs: Any) -> None:
    events.append(("finished", threading.get_ident()))


@pytest.fixture
def app() -> Iterator[RequestThreads]:
    events.clear()
    signals.request_started.connect(_started, dispatch_uid="test_request_threads.started")
    signals.request_finished.connect(_finished, dispatch_uid="test_request_threads.finished")
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        yield RequestThreads(Handler(), keep=2)
    signals.request_started.disconnect(dispatch_uid="test_request_threads.started")
    signals.request_finished.disconnect(dispatch_uid="test_request_threads.finished")


def _scope(url: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


async def _get(app: Any, url: str) -> tuple[int, bytes, list[str]]:
    """The status and body, and ``events`` as they stood when the answer's head arrived."""
    comm = ApplicationCommunicator(app, _scope(url))
    await comm.send_input({"type": "http.request", "body": b""})
    start = await comm.receive_output(5)
    at_start = [name for name, _ in events]
    body = b""
    while True:
        message = await comm.receive_output(5)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await comm.wait(5)
    return start["status"], body, at_start


def _count_submits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the calls handed to the request threads (the executors RequestThreads keeps)."""
    counted = [0]
    real = ThreadPoolExecutor.submit

    def submit(self: ThreadPoolExecutor, *args: Any, **kwargs: Any) -> Any:
        if self._thread_name_prefix.startswith("request"):
            counted[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", submit)
    return counted


def test_a_plain_answer_takes_one_hand_over_and_its_signals_run_in_the_views_thread(
    app, monkeypatch
):
    counted = _count_submits(monkeypatch)
    status, body, at_start = asyncio.run(_get(app, "/plain/"))
    assert (status, body) == (200, b"plain body")
    assert counted[0] == 1  # Django's own handle: three (started, the request, the close)
    names = [name for name, _ in events]
    assert names == ["started", "view", "finished"]
    assert at_start == names  # closed in its thread before it was sent
    assert len({ident for _, ident in events}) == 1
    assert events[0][1] != threading.get_ident()


def test_a_streaming_answer_is_closed_after_its_last_chunk_in_the_same_thread(app):
    status, body, at_start = asyncio.run(_get(app, "/streamed/"))
    assert (status, body) == (200, b"one two")
    names = [name for name, _ in events]
    assert names[-1] == "finished"
    assert names.count("chunk") == 2
    assert "finished" not in at_start
    view_thread = events[0][1]
    assert dict((n, i) for n, i in events)["finished"] == view_thread


def test_kept_threads_serve_the_next_requests(app):
    async def twice() -> list[int]:
        await _get(app, "/plain/")
        await _get(app, "/plain/")
        return [ident for name, ident in events if name == "view"]

    first, second = asyncio.run(twice())
    assert first == second  # the idle thread was taken again, not a new one
    assert len(app.idle) == 1


def test_a_request_django_cannot_build_is_answered_400(app):
    scope = _scope("/plain/")
    scope["query_string"] = b"a=\xff"  # not UTF-8: Django's request refuses it

    async def go() -> int:
        comm = ApplicationCommunicator(app, scope)
        await comm.send_input({"type": "http.request", "body": b""})
        start = await comm.receive_output(5)
        while (await comm.receive_output(5)).get("more_body"):
            pass
        return int(start["status"])

    assert asyncio.run(go()) == 400
    assert [name for name, _ in events] == ["started", "finished"]
