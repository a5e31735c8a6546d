"""config/patches/autobahn.py: Daphne's websocket without what an idle socket never uses again.

The first tests fail when autobahn, daphne, Twisted or asyncio no longer have what the
lean protocol relies on; the last one plays a socket through a real Daphne with it."""

from __future__ import annotations

import asyncio
import collections
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import websockets
from autobahn.websocket.protocol import WebSocketProtocol as Autobahn
from autobahn.websocket.protocol import WebSocketServerProtocol
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.web.http import HTTPChannel

from config.patches import autobahn as ws_memory
from config.patches.autobahn import (
    HANDSHAKE_ONLY,
    IDLE_DEFAULTS,
    _as_class_attribute,
    lean_protocol,
    trim_queue,
)
from tests.reliability.stack import free_port, stop, wait_port

ROOT = Path(__file__).resolve().parents[2]


def _sources() -> str:
    import autobahn.websocket.protocol as ab
    import daphne.ws_protocol as dw

    return inspect.getsource(ab) + inspect.getsource(dw)


def test_autobahn_copies_an_option_only_when_the_protocol_has_none():
    made = inspect.getsource(Autobahn._connectionMade)
    assert "if not hasattr(self, configAttr):" in made
    assert len(WebSocketServerProtocol.CONFIG_ATTRS) >= 25
    assert issubclass(WebSocketFactory.protocol, WebSocketProtocol)


def test_the_attributes_dropped_once_open_are_the_librarys_own():
    source = _sources()
    made = inspect.getsource(Autobahn._connectionMade)
    for name in HANDSHAKE_ONLY:
        assert re.search(rf"self\.{name}\b[\w\s.,]*=(?!=)", source), name
    for name, value in IDLE_DEFAULTS.items():  # set there, at that value, on every socket
        assert re.search(rf"self\.{name}\s*=\s*{value!r}\b", source), name
    assert {"wasClean", "localCloseCode", "closedByMe"} <= {
        n for n in IDLE_DEFAULTS if f"self.{n} =" in made
    }
    # nothing reads them by hasattr/getattr, where a class attribute would answer otherwise
    for name in (*HANDSHAKE_ONLY, *IDLE_DEFAULTS):
        assert not re.search(rf"(hasattr|getattr)\(self,\s*[\"']{name}[\"']", source), name
    # daphne reads only the path of the handshake's request once open
    daphne = inspect.getsource(WebSocketProtocol)
    after = daphne[daphne.index("def onOpen") :]
    assert set(re.findall(r"self\.request\.(\w+)", after)) == {"path"}
    assert "self.clean_headers" not in after
    assert "self.application_deferred" not in after


def test_the_reads_and_writes_without_a_debug_line_do_what_autobahns_do_besides():
    """The lean protocol's ``dataReceived`` and plain ``sendData`` drop only the debug line:
    fails when autobahn's do anything more."""
    received = inspect.getsource(WebSocketProtocol.dataReceived)  # autobahn.twisted's
    calls = re.findall(r"self\.(\w+)\(", received)
    assert calls == ["_dataReceived"]
    assert "self.log.debug(" in received
    sent = inspect.getsource(Autobahn.sendData)
    plain = sent[sent.index("self.transport.write(data)") :]
    plain = plain[: plain.index("def ") if "def " in plain else None]
    statements = {
        line.strip()
        for line in plain.splitlines()
        if line.strip().startswith(("self.", "if ", "elif "))
    }
    assert statements == {
        "self.transport.write(data)",
        "self.log.debug(",
        "if self.state == WebSocketProtocol.STATE_OPEN:",
        "self.trafficStats.outgoingOctetsWireLevel += len(data)",
        "elif (",
        "self.state == WebSocketProtocol.STATE_CONNECTING",
        "self.trafficStats.preopenOutgoingOctetsWireLevel += len(data)",
        "if self.logOctets:",
        "self.logTxOctets(data, False)",
    }, statements
    assert "if sync or len(self.send_queue) > 0:" in sent


def test_the_options_table_is_made_only_for_a_debug_line_that_is_written():
    """autobahn pretty-prints its options for a debug line on every new socket: within the
    lean ``_connectionMade`` that text waits for the line; anywhere else (autobahn's
    ``Timings.__str__``) pformat gives its text at once."""
    import pprint

    import autobahn.websocket.protocol as ab

    made = inspect.getsource(Autobahn._connectionMade)
    assert 'self.log.debug("\\n{attrs}", attrs=pformat(configAttrLog))' in made
    lean = (
        WebSocketFactory.protocol
        if hasattr(WebSocketFactory.protocol, "_lean_connection_made")
        else lean_protocol()
    )
    assert ab.pformat is ws_memory._pformat
    assert hasattr(lean, "_lean_connection_made")
    table = [("openHandshakeTimeout", 5, "Factory"), ("utf8validateIncoming", True, "P")]
    assert ws_memory._pformat(table) == pprint.pformat(table)  # a str, as autobahn's __str__
    ws_memory._connecting[0] = True
    try:
        later = ws_memory._pformat(table)
    finally:
        ws_memory._connecting[0] = False
    assert not isinstance(later, str)
    assert f"\n{later}" == "\n" + pprint.pformat(table)


def test_the_http_channel_as_producer_only_pauses_and_resumes_its_transport():
    pause = inspect.getsource(HTTPChannel.pauseProducing)
    resume = inspect.getsource(HTTPChannel.resumeProducing)
    assert "self._networkProducer.pauseProducing()" in pause
    assert "self._networkProducer.resumeProducing()" in resume


def test_a_function_option_stays_a_function_on_the_class():
    def accept(offers):
        return offers

    class P:
        f = _as_class_attribute(accept)
        n = _as_class_attribute(3)

    assert P().f("x") == "x"
    assert P().n == 3


def test_a_trimmed_queue_still_hands_over_every_message_in_order():
    async def run() -> list[object]:
        q: asyncio.Queue[object] = asyncio.Queue()
        assert hasattr(q, "_putters")
        assert hasattr(q, "_finished")
        trim_queue(q)
        assert q._putters == ()  # type: ignore[attr-defined]
        waiting = asyncio.ensure_future(q.get())  # a receive waiting before the message
        await asyncio.sleep(0)
        q.put_nowait(1)
        q.put_nowait(2)
        await q.put(3)
        got = [await waiting, await q.get(), q.get_nowait()]
        assert q.empty()
        bounded: asyncio.Queue[object] = asyncio.Queue(maxsize=1)
        trim_queue(bounded)  # a bounded queue waits for room: left as it is
        waiters = bounded._putters  # type: ignore[attr-defined]
        assert isinstance(waiters, collections.deque)
        return got

    assert asyncio.run(run()) == [1, 2, 3]


def test_every_server_takes_the_entry_for_an_asgi3_application():
    from asgiref.compatibility import guarantee_single_callable

    from config.asgi import application

    assert guarantee_single_callable(application) is application  # Daphne's reading
    assert asyncio.iscoroutinefunction(application.__call__)  # uvicorn's


@pytest.fixture
def echo_server():
    port = free_port()
    proc = subprocess.Popen(
        # Production's launcher (config/serve.py): Daphne on uvloop's event loop.
        [
            sys.executable,
            "-m",
            "config.serve",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "tests.games.ws_echo_app:application",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_port(port, proc)
        yield port
    finally:
        stop(proc)


def test_a_socket_through_daphne_with_the_lean_protocol(echo_server):
    async def run() -> tuple[dict, dict, int | None]:
        url = f"ws://127.0.0.1:{echo_server}/ws/echo/"
        idle = await websockets.connect(f"{url}?idle", ping_interval=None)
        async with websockets.connect(f"{url}?busy", ping_interval=None) as ws:
            await ws.send("hello")
            assert await ws.recv() == "hello"
            big = "x" * 300_000  # several frames' worth, and more than one write
            await ws.send(big)
            assert await ws.recv() == big
            await ws.send(b"\x00\x01")
            assert await ws.recv() == b"\x00\x01"
            await ws.send("probe idle")
            seen = json.loads(await ws.recv())
            await ws.send("probe busy")
            busy = json.loads(await ws.recv())
            await ws.send("loop")
            assert await ws.recv() == "uvloop.Loop"  # Twisted's sockets, polled by libuv
        await idle.send("now")  # a write to a dropped default puts it back
        assert await idle.recv() == "now"
        await idle.close()
        assert idle.close_code == 1000
        async with websockets.connect(url, ping_interval=None) as ws:
            await ws.send("close")  # the server closes, with its code
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            code = ws.close_code
        return seen, busy, code

    seen, busy, code = asyncio.run(run())
    assert seen["class"] == "LeanWebSocketProtocol"
    assert seen["handshake_left"] == []
    assert seen["defaults_left"] == []
    assert seen["options_on_instance"] == []
    assert seen["producer"] == "_ReadPause"
    assert seen["putters"] == "tuple"
    assert seen["path"] == "/ws/echo/"
    assert seen["keys"] <= 42, seen  # the dict's table of 64 slots
    assert busy["producer"] == "_ReadPause"
    assert busy["handshake_left"] == []
    assert code == 4000


def test_a_closed_socket_leaves_nothing_for_the_collector(echo_server):
    """Closed sockets go by reference counting: no protocol, HTTP channel, request or
    deferred of theirs waits in a reference cycle for a full collection (which, with
    thousands of them, stalled every socket of the process for tens of milliseconds)."""

    async def run() -> dict[str, int]:
        url = f"ws://127.0.0.1:{echo_server}/ws/echo/"
        async with websockets.connect(url, ping_interval=None) as ws:
            await ws.send("garbage")  # what earlier tests left, out of the way
            await ws.recv()
            await ws.send("hold")  # else a young collection could free a cycle first
            assert await ws.recv() == "held"
        for i in range(5):
            async with websockets.connect(f"{url}?n={i}", ping_interval=None) as ws:
                await ws.send("hello")
                assert await ws.recv() == "hello"
        async with websockets.connect(f"{url}?server-closes", ping_interval=None) as ws:
            await ws.send("close")
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
        await asyncio.sleep(2.5)  # Daphne lets go of a closed socket within a second or two
        async with websockets.connect(url, ping_interval=None) as ws:
            await ws.send("garbage")
            return json.loads(await ws.recv())

    left = asyncio.run(run())
    assert left == {kind: 0 for kind in left}, left
