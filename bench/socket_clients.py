"""The clients bench/server.py runs: a player over HTTP and the play socket (legal moves as
fast as the server answers), a bare echo client, and the gate that lets each side play
only in its own time windows."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import random
import time
import urllib.request

import websockets

verdicts = [0]  # verdict messages received in the run


class HttpPlayer:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.call("GET", "/api/me/")

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def call(self, method: str, path: str, body: object = None) -> dict:
        csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        req = urllib.request.Request(
            self.base + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", "X-CSRFToken": csrf},
        )
        with self.opener.open(req, timeout=30) as r:
            return json.loads(r.read())

    def new_session(self, game: str) -> dict:
        return self.call("POST", "/api/sessions/", {"game": game, "deal": "random"})


def pick(state: dict, rng: random.Random, choice: str = "table") -> str | None:
    """A legal move: ``table`` prefers the table's moves to the stock (a client that never
    meets the searches the stock brings); ``random`` takes any legal move, the stock as
    likely as any other, as a person turns it."""
    moves = state["legal_moves"]
    if not moves:
        return None
    if choice == "random":
        return rng.choice(moves)["move"]
    table = [m for m in moves if "stock" not in (m["from"], m["to"])]
    return rng.choice(table or moves)["move"]


async def answer_to(ws: websockets.ClientConnection) -> dict:
    """The next answer; a verdict message after the previous one (docs/api.md) is read
    past, and said in the answer it concerns, as a client applies it."""
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") != "verdict":
            return msg
        verdicts[0] += 1


class Gate:
    """Opens a side's clients for timed windows: a client asks ``turn`` before each message
    (False once the run is over) and says ``done`` after it; a window ends when the calls
    it let through have finished.  The moves and the echo take turns in windows, so both
    see the same drift in the machine's speed."""

    def __init__(self) -> None:
        self.open, self.idle = asyncio.Event(), asyncio.Event()
        self.idle.set()
        self.busy, self.over = 0, False

    async def turn(self) -> bool:
        if not self.open.is_set():
            await self.open.wait()
        if self.over:
            return False
        self.busy += 1
        self.idle.clear()
        return True

    def done(self) -> None:
        self.busy -= 1
        if self.busy == 0:
            self.idle.set()

    async def window(self, seconds: float) -> float:
        t0 = time.monotonic()
        self.open.set()
        await asyncio.sleep(seconds)
        self.open.clear()
        await self.idle.wait()
        return time.monotonic() - t0

    def finish(self) -> None:
        self.over = True
        self.open.set()


async def play(
    base: str,
    ws_base: str,
    game: str,
    gate: Gate,
    ready: asyncio.Barrier,
    restart_after: int,
    latencies: list[float],
    seed: int,
    choice: str = "table",
) -> None:
    rng = random.Random(seed)
    player = await asyncio.to_thread(HttpPlayer, base)
    session = await asyncio.to_thread(player.new_session, game)
    first = True
    while True:
        headers = {"Cookie": player.cookie_header(), "Origin": base}
        async with websockets.connect(
            f"{ws_base}/ws/sessions/{session['id']}/", additional_headers=headers, max_size=None
        ) as ws:
            state = json.loads(await ws.recv())
            if first:  # every player connected before the clock starts
                first = False
                await ready.wait()
            # Each game its own length around --restart-after: at one length for all, the
            # players (who start together and move at one pace) all started new deals
            # at the same moment, a burst no crowd of people makes.
            limit = rng.randint(restart_after // 2, restart_after * 3 // 2)
            while state["seq"] < limit and not state["won"]:
                move = pick(state, rng, choice)
                if move is None:
                    break
                if not await gate.turn():
                    return
                try:
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": move}))
                    answer = await answer_to(ws)
                    latencies.append(time.perf_counter() - t0)
                finally:
                    gate.done()
                if answer["type"] != "state":
                    raise SystemExit(f"refused legal move {move}: {answer}")
                state = answer
        if not await gate.turn():  # a new deal inside a window: its CPU is the moves'
            return
        try:
            session = await asyncio.to_thread(player.new_session, game)
        finally:
            gate.done()


async def echo(
    ws_base: str, gate: Gate, ready: asyncio.Barrier, payload: str, latencies: list[float]
) -> None:
    async with websockets.connect(f"{ws_base}/ws/echo/", max_size=None) as ws:
        await ready.wait()
        while await gate.turn():
            try:
                t0 = time.perf_counter()
                await ws.send(payload)
                await ws.recv()
                latencies.append(time.perf_counter() - t0)
            finally:
                gate.done()
