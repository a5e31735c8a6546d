"""Websocket play throughput against a bare Daphne echo, measured in the same run.

Starts Daphne on PostgreSQL and Redis (the site) and a second Daphne with a bare echo
consumer, opens N websocket players that each play legal moves taken from ``legal_moves`` as
fast as the server answers, then N echo clients sending messages of the same size.  Prints
moves (or echoes) per second and round-trip latency p50/p99, and the ratio.

    .venv/bin/python bench/server.py --players 50 --seconds 15

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench, created
if missing), REDIS_URL (default redis://127.0.0.1:6379/0).  A player whose game reaches
--restart-after moves (or ends) starts a new deal over HTTP, outside the timed moves (its
server CPU is counted with the moves).  ``--processes N`` runs N site and N echo processes,
each player sticking to one.

Last runs (2026-11-30, 2 cores shared by client, servers, PostgreSQL and Redis; background
jobs paused; 50 players, 15 s, one process each side; several runs where a range is given):

    game           moves/s     p50 ms  p99 ms   echo/s      ratio   server CPU per move (echo)
    freecell      1598-2022    21-25   41-56   4,501-5,011  32-40%  0.47-0.59 ms (0.21-0.24)
    klondike         2049        19      57       4,713       43%    0.47 ms (0.23)
    whitehorse    1330-1544    27-30   64-84   3,608-4,154    37%    0.63-0.73 ms (0.25-0.29)
    bakers-dozen  1529-1688    24-25   58-88   4,887-4,956  31-34%  0.57-0.63 ms (0.21-0.22)

``--moves random`` (any legal move, the stock as likely as any other, as a person plays):
2026-12-01, 50 players, 8 s, the machine shared with other work (the echo between 900 and
3,500/s from run to run), before -> after the dead-end verdict got a bounded share of the
event loop (docs/api.md, the verdict message), 3-11 runs each, alternated:

    game           moves/s before   p99 ms before   moves/s after   p99 ms after
    klondike         550-1,190        120-480         490-970         140-470
    whitehorse         400-910        120-350         440-1,120        85-435
    freecell           810-1,140      100-155         830-1,070       100-145
    bakers-dozen       580-730        165-230         700-870         135-200

The spread from run to run is wider than the change: what it bounds is the event loop's
time per move (bench/endgame.py), not the machine's total work, which moved in part to the
worker process on the same two cores.

bench/api_client.py, the client written from docs/api.md alone (guest cookies, CSRF, the
play socket, answers matched by op, verdict messages; random legal moves with the stock; a
new deal over HTTP whenever a game ends), 2026-12-01, 50 players, 8-10 s, one process each
side, the echo (messages of the median answer's size) in the same run; 0 errors of any kind
in every run.  The machine was shared with other work at a load average of 9.6-16.7 on its
2 cores, so the echo itself gave only 475-2,300/s (3,600-5,800 on a quiet machine) and the
spread is wide.  Before is d83559a (the client only), after is this checkout (the tap's
ranking only for a card with a choice, the verdicts a table remembers, the analysis cache),
alternated, 4-9 runs each:

    game           moves/s before  after     ratio before  after    p99 ms after   CPU/move after
    klondike         218-764      150-718       23-58%    18-58%      117-1,331    0.41-0.60 ms
    freecell         146-909      160-479        9-67%    20-45%      196-794      0.54-0.89 ms
    whitehorse       349-784      200-406       25-46%    24-57%      219-660      0.43-0.53 ms
    bakers-dozen     275-491      170-464       18-26%    14-37%      263-687      0.77-1.11 ms

This script's own ``--moves random`` after the change, the same afternoon (load average
11.5-12.2, 2 runs each): Klondike 623-706 moves/s, 39-45% of the echo, p99 130-146 ms,
0.42-0.43 ms of server CPU a move (the echo's 0.21-0.26); FreeCell 689-1,096/s, 32-41%, p99
98-239 ms, 0.43-0.54 ms (0.18-0.20).

2026-12-01 evening, a slower machine than the runs above (load average 1-4: the end of other
work), 50 players, 10 s, random legal moves with the stock, 2 runs each, this script and
bench/api_client.py (the client written from docs/api.md; 0 errors in every run) in turns:

    game          script       moves/s     p99 ms      echo/s      ratio    CPU/move (echo)
    klondike      server.py   1373-1455   76-81     3305-3410   42-43%   0.46-0.49 (0.23-0.31)
    klondike      api_client  1220-1262   77-96     2631-2656   46-48%   0.50-0.68
    freecell      server.py    998-1283   87-96     2486-2937   40-44%   0.53-0.75 (0.28-0.29)
    freecell      api_client   968-980   110-114    2605-2624     37%    0.69-0.75
    whitehorse    server.py   1158-1471   81-91     2418-3200   46-48%   0.58-0.64 (0.32-0.33)
    whitehorse    api_client  1137-1487   76-90     2957-3428   38-43%   0.58-0.61
    bakers-dozen  server.py   1044-1501   90-98     2604-3540   40-42%   0.63-0.69 (0.30)
    bakers-dozen  api_client   693-918    89-133    2336-3152     29%    1.02-1.18

On the quiet machine earlier that day (load under 1.5, one run each): Klondike 42-55% (p99
74-79 ms), FreeCell 40-44% (p99 70-78 ms); FreeCell before and after the day's changes,
alternated: 38-39% and 44-57% of the echo, 0.61-0.80 and 0.58-0.60 ms a move (the echo
itself moved from 2,669 to 4,007/s between runs).  What did not move p99: PostgreSQL's
synchronous_commit off for the bench database (both ways within the spread), the
interpreter's switch interval at 1 ms (worse: 28-30 ms of loop lag at p99 against 21), more
statements in flight (WS_DB_BATCHES 4 or 8).  The site's event loop is late by 8-11 ms at
p90 and about 21 ms at p99 under this load (a probe every 5 ms), which is the queue of 50
players' moves at about 0.5 ms each rather than any one long step; the full collections
are rare once the process is warm (gc.freeze in config/asgi.py).

Not met on this machine as it was: FreeCell at 50% of the echo, and p99 under 60 ms (the
echo's own p99 was 66-340 ms).  Klondike reached 40% in 4 of 9 runs.  What changed is the
engine's share of an answer (bench/answer.py: Klondike 122-135 to 86-109 us, Whitehorse
154-175 to 109-119 us of CPU), a fifth of a move's server CPU, within the spread of these
runs; the rest is Daphne's framing (the echo's 0.2 ms), the statement and JSON.  FreeCell
costs more per move than Klondike for its new deals: random play reaches a dead end every
70-90 moves, and the deal's HTTP calls and new socket were a fifth of the server's time.

The echo rate itself moves between about 3,600 and 5,800/s from run to run on this machine,
and the ratio with it.  What a move costs the server now: Daphne and Channels' framing (the
echo's cost, about 0.2 ms), the engine's answer (legal moves, the table, "finish" and the
dead-end verdict, 20-200 us), one share of a batched statement, JSON.  Earlier figures for
FreeCell on this machine: 23-30% (0.9 ms of CPU per move) with one statement per move, the
session saved-checked after every message and the standard library's JSON; about 15% before
the unlocked move path.  Whitehorse and Baker's Dozen were at 21% and 12% before the table's
analysis (finish simulated on plain lists, the dead-end verdict kept between moves, Baker's
Dozen's quick proof) was made cheap.

2026-12-01 night, the machine quiet, 50 players, 12 s, random legal moves with the stock,
``--rounds 4`` (the moves and the echo taking turns in four windows each, so both meet the
same drift in the machine's speed: in the moves-then-echo order the same code measured 37%
and 54% of the echo in two runs), after a 3 s warm-up, each game's length spread around
``--restart-after``, three runs each:

    game          moves/s      p50 ms   p99 ms   echo/s      ratio    server CPU/move (echo)
    freecell     1747-1978    23-26    48-54   3804-4505   44-50%   0.46-0.53 (0.24-0.28)
    klondike     1961-2222    21-24    44-47   3958-4521   46-52%   0.42-0.48 (0.23-0.27)
    whitehorse   1578-1657    28-29    53-59   3353-3915   42-47%   0.57-0.60 (0.27-0.31)
    bakers-dozen 1458-1799    26-31    52-66   3063-4102   44-48%   0.51-0.64 (0.26-0.34)

Where the rest of a move's CPU goes (the last line this script prints): PostgreSQL
0.11-0.14 ms a move, this client 0.11-0.17 ms (it parses each answer and picks a move; the
echo's client 0.05-0.07), Redis 0.01.  Every process shares the two cores, so the ratio is
close to the echo's whole cost over the move's: (0.26 + 0.06) / (0.48 + 0.12 + 0.14) is
43%; 50% needs about 0.1 ms less per move somewhere on the machine.  The same alternation
against a78271d (before this night's changes), moves-then-echo order: FreeCell 38-51%,
Klondike 49-51%; the changes (one HTTP hand-over a request, Twisted's form parse off,
hiredis, move objects from a table, autobahn's debug line skipped) are within the spread.

p99: earlier runs (the table in the previous version of this docstring) had Klondike at
61-103 ms and Baker's Dozen at 86-90.  Every player ended its game at the same move (all
start together and move at one pace), so all 50 started a new deal in the same moment,
every few seconds: a burst of HTTP starts and new sockets that held the loop and the GIL
while every other player waited.  With no new deals at all (``--restart-after 100000``)
Klondike's p99 was 48-52 ms; with each game's length its own (uniform within half of
``--restart-after`` either way), it is the table's.  Also found on the way: each closed
socket left about 54 objects (its protocol, transport, the upgrade's HTTP channel and
request, their deferreds) in reference cycles for a full collection
(config/ws_memory.py now breaks the two cycles), and the URL conf, translations and
solvers were loaded after ``gc.freeze`` and walked by every full collection (config/
asgi.py now loads them first): a full collection takes 7-12 ms of CPU, 4-5 of them in
12 s, and neither change moved p99 measurably.

bench/api_client.py (the client written from docs/api.md; moves, then the echo, each
game's length spread the same way), the same hour, one run each, 0 errors: FreeCell 44.4%
of the echo (1,268 moves/s, p99 76 ms, the echo's own p99 75 in that run), Klondike 41.8%
(1,669/s, p99 54), Whitehorse 55.2% (1,630/s, p99 61), Baker's Dozen 26.6% (981/s, p99 96,
0.94 ms of server CPU a move against 0.51-0.64 in this script's runs).  That client ends a
game at its dead-end verdict, as a person would; random play reaches one in Baker's Dozen
after about 61 moves (160 games in the run, against 187 moves a game in Klondike), and
each game costs its start over HTTP, a new socket and a resign: 15-25 ms of server CPU a
game by these runs, a quarter to a third of a millisecond a move at Baker's Dozen's pace.
This script plays on past a dead end (legal moves are left) until the game's length.

2026-12-02, after a start became one statement and the move's clock and greeting lost a
settings lookup and an ORM query each (games/play/fresh.py, optimistic.py, locked.read),
50 players, 24 s, random moves with the stock, ``--rounds 4``.  The machine ran slower
than the night before (the echo at 2,750-3,450/s against 3,050-4,520), two runs each:

    game          moves/s      p50 ms   p99 ms   echo/s      ratio    server CPU/move (echo)
    freecell     1447-1549    30-32    59-62   2771-3150   49-52%   0.58-0.63 (0.32-0.37)
    klondike     1414-1513    31-34    58-64   2749-3297   46-51%   0.61-0.64 (0.31-0.37)
    whitehorse   1426-1457    33       59-62   2990-3357   43-48%   0.63-0.65 (0.31-0.34)
    bakers-dozen 1311-1430    33-35    62-73   3092-3431   42%      0.65-0.71 (0.30-0.33)

FreeCell earlier that morning on the faster machine, this checkout's code against cd4b83f
alternated twice: 46.8% and 50.3% of the echo (p99 44-53 ms) against 52.0% and 43.5% (p99
58-60): the changes are within the spread.  p99 follows the machine's speed: with 50
players each waiting for its answer, p50 is the 50 players over the rate (33 ms at 1,500
moves a second) and p99 about twice that, so it is under 60 ms only when the server keeps
above about 1,700 moves a second.  The same hour, bench/api_client.py, one run each, 0
errors: FreeCell 54.6% (1,791/s, p99 54 ms), Klondike 44.0% (1,449/s, p99 58), Whitehorse
37.1% (1,158/s, p99 74), Baker's Dozen 27.3% (747/s, p99 114).  In Baker's Dozen under that
client a quarter of the server's busy time is the dead-end search the loop is allowed
(DEAD_END_LOOP_MS, 0.5 ms a move: its games end at a dead end about every 58 moves, and
the moves before it are the ones the search cannot settle quickly), a fifth the game's
start, socket and resign; with the bound at 0.2 ms its p99 went from 94 to 78 ms (two runs
each), still over 60, and the default stays.  Raising the collector's thresholds
(5000, 20, 100) cut its time from about 390 to 160 ms in 40 s and moved neither rate nor
p99.

2026-12-02 morning, a quiet and faster machine (load average about 1), 50 players, 10 s,
random moves with the stock, two runs each, this script and bench/api_client.py in turns.
The site now runs as production does, Daphne on uvloop's event loop (config/serve.py);
the echo is still a bare Daphne as it comes, on asyncio's loop (``--echo-loop``):

    game          script      moves/s     p99 ms   echo/s      ratio    CPU/move (echo)
    freecell      server.py   3264-3378   27-29    5484-5550   60-61%   0.27 (0.19-0.20)
    freecell      api_client  2871-2995   31       5617-5742   50-53%   0.28-0.30
    klondike      server.py   3297-3447   25-26    5650-5693   58-61%   0.27-0.28 (0.19)
    klondike      api_client  3074-3161   28-29    5459-5654     56%    0.28
    whitehorse    server.py   2976-3152   27-31    5500-5522   54-57%   0.30-0.31 (0.19)
    whitehorse    api_client  2765-2793   31       5323-5528   51-52%   0.32
    bakers-dozen  server.py   2926-3074   29-32    5541-5560   53-55%   0.30-0.32 (0.19)
    bakers-dozen  api_client  1725-1765   43-46    5342-5533     32%    0.53-0.54

0 errors in every run.  The same hour before the change of loop, alternated three times
(FreeCell, this script): 2,731-2,965 moves/s at 0.31-0.34 ms a move on asyncio's loop,
3,170-3,280 at 0.27-0.28 on uvloop's, 54-55% of the stock echo against 59%.  An echo on
uvloop too answers 6,780-7,460/s (0.13-0.15 ms a message), and against it FreeCell is at
45-47% here and 40% under bench/api_client.py: the ratios above are against the baseline
the issue names, Daphne as it comes, and a move costs 1.4-1.5 times that echo's CPU.
Half an hour later, the machine a little slower (FreeCell 57.3% in this script), three
runs of bench/api_client.py on FreeCell gave 50.7%, 49.3% and 53.0% (0.30-0.33 ms a move):
50% is that client's edge.  Under it FreeCell's games end at a dead end every 75-80 moves (about 370
games in 10 s), and each game's start over HTTP, socket and resign is about a tenth of
the server's busy time; the engine's answer (seen.state, 24 us a FreeCell move,
bench/answer.py) about as much, half of it the legal moves.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import itertools
import json
import random
import statistics
import sys
import time
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import (  # noqa: E402
    cpu_seconds,
    loop_options,
    others_cpu_seconds,
    servers,
    tree_cpu_seconds,
)


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
            self.base + path, method=method,
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


verdicts = [0]  # verdict messages received in the run


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


async def play(base: str, ws_base: str, game: str, gate: Gate, ready: asyncio.Barrier,
               restart_after: int, latencies: list[float], seed: int,
               choice: str = "table") -> None:
    rng = random.Random(seed)
    player = await asyncio.to_thread(HttpPlayer, base)
    session = await asyncio.to_thread(player.new_session, game)
    first = True
    while True:
        headers = {"Cookie": player.cookie_header(), "Origin": base}
        async with websockets.connect(f"{ws_base}/ws/sessions/{session['id']}/",
                                      additional_headers=headers, max_size=None) as ws:
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
                    await ws.send(json.dumps({"type": "move", "seq": state["seq"],
                                              "move": move}))
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


async def echo(ws_base: str, gate: Gate, ready: asyncio.Barrier, payload: str,
               latencies: list[float]) -> None:
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


async def quiet(pids: list[int], most: float = 5.0) -> None:
    """Until these processes and their children are idle (under 5% of a core for 0.2 s):
    the verdicts a socket settles in a worker once its player stops (docs/api.md,
    verdict) are the moves' work, which a player moving on would have cancelled; they
    must not run in the echo's window."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        before = sum(tree_cpu_seconds(p) for p in pids)
        await asyncio.sleep(0.2)
        if sum(tree_cpu_seconds(p) for p in pids) - before < 0.01:
            return


def _per(before: dict[str, float], after: dict[str, float], n: int) -> str:
    return ", ".join(f"{k} {(after[k] - before[k]) / max(1, n) * 1000:.2f}" for k in before)


def summary(name: str, latencies: list[float], seconds: float) -> dict[str, float]:
    lat = sorted(latencies)
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    row = {"rate": len(lat) / seconds, "p50": p(0.50), "p99": p(0.99),
           "mean": statistics.fmean(lat) * 1000 if lat else 0.0}
    print(f"{name:28} {row['rate']:10.0f}/s   p50 {row['p50']:7.2f} ms   p99 {row['p99']:7.2f} ms")
    return row


async def run(args: argparse.Namespace, site_ports: list[int], echo_ports: list[int],
              site_pids: list[int], echo_pids: list[int]) -> None:
    play_lat: list[float] = []
    echo_lat: list[float] = []
    plays, echoes = Gate(), Gate()
    ready = asyncio.Barrier(2 * args.players + 1)  # every socket open before the clock
    payload = json.dumps({"type": "move", "seq": 42, "move": "8a", "pad": "x" * 1500})
    # Each player sticks to one process, as behind a load balancer with affinity.
    tasks = [asyncio.create_task(play(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}",
                                      args.game, plays, ready, args.restart_after,
                                      play_lat, i, args.moves))
             for i, port in zip(range(args.players), itertools.cycle(site_ports),
                                strict=False)]
    tasks += [asyncio.create_task(echo(f"ws://127.0.0.1:{port}", echoes, ready, payload,
                                       echo_lat))
              for _, port in zip(range(args.players), itertools.cycle(echo_ports),
                                 strict=False)]
    await ready.wait()
    spent = {"play": 0.0, "echo": 0.0}
    server_cpu = {"play": 0.0, "echo": 0.0}
    others: dict[str, dict[str, float]] = {
        side: {"postgres": 0.0, "redis": 0.0, "client": 0.0} for side in spent}
    if args.warmup > 0:  # what a freshly started process does once, left out of the figures
        for gate, pids in ((plays, site_pids), (echoes, echo_pids)):
            await gate.window(args.warmup)
            await quiet(pids)
        play_lat.clear()
        echo_lat.clear()
    for _ in range(args.rounds):
        for side, gate, pids in (("play", plays, site_pids), ("echo", echoes, echo_pids)):
            cpu0, rest0 = sum(cpu_seconds(p) for p in pids), others_cpu_seconds()
            spent[side] += await gate.window(args.seconds / args.rounds)
            server_cpu[side] += sum(cpu_seconds(p) for p in pids) - cpu0
            rest = others_cpu_seconds()
            for k in rest:
                others[side][k] += rest[k] - rest0[k]
            await quiet(pids)
    plays.finish()
    echoes.finish()
    await asyncio.gather(*tasks)
    play_seconds, echo_seconds = spent["play"], spent["echo"]
    play_cpu, echo_cpu = server_cpu["play"], server_cpu["echo"]
    zero = {"postgres": 0.0, "redis": 0.0, "client": 0.0}
    print(f"\n{args.players} clients, {args.seconds:.0f} s each in {args.rounds} turn(s), "
          f"game {args.game}, "
          f"{args.moves} moves, {args.processes} server process(es) each side, "
          f"{verdicts[0]} verdict messages")
    moves = summary("validated + stored moves", play_lat, play_seconds)
    bare = summary("bare Daphne echo", echo_lat, echo_seconds)
    print(f"{'ratio moves/echo':28} {moves['rate'] / bare['rate']:10.1%}")
    print(f"server CPU per message: moves {play_cpu / max(1, len(play_lat)) * 1000:.2f} ms, "
          f"echo {echo_cpu / max(1, len(echo_lat)) * 1000:.2f} ms "
          f"(new deals over HTTP during the run included in the moves' figure)")
    print(f"the rest of the machine's CPU per message, ms: moves: "
          f"{_per(zero, others['play'], len(play_lat))}; echo: "
          f"{_per(zero, others['echo'], len(echo_lat))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--game", default="freecell")
    ap.add_argument("--restart-after", type=int, default=150)
    ap.add_argument("--warmup", type=float, default=3,
                    help="seconds of moves and of echo before the timing, not counted: a "
                         "new process imports, connects and makes its first full "
                         "collections then (default 3; 0 counts them)")
    ap.add_argument("--rounds", type=int, default=4,
                    help="windows in which the moves and the echo take turns, sharing the "
                         "machine's drift in speed (default 4; 1: the moves, then the echo)")
    ap.add_argument("--moves", choices=["table", "random"], default="table",
                    help="table: the table's moves before the stock; random: any legal move, "
                         "the stock included, as a person plays (default table)")
    ap.add_argument("--processes", type=int, default=1,
                    help="Daphne processes for the site, and as many for the echo (default 1)")
    ap.add_argument("--log", help="write the servers' output to this file")
    loop_options(ap)
    args = ap.parse_args()
    with servers(args.processes, args.log, args.site_loop, args.echo_loop) as (site_ports, echo_ports, site_pids, echo_pids):
        asyncio.run(run(args, site_ports, echo_ports, site_pids, echo_pids))


if __name__ == "__main__":
    main()
