"""The threads Django's HTTP requests run in, under ASGI, kept from one request to the next.

Django's ASGI handler runs each request's synchronous part (the middleware chain and the
view) in a thread of the request's own: it enters a fresh ``ThreadSensitiveContext``, and
asgiref starts a new single-thread executor for it, so every request paid for starting a
thread and for its hand-over (about a tenth of a small request's time here, bench/http_cost.py).
This application gives each request a thread-sensitive context with an executor taken from
a pool of idle ones instead; Django's own context, inside it, uses that one.  A request
still has a thread to itself while it runs (one request's blocking query never holds up
another's), as many at once as there are requests in flight; only the idle ones are kept,
``REQUEST_THREADS`` of them at most.

``Handler`` is Django's ASGI handler with its middleware chain built synchronous, called
once in that thread.  Django builds the chain asynchronous under ASGI: with every
middleware here synchronous, the chain went into the thread, came back to the event loop
for the URL's resolution (an async_to_sync hop) and went into the thread again for the
view, three hand-overs instead of one.  Its ``handle`` also sends ``request_started`` in
that same hand-over (Django's ``asend`` gives the signal's synchronous receivers one of
their own), and waits for no disconnect: Django races the request against a task that
listens for the client leaving, which can only cancel an async view (a synchronous one
runs to its end in its thread whatever happens), and this site has none; Daphne drops
what is sent to a connection that has gone.  And it closes a response whose body is
already in memory (every one but a streaming response) in that thread too, before it is
sent: ``request_finished``'s receivers (the database connection back to its pool, the
caches', the URL conf's and the request id's resets) have to run in the request's
thread, and none of them needs the bytes on the wire first.  That was a third hand-over,
after the answer was sent.  A streaming response is still closed after its last chunk.
One hand-over a request is left, the one that runs it.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix

log = logging.getLogger(__name__)


class Handler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(
                scope, body_file)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:  # the client left while it was sent, as Django
                pass
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """In the request's thread: what Django's ``handle`` does between reading the body
        and sending the answer."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            assert error_response is not None
            response: HttpResponseBase = error_response
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            try:
                response.close()
            except Exception:  # the answer is made: it still goes out, as under Django
                log.exception("closing the response failed")
        return response


class RequestThreads:
    def __init__(self, inner: Any, keep: int) -> None:
        self.inner = inner
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "http" or self.keep <= 0:
            return await self.inner(scope, receive, send)
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                return await self.inner(scope, receive, send)
        finally:
            # One thread runs one call at a time: a call still running (a request given up
            # half-way) only makes the next request on this thread wait its turn.
            if len(self.idle) < self.keep:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)
