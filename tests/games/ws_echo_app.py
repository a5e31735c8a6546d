"""A websocket echo served by Daphne with config/patches/autobahn.py's protocol, for
tests/games/test_ws_memory.py.  ``probe`` answers what the server's open sockets hold,
``garbage`` what its closed ones left for the collector, ``loop`` the event loop it runs on."""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

from config.patches.autobahn import HANDSHAKE_ONLY, IDLE_DEFAULTS, install

install()


def probe(query: bytes) -> dict[str, Any]:
    """What the open socket whose query string is ``query`` holds."""
    from daphne.ws_protocol import WebSocketProtocol

    found = [
        p
        for p in gc.get_objects()
        if isinstance(p, WebSocketProtocol) and p._raw_query_string == query
    ]
    p = found[0]
    return {
        "sockets": len(found),
        "class": type(p).__name__,
        "keys": len(p.__dict__),
        "handshake_left": [n for n in HANDSHAKE_ONLY if n in p.__dict__],
        "defaults_left": [n for n in IDLE_DEFAULTS if n in p.__dict__],
        "options_on_instance": [n for n in p.CONFIG_ATTRS if n in p.__dict__],
        "producer": type(p.transport.producer).__name__,
        "putters": type(p.application_queue._putters).__name__,
        "path": p.request.path,
    }


def garbage() -> dict[str, int]:
    """Of the sockets closed so far, the objects only the collector would free (those in
    reference cycles), by kind."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
    kinds = ("LeanWebSocketProtocol", "HTTPChannel", "WebRequest", "Deferred", "Server")
    return {kind: sum(type(o).__name__ == kind for o in found) for kind in kinds}


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    assert scope["type"] == "websocket"
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.disconnect":
            return
        elif message.get("text", "").startswith("probe "):
            query = message["text"].split(" ", 1)[1].encode()
            await send({"type": "websocket.send", "text": json.dumps(probe(query))})
        elif message.get("text") == "hold":  # no collection until the next "garbage"
            gc.disable()
            await send({"type": "websocket.send", "text": "held"})
        elif message.get("text") == "garbage":
            await send({"type": "websocket.send", "text": json.dumps(garbage())})
            gc.enable()
        elif message.get("text") == "loop":  # the event loop this server runs on
            loop = type(asyncio.get_running_loop())
            await send({"type": "websocket.send", "text": f"{loop.__module__}.{loop.__name__}"})
        elif message.get("text") == "close":
            await send({"type": "websocket.close", "code": 4000})
        else:
            await send(
                {
                    "type": "websocket.send",
                    "text": message.get("text"),
                    "bytes": message.get("bytes"),
                }
            )
