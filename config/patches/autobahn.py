"""autobahn: a lighter Daphne websocket for the thousands of idle play sockets one process
holds (patch ``lean_websockets``).

Daphne's websocket protocol (autobahn's ``WebSocketServerProtocol``) keeps, for as long as
the socket is open, everything its handshake used: the request's bytes, headers, status
line, path, parameters and key, the 101 answer's text, and a copy on the instance of each of
autobahn's 29 server options taken from the factory, about a hundred attributes in all, so
each instance's ``__dict__`` outgrows its 128-slot table.  And Twisted's HTTP channel, which
read the upgrade request, stays the transport's producer (for flow control) and with it the
request: its two header tables, its body buffer, its cookies.  Daphne's queue of messages
for the application is an ``asyncio.Queue`` of four deques, two of which it never uses.
With these, about 12 KB of each idle socket's 27 KB (bench/idle_sockets.py).

``LeanWebSocketProtocol`` is daphne's protocol with these changes, nothing else:

- the options are read from the factory onto the class, once (autobahn copies an option
  only when the protocol has no such attribute: a class attribute counts, so every socket
  reads the one value);
- once open, the handshake's attributes go, so do the state flags still at the value
  every socket starts with (``IDLE_DEFAULTS``, class attributes of that value), and the
  instance's dict is rebuilt at the size of what is left (a dict never shrinks when keys
  are deleted): 29 attributes in a 64-slot table;
- the HTTP channel's place as producer goes to ``_ReadPause``, which does what the channel
  did in that place: stop reading from a client whose answers pile up unsent, and read
  again once they drain;
- Daphne's queue goes without its unused parts (``trim_queue``);
- and, for time rather than memory, the bytes in and out of an open socket skip autobahn's
  debug line: it is a no-op at any level above debug, but its arguments are built first,
  on every read and write (the type's qualified name and the peer, styled by ``click``):
  a twentieth of a socket move's time on the event loop (py-spy, bench/server.py); and the
  table of options its handshake pretty-prints for a debug line is made only when that line
  is written.

``install`` makes it the protocol of daphne's websocket factory (config/asgi.py), before
daphne builds that factory.  tests/games/test_ws_memory.py fails if an attribute this
relies on goes from the libraries.

Patches: ``daphne.ws_protocol.WebSocketFactory.protocol`` (a subclass of daphne's
``WebSocketProtocol``, itself autobahn's ``WebSocketServerProtocol`` over Twisted) and
``autobahn.websocket.protocol.pformat``.
Written for: autobahn 26.11.1, daphne 4.2.3, Twisted 26.10.0 (config/tripwires.json).
Tripwires: ``autobahn`` (every entry), ``daphne`` (``WebSocketProtocol``,
``WebSocketFactory.__init__``), ``Twisted`` (``HTTPChannel``'s producer methods).
Off (``FRAMEWORK_PATCHES_OFF=lean_websockets``): daphne's protocol as it comes, about 12 KB
more an idle socket.
Tested: tests/games/test_ws_memory.py.
"""

from __future__ import annotations

import functools
import pprint
import sys
from typing import Any, ClassVar

from zope.interface import implementer

from config import patches

# Read only during the opening handshake (autobahn's processHandshake and daphne's
# onConnect); a server never reads them once open.
HANDSHAKE_ONLY = (
    "http_request_data",
    "http_headers",
    "http_status_line",
    "http_request_uri",
    "http_request_path",
    "http_request_params",
    "http_request_host",
    "http_response_data",
    "_wskey",
    "websocket_origin",
    "websocket_extensions",
    "clean_headers",
    "application_deferred",
)


# State autobahn sets on every socket that an idle open one still holds at these values:
# class attributes of the same value, the instance's copies are dropped once open (reads
# find the class's; the first write puts the instance's own back).  Its dict then fits a
# table of 64 slots rather than 128.
IDLE_DEFAULTS: dict[str, Any] = (
    dict.fromkeys(
        (
            "triggered",
            "wasMaxFramePayloadSizeExceeded",
            "wasMaxMessagePayloadSizeExceeded",
            "closedByMe",
            "failedByMe",
            "droppedByMe",
            "wasClean",
            "wasOpenHandshakeTimeout",
            "wasCloseHandshakeTimeout",
            "wasServingFlashSocketPolicyFile",
            "inside_message",
        ),
        False,
    )
    | dict.fromkeys(
        (
            "_perMessageCompress",
            "trackedTimings",
            "wasNotCleanReason",
            "localCloseCode",
            "localCloseReason",
            "remoteCloseCode",
            "remoteCloseReason",
            "openHandshakeTimeoutCall",
            "closeHandshakeTimeoutCall",
            "autoPingTimeoutCall",
            "autoPingPending",
            "autoPingPendingCall",
            "autoPingPendingSent",
            "protocol_to_accept",
            "websocket_protocol_in_use",
            "current_frame",
            "control_frame_data",
        ),
        None,
    )
    | {"autoPingPendingSeq": 0}
)

_NEVER_WAITED: tuple[()] = ()


def trim_queue(queue: Any) -> None:
    """Daphne's queue of messages for the application, an unbounded ``asyncio.Queue``,
    without the two parts such a queue never uses: the deque of senders waiting for room
    (``put`` never waits without a bound) and the event ``join`` waits on (nothing joins
    it).  Each is a 760-byte deque; asyncio only ever tests the first for emptiness here
    and clears the second, so an empty tuple and one shared event take their places."""
    import asyncio

    kind = type(queue)
    if (
        kind is asyncio.Queue
        and queue.maxsize == 0
        and not queue._putters
        and queue.qsize() == queue._unfinished_tasks
    ):
        queue._putters = _NEVER_WAITED
        queue._finished = _never_joined()


@functools.cache  # one event for every queue: nothing ever waits on it
def _never_joined() -> Any:
    import asyncio

    return asyncio.Event()


class _Path:
    """What daphne reads of the handshake's request once open: its path, for the log
    lines of a close (``log_action``)."""

    __slots__ = ("path",)

    def __init__(self, path: Any) -> None:
        self.path = path


def _read_pause() -> Any:
    from twisted.internet.interfaces import IPushProducer

    @implementer(IPushProducer)
    class _ReadPause:
        """The transport's producer once upgraded: what Twisted's ``HTTPChannel`` does
        there with no request of its own running (``pauseProducing`` and
        ``resumeProducing`` with ``_handlingRequest`` false), without keeping the
        upgrade's request alive."""

        __slots__ = ("transport",)

        def __init__(self, transport: Any) -> None:
            self.transport = transport

        def pauseProducing(self) -> None:  # noqa: N802 (Twisted's names)
            self.transport.pauseProducing()

        def resumeProducing(self) -> None:  # noqa: N802
            self.transport.resumeProducing()

        def stopProducing(self) -> None:  # noqa: N802
            pass  # as HTTPChannel's, with no request producer: the close follows

    return _ReadPause


def _as_class_attribute(value: Any) -> Any:
    """A function (``perMessageCompressionAccept``) read through the instance must stay
    the plain function it is on the factory, not become a method of the protocol."""
    return staticmethod(value) if hasattr(type(value), "__get__") else value


class _Later:
    """pformat's text of a value, made when the debug line it is for is written."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(pprint.pformat(self.value), spec)


_connecting = [False]  # the event loop's thread is in LeanWebSocketProtocol._connectionMade


def _pformat(value: Any, *args: Any, **kwargs: Any) -> Any:
    # autobahn's ``_connectionMade`` pretty-prints its 40 options for a debug line on every
    # new socket, written or not; there, and only there, the text waits for the line.
    if _connecting[0] and not args and not kwargs:
        return _Later(value)
    return pprint.pformat(value, *args, **kwargs)


def lean_protocol() -> type:  # noqa: C901  (a class: its methods, each simple, counted as one)
    from autobahn.websocket import protocol
    from daphne.ws_protocol import WebSocketProtocol
    from twisted.web.http import HTTPChannel

    protocol.pformat = _pformat  # type: ignore[attr-defined,assignment]

    read_pause = _read_pause()

    class LeanWebSocketProtocol(WebSocketProtocol):
        _options_of: ClassVar[Any] = None  # the factory whose options the class holds

        def _connectionMade(self) -> None:  # noqa: N802 (autobahn's name)
            _connecting[0] = True  # its debug line's table is made only if it is written
            try:
                self._lean_connection_made()
            finally:
                _connecting[0] = False

        def _lean_connection_made(self) -> None:
            cls = type(self)
            if cls._options_of is None:
                for name in self.CONFIG_ATTRS:
                    setattr(cls, name, _as_class_attribute(getattr(self.factory, name)))
                cls._options_of = self.factory
            elif cls._options_of is not self.factory:
                # Another factory (a second server in one process): its own options on
                # the instance, as autobahn does.
                for name in self.CONFIG_ATTRS:
                    setattr(self, name, getattr(self.factory, name))
            super()._connectionMade()

        def connectionLost(self, reason: Any) -> None:  # noqa: N802
            super().connectionLost(reason)
            # autobahn resolves ``is_closed`` with the protocol itself, a cycle that only a
            # full collection would free, with everything the socket still holds: every
            # closed socket's objects piled up for those (tens of ms each under load).
            closed = self.__dict__.pop("is_closed", None)
            if closed is not None and getattr(closed, "called", False):
                closed.result = None

        def dataReceived(self, data: bytes) -> None:  # noqa: N802
            self._dataReceived(data)  # autobahn's, without its debug line

        def sendData(
            self,
            data: bytes,
            sync: bool = False,  # noqa: N802
            chopsize: int | None = None,
        ) -> None:
            # autobahn's plain write on an open socket, without its debug line; anything
            # else (a queue to keep in order, chopping, octet logging, the handshake) as it is
            if (
                sync
                or chopsize
                or self.send_queue
                or self.logOctets
                or self.state != self.STATE_OPEN
            ):
                super().sendData(data, sync, chopsize)
                return
            self.transport.write(data)
            self.trafficStats.outgoingOctetsWireLevel += len(data)

        def applicationCreateWorked(self, application_queue: Any) -> None:  # noqa: N802
            trim_queue(application_queue)
            super().applicationCreateWorked(application_queue)

        def onOpen(self) -> None:  # noqa: N802
            super().onOpen()
            state = self.__dict__
            for name in HANDSHAKE_ONLY:
                state.pop(name, None)
            for name, value in IDLE_DEFAULTS.items():
                if name in state and state[name] is value:
                    del state[name]
            request = state.get("request")
            if request is not None:
                state["request"] = _Path(request.path)
            self.__dict__ = dict(state)  # sized for what is left
            transport = self.transport
            channel = getattr(transport, "producer", None)
            if isinstance(channel, HTTPChannel):
                # The upgrade's HTTP request and its channel hold each other (the channel's
                # queue of requests, never finished): out of the queue, both go by
                # reference counting once the channel stops being the producer, rather
                # than wait for a collection.
                channel.requests.clear()
                transport.unregisterProducer()
                transport.registerProducer(read_pause(transport), True)

    for name, value in IDLE_DEFAULTS.items():
        setattr(LeanWebSocketProtocol, name, value)
    return LeanWebSocketProtocol


def install() -> None:
    """Daphne's websocket factory builds ``LeanWebSocketProtocol`` (under Daphne only:
    another server never imports daphne's server module)."""
    if "daphne.server" not in sys.modules or not patches.on("lean_websockets"):
        return
    from daphne.ws_protocol import WebSocketFactory

    if getattr(WebSocketFactory.protocol, "_options_of", False) is False:
        WebSocketFactory.protocol = lean_protocol()
