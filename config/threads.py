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
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext


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
