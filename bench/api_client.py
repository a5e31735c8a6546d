"""A play client written from docs/api.md alone, against a bare Daphne echo in the same run.

Each of N players does what the document says a client does: ``GET /api/me/`` for its
cookies, ``POST /api/sessions/`` with the CSRF token for a random deal, then the play socket
(``/ws/sessions/<id>/``, the ``Origin`` and the ``sessionid`` cookie), the ``hello``
greeting, and one ``move`` message after another with ``seq`` and an ``op`` of its own,
matching each answer by ``answers.op`` and applying ``verdict`` messages to the state with
their ``seq``.  Moves are any legal move from ``legal_moves``, the stock as likely as any
other (as a person turns it).  A game that is won, dead (``no_legal_move``), out of moves or
at ``--restart-after`` moves is resigned over the socket and a new deal started over HTTP.

Every departure from the document counts as an error, by kind: an HTTP status other than
the one documented, a socket error answer (by its ``error``), a greeting that is not a
``hello`` of the session, an answer whose ``answers`` or ``seq`` do not fit, a listed move
refused, an unasked message other than a verdict, a timeout, a dropped socket.

    .venv/bin/python bench/api_client.py --game klondike --players 50 --seconds 10
    .venv/bin/python bench/api_client.py --url http://127.0.0.1:8000 --echo-url ws://…

Without ``--url`` it starts the site and the echo as bench/server.py does (same
environment, same database); the echo clients then send messages of the size of the
median move answer, for as long, after the players stop.  Last runs: bench/server.py.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import http.cookies
import itertools
import json
import random
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 10.0  # seconds an answer may take before it counts as an error

errors: collections.Counter[str] = collections.Counter()


class Refused(Exception):
    """An answer the document does not allow here; its text is the error's kind."""


class Client:
    """One browser: its cookies, the CSRF token (docs/api.md, "Cookies and CSRF") and, as a
    browser keeps it, one connection to the site for its HTTP calls."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
        self.csrf = ""
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body: object, expect: int) -> dict:
        headers = {"X-CSRFToken": self.csrf, "Cookie": self.cookie_header()}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):  # a kept connection the server closed meanwhile: once more
            if self.conn is None:
                self.conn = http.client.HTTPConnection(
                    urllib.parse.urlsplit(self.base).netloc, timeout=TIMEOUT
                )
            try:
                self.conn.request(method, path, body=data, headers=headers)
                r = self.conn.getresponse()
                status, text = r.status, r.read()
                break
            except (OSError, http.client.HTTPException) as e:
                self.conn.close()
                self.conn = None
                if attempt == 2 or not isinstance(
                    e, (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)
                ):
                    raise Refused(f"http {type(e).__name__}") from e
        for header in r.headers.get_all("Set-Cookie") or []:
            self.cookies.load(header)
        if status != expect:
            try:
                code = json.loads(text).get("error", "?")
            except ValueError:
                code = "not json"
            raise Refused(f"http {method} {path.split('/')[2]} {status} {code}")
        return dict(json.loads(text))

    def sign_in_as_guest(self) -> None:
        self.csrf = self.call("GET", "/api/me/", None, 200)["csrf_token"]

    def new_session(self, game: str) -> dict:
        return self.call("POST", "/api/sessions/", {"game": game, "deal": "random"}, 201)

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={m.value}" for name, m in self.cookies.items())


class Play:
    """One play socket: sends an operation and reads until the answer naming its op."""

    def __init__(self, ws: websockets.ClientConnection, state: dict) -> None:
        self.ws = ws
        self.state = state
        self.ops = itertools.count(1)
        self.verdicts = 0
        self.sizes: list[int] = []

    async def send(self, message: dict) -> dict:
        op = f"b{next(self.ops)}"
        message = {**message, "seq": self.state["seq"], "op": op}
        await self.ws.send(json.dumps(message))
        while True:
            text = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
            answer = json.loads(text)
            if answer.get("type") == "verdict":
                self.apply_verdict(answer)
                continue
            if "answers" not in answer:
                raise Refused(f"unasked {answer.get('type')}")
            if answer["answers"].get("op") != op:
                raise Refused("answer to another op")
            break
        self.sizes.append(len(text))
        if answer.get("type") == "error":
            raise Refused(f"socket {answer.get('error')} {answer.get('code', '')}".strip())
        if answer.get("type") != "state" or answer.get("op") != op:
            raise Refused("answer not a state of this op")
        if answer.get("repeated"):
            raise Refused("repeated on a first try")
        if message["type"] == "move" and answer["seq"] != message["seq"] + 1:
            raise Refused("seq not one on")
        self.state = answer
        return answer

    def apply_verdict(self, verdict: dict) -> None:
        # A verdict is for the state with its seq; one for an older state is ignored.
        if verdict.get("no_legal_move") is not True:
            raise Refused("verdict not true")
        self.verdicts += 1
        if verdict.get("seq") == self.state["seq"]:
            self.state["no_legal_move"] = True


def over(state: dict, restart_after: int) -> bool:
    return (
        state["status"] != "playing"
        or state["no_legal_move"]
        or not state["legal_moves"]
        or state["moves"] >= restart_after
    )


class Windows:
    """The turns of the run: the players move while ``moves`` is set, the echo clients send
    while ``echo`` is set; ``done`` ends both."""

    def __init__(self) -> None:
        self.moves, self.echo = asyncio.Event(), asyncio.Event()
        self.done = False

    async def wait(self, gate: asyncio.Event) -> bool:
        """Wait for the gate; False once the run is over."""
        if not gate.is_set():
            await gate.wait()
        return not self.done


async def player(
    base: str,
    game: str,
    window: Windows,
    ready: asyncio.Barrier,
    restart_after: int,
    latencies: list[float],
    sizes: list[int],
    counts: dict[str, int],
    seed: int,
) -> None:
    rng = random.Random(seed)
    client = Client(base)
    first = True
    while True:
        if not first and not await window.wait(window.moves):
            return  # a new deal only in the players' turn
        try:
            if first:
                await asyncio.to_thread(client.sign_in_as_guest)
            session = await asyncio.to_thread(client.new_session, game)
            url = base.replace("http", "ws", 1) + f"/ws/sessions/{session['id']}/"
            async with websockets.connect(
                url,
                origin=base,  # type: ignore[arg-type]
                additional_headers={"Cookie": client.cookie_header()},
                max_size=2**20,
                open_timeout=TIMEOUT,
            ) as ws:
                hello = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if (
                    hello.get("type") != "hello"
                    or hello.get("id") != session["id"]
                    or hello.get("seq") != session["seq"]
                ):
                    raise Refused("greeting not the session's hello")
                play = Play(ws, hello)
                if first:  # the clock starts once every player is at its table
                    first = False
                    await ready.wait()
                # Each game its own length around --restart-after: at one length, players
                # who start together at one pace all start new deals at the same moment.
                limit = rng.randint(restart_after // 2, restart_after * 3 // 2)
                while not over(play.state, limit):
                    if not await window.wait(window.moves):
                        return
                    move = rng.choice(play.state["legal_moves"])["move"]
                    t0 = time.perf_counter()
                    await play.send({"type": "move", "move": move})
                    latencies.append(time.perf_counter() - t0)
                counts["verdicts"] += play.verdicts
                sizes.extend(play.sizes)
                if not await window.wait(window.moves):
                    return
                if play.state["status"] == "playing":
                    await play.send({"type": "resign"})
                counts["games"] += 1
        except Refused as e:
            errors[str(e)] += 1
        except TimeoutError:
            errors["timeout"] += 1
        except websockets.ConnectionClosed as e:
            errors[f"socket closed {e.rcvd.code if e.rcvd else ''}".strip()] += 1
        except (OSError, websockets.InvalidHandshake) as e:
            errors[f"socket {type(e).__name__}"] += 1
        if first:  # never reached the table: the run cannot wait for it
            first = False
            await ready.wait()
        if not await window.wait(window.moves):
            return


async def echo(url: str, window: Windows, payload: list[str], latencies: list[float]) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        while await window.wait(window.echo):
            t0 = time.perf_counter()
            await ws.send(payload[0])
            await ws.recv()
            latencies.append(time.perf_counter() - t0)


def summary(name: str, latencies: list[float], seconds: float, done: int) -> dict[str, float]:
    lat = sorted(latencies) or [0.0]
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    row = {"rate": done / seconds, "p50": p(0.50), "p99": p(0.99)}
    print(f"{name:24} {row['rate']:8.0f}/s   p50 {row['p50']:7.2f} ms   p99 {row['p99']:7.2f} ms")
    return row


async def turn(gate: asyncio.Event, seconds: float, count: list[float]) -> float:
    """Open ``gate`` for ``seconds``; the time it was open.  Operations sent while it was
    open finish after it closes, so the next turn starts once they are answered (at most a
    timeout later)."""
    gate.set()
    t0 = time.monotonic()
    await asyncio.sleep(seconds)
    gate.clear()
    spent = time.monotonic() - t0
    settle = time.monotonic() + TIMEOUT
    last = -1
    while len(count) != last and time.monotonic() < settle:  # the last answers arrive
        last = len(count)
        await asyncio.sleep(0.05)
    return spent


async def run(
    args: argparse.Namespace, bases: list[str], echo_urls: list[str], cpu: object = None
) -> None:
    latencies: list[float] = []
    sizes: list[int] = []
    counts = {"verdicts": 0, "games": 0}
    window = Windows()
    ready = asyncio.Barrier(args.players + 1)
    tasks = [
        asyncio.create_task(
            player(
                base,
                args.game,
                window,
                ready,
                args.restart_after,
                latencies,
                sizes,
                counts,
                args.seed + i,
            )
        )
        for i, base in zip(range(args.players), itertools.cycle(bases), strict=False)
    ]
    await ready.wait()
    echo_lat: list[float] = []
    payload = ["{}"]
    echoes = [
        asyncio.create_task(echo(url, window, payload, echo_lat))
        for _, url in zip(range(args.players), itertools.cycle(echo_urls), strict=False)
    ]
    # The moves and the echo take turns (--rounds windows each), so both meet the same
    # drift in the machine's speed; the echo's messages have the size of the median answer
    # seen so far.
    play_seconds = echo_seconds = 0.0
    play_cpu: float | None = 0.0 if callable(cpu) else None
    moves_done = echoes_done = 0
    for _ in range(args.rounds):
        n0 = len(latencies)
        cpu0 = cpu() if callable(cpu) else 0.0
        play_seconds += await turn(window.moves, args.seconds / args.rounds, latencies)
        if callable(cpu) and play_cpu is not None:
            play_cpu += cpu() - cpu0
        moves_done += len(latencies) - n0
        if not echo_urls:
            continue
        size = int(statistics.median(sizes)) if sizes else 2000
        payload[0] = json.dumps({"type": "echo", "pad": "x" * max(0, size - 30)})
        e0 = len(echo_lat)
        echo_seconds += await turn(window.echo, args.seconds / args.rounds, echo_lat)
        echoes_done += len(echo_lat) - e0
    window.done = True
    window.moves.set()
    window.echo.set()
    await asyncio.gather(*tasks, *echoes)
    print(
        f"\n{args.players} players, {args.seconds:.0f} s in {args.rounds} turn(s), {args.game}, "
        f"random legal moves (stock included), {counts['games']} games resigned or ended "
        f"and restarted, {counts['verdicts']} verdict messages"
    )
    moves = summary("moves (docs/api.md)", latencies, play_seconds, moves_done)
    if play_cpu is not None:
        print(f"{'server CPU per move':24} {play_cpu / max(1, moves_done) * 1000:8.2f} ms")
    if echo_urls:
        size = int(statistics.median(sizes)) if sizes else 2000
        bare = summary(f"bare echo ({size} B)", echo_lat, echo_seconds, echoes_done)
        print(f"{'ratio moves/echo':24} {moves['rate'] / max(1e-9, bare['rate']):8.1%}")
    print(f"{'errors':24} {sum(errors.values()):8d}")
    for kind, n in errors.most_common():
        print(f"    {n:6d}  {kind}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--game", default="klondike")
    ap.add_argument("--restart-after", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="turns of moves and echo, so both meet the same drift of the machine",
    )
    ap.add_argument("--url", help="a running site (http://host:port); default: start one")
    ap.add_argument("--echo-url", help="a running echo (ws://host:port/ws/echo/)")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--log", help="write the started servers' output to this file")
    sys.path.insert(0, str(ROOT))
    from bench.processes import cpu_seconds, loop_options, servers

    loop_options(ap)
    args = ap.parse_args()
    if args.url:
        asyncio.run(run(args, [args.url.rstrip("/")], [args.echo_url] if args.echo_url else []))
        return
    with servers(args.processes, args.log, args.site_loop, args.echo_loop) as (
        site_ports,
        echo_ports,
        site_pids,
        _,
    ):
        asyncio.run(
            run(
                args,
                [f"http://127.0.0.1:{p}" for p in site_ports],
                [f"ws://127.0.0.1:{p}/ws/echo/" for p in echo_ports],
                lambda: sum(cpu_seconds(p) for p in site_pids),
            )
        )


if __name__ == "__main__":
    main()
