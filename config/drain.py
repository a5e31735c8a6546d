"""A web process that is told to stop (SIGTERM: a deploy, a scale-down, a supervisor) leaves
so that no player notices.

1. It stops listening at once: the balancer's next connection to it is refused, so it
   retries on another process (``retry-on conn-failure`` and ``option redispatch`` in
   deploy/haproxy.cfg) and its health check marks this one down.  Idle keep-alive
   connections from the balancer are closed, busy ones after their answer.
2. Every open websocket gets a close frame with ``CLOSE_RESTART`` (docs/api.md), which the
   page's socket module answers by reconnecting at once, with a jitter under a second so a
   process's thousands of pages do not all arrive in the same millisecond.  A play socket
   in the middle of an operation answers it first and closes right after; what its client
   sends after the close frame is not applied (the page sends it again on its new socket,
   with the same operation id, so it is stored once).  Other sockets (boards, the race)
   have nothing in flight and close at once.
3. It finishes every request and socket still being served (their presence and race
   entries left cleanly), then exits: after ``DRAIN_SECONDS`` at most, whatever is left
   is cut, as a crash would, and the clients retry.

A second SIGTERM stops at once.  Without Daphne (tests in one process, another server)
only the part the consumers play is used: ``begin`` asks the play sockets to leave.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

# The close code that means "this server is going away: reconnect now".  WebSocket's own
# 1012 (Service Restart) says the same, but a server's websocket library may only send
# 1000 or a code from 3000 to 4999 (autobahn refuses the rest), so it is 4000 + 12, beside
# 4403 (forbidden) in the application's range.
CLOSE_RESTART = 4012
DRAIN_SECONDS = float(os.environ.get("DRAIN_SECONDS", "8"))
# How long a busy play socket may take to answer its operation before it is closed anyway
# (its client retries that operation over HTTP with the same id).
ANSWER_SECONDS = 1.0


class Leaving(Protocol):
    busy: bool
    leaving: bool

    def leave_now(self) -> None: ...


# Play sockets open in this process (games.live.consumer registers them).
play_sockets: set[Leaving] = set()
_draining = False


def draining() -> bool:
    return _draining


def begin() -> None:
    """Tell every play socket of this process to leave: at once when idle, after its
    answer when busy.  On the event loop."""
    global _draining
    _draining = True
    for sock in list(play_sockets):
        sock.leaving = True
        if not sock.busy:
            sock.leave_now()


def server_class() -> type:  # noqa: C901  (a class: its methods, each simple, counted as one)
    """Daphne's server, stopping as the module's docstring says.  Built on demand: importing
    ``daphne.server`` installs Twisted's reactor, which only ``config.serve`` may do."""
    from daphne.server import Server
    from twisted.internet import reactor

    class DrainingServer(Server):
        def run(self) -> None:
            self.ports: list[Any] = []
            self.channels: weakref.WeakSet[Any] = weakref.WeakSet()
            self.stopping = False
            reactor.addSystemEventTrigger("after", "startup", self._on_term)  # type: ignore[arg-type]
            super().run()

        def listen_success(self, port: Any) -> None:
            self.ports.append(port)
            super().listen_success(port)
            build = self.http_factory.buildProtocol

            def tracked(addr: Any) -> Any:  # every HTTP connection, to close the idle ones
                channel = build(addr)
                self.channels.add(channel)
                return channel

            self.http_factory.buildProtocol = tracked

        def _on_term(self) -> None:
            # After Twisted's own handlers (installed during startup), so this one wins.
            loop = asyncio.get_event_loop()

            def handler(signum: int, frame: Any) -> None:
                loop.call_soon_threadsafe(self.drain)

            signal.signal(signal.SIGTERM, handler)

        def drain(self) -> None:
            if self.stopping:  # the second SIGTERM: now
                log.warning("drain: stopping now (second SIGTERM)")
                self.stop()
                return
            self.stopping = True
            started = time.monotonic()
            for port in self.ports:
                port.stopListening()
            idle = 0
            for channel in list(self.channels):
                transport = getattr(channel, "transport", None)
                if transport is None or getattr(transport, "protocol", channel) is not channel:
                    continue  # closed, or handed over to a websocket
                if channel.requests:
                    channel.persistent = False  # closed once its answer is sent
                else:
                    transport.loseConnection()
                    idle += 1
            begin()
            sockets = len(play_sockets)
            log.info(
                "drain: stopped listening; %d idle connections closed, %d play "
                "sockets told to reconnect",
                idle,
                sockets,
            )
            asyncio.ensure_future(self._finish(started))

        def _websockets(self) -> list[Any]:
            return [
                p
                for p in self.connections
                if getattr(p, "application_type", "") == "websocket" and p.state == p.STATE_OPEN
            ]

        def _running(self) -> int:
            return sum(
                1
                for d in self.connections.values()
                if d.get("application_instance") is not None
                and not d["application_instance"].done()
            )

        async def _finish(self, started: float) -> None:
            deadline = started + DRAIN_SECONDS
            await _until(lambda: not play_sockets, started + ANSWER_SECONDS)
            for protocol in self._websockets():  # boards, races, late play sockets
                protocol.serverClose(code=CLOSE_RESTART)
            await _until(lambda: self._running() == 0, deadline)
            left = self._running()
            log.info(
                "drain: %s after %.2f s",
                f"cutting {left} still running" if left else "done",
                time.monotonic() - started,
            )
            self.stop()

    return DrainingServer


async def _until(done: Callable[[], bool], deadline: float) -> None:
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
