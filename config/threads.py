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
view, three hand-overs instead of one.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class Handler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


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
