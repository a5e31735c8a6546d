"""What players do while an operator kills or restarts web processes: steady HTTP requests
through the balancer, and play sockets that reconnect as the page's socket module does
(frontend/static/frontend/js/socket.js) and play on, each operation with its own id."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

import websockets

CLOSE_RESTART = 4012  # config/drain.py, socket.js


@dataclass
class Requests:
    """GETs through the balancer at a steady rate, in a thread, each with its outcome."""

    base: str
    rate: float = 5.0
    paths: tuple[str, ...] = ("/api/me/", "/api/daily/", "/", "/api/me/")
    outcomes: list[tuple[float, str, int | str]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def _run(self) -> None:
        opener = urllib.request.build_opener()
        start, n = time.monotonic(), 0
        while not self.stopping.is_set():
            due = start + n / self.rate
            time.sleep(max(0.0, due - time.monotonic()))
            path = self.paths[n % len(self.paths)]
            n += 1
            at = time.monotonic()
            try:
                with opener.open(self.base + path, timeout=30) as r:
                    r.read()
                    outcome: int | str = r.status
            except urllib.error.HTTPError as e:
                outcome = e.code
            except OSError as e:
                outcome = type(e).__name__
            self.outcomes.append((at, path, outcome))

    def start(self) -> Requests:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(60)

    def failed(self) -> list[tuple[float, str, int | str]]:
        return [o for o in self.outcomes if not isinstance(o[2], int) or o[2] >= 500]


class PlaySocket:
    """A page's play socket through the balancer: it reconnects with socket.js's policy
    (``jitter``: draws between half and all of 0.5, 1, 2, 4, 8 s, and a fraction of a
    second after CLOSE_RESTART; without it, the fixed steps the page had before), plays the
    moves given, one operation at a time, retrying an unanswered one with the same op id
    and seq on the next socket, as connection.js does."""

    def __init__(
        self,
        ws_base: str,
        origin: str,
        cookie: str,
        session: dict[str, Any],
        moves: list[str],
        every: float = 0.3,
        jitter: bool = True,
    ) -> None:
        self.url = f"{ws_base}/ws/sessions/{session['id']}/"
        self.headers = {"Cookie": cookie, "Origin": origin}
        self.moves, self.every, self.jitter = list(moves), every, jitter
        self.seq = int(session["seq"])
        self.acknowledged: list[str] = []  # tokens the server answered, in order
        self.closes: list[tuple[float, int | None]] = []  # (when, close code)
        self.hellos: list[tuple[float, int]] = []  # (when, seq in the greeting)
        self.stopping = False
        self.errors: list[Any] = []

    def returns(self, stops: list[float], within: float = 5.0) -> list[float]:
        """For each time this socket was cut within ``within`` seconds of a process being
        stopped (``stops``: when), the seconds from that stop to the next greeting (inf: it
        never came back)."""
        out = []
        for cut, _ in self.closes:
            before = [t for t in stops if t <= cut]
            if not before or cut - before[-1] > within:
                continue
            later = [at for at, _ in self.hellos if at > cut]
            out.append(later[0] - before[-1] if later else float("inf"))
        return out

    async def run(self) -> None:
        delay = 0.5
        pending: dict[str, Any] | None = None
        while not self.stopping:
            code = None
            try:
                async with websockets.connect(
                    self.url, additional_headers=self.headers, open_timeout=10
                ) as ws:
                    hello = json.loads(await ws.recv())
                    self.hellos.append((time.monotonic(), hello.get("seq")))
                    delay = 0.5
                    if pending is None and hello.get("seq") != self.seq:
                        self.errors.append(("greeting seq", hello.get("seq"), self.seq))
                    pending = await self._play(ws, pending)
                    code = ws.close_code
            except websockets.ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd else None
            except (TimeoutError, OSError, websockets.InvalidHandshake) as e:
                code = None
                self.errors.append(("connect", type(e).__name__))
            if self.stopping:
                return
            self.closes.append((time.monotonic(), code))
            if code == CLOSE_RESTART and self.jitter:
                wait = random.random()
            else:
                wait = delay * (0.5 + random.random() / 2) if self.jitter else delay
                delay = min(delay * 2, 8.0)
            await asyncio.sleep(wait)

    async def _play(self, ws: Any, pending: dict[str, Any] | None) -> dict[str, Any] | None:
        while not self.stopping:
            if pending is None:
                if not self.moves:
                    await asyncio.sleep(self.every)
                    continue
                pending = {
                    "type": "move",
                    "seq": self.seq,
                    "move": self.moves[0],
                    "op": uuid.uuid4().hex,
                }
            await ws.send(json.dumps(pending))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if answer.get("type") != "state":
                self.errors.append(("answer", answer))
                self.stopping = True
                return None
            if answer["seq"] != self.seq + 1:
                self.errors.append(("seq", answer["seq"], self.seq + 1))
            self.seq = answer["seq"]
            self.acknowledged.append(self.moves.pop(0))
            pending = None
            await asyncio.sleep(self.every)
        await ws.close()
        return pending
