"""The live race's cost: move latency of racers on one daily with the race watched and not,
in the same run.

Starts Daphne on PostgreSQL and Redis (the site), makes today's dailies, and has N guests
start the same ranked daily and play a legal move every --interval seconds over the play
socket (a person's pace, so the server is not saturated and the latency is the moves' own).
The run alternates phases, off-on then on-off: "off" (nobody watches the race) and "on"
(every racer also has a board socket with ?race=1 open, in a process of its own, receiving
the race once a second).  Prints the move
latency per phase, the ratio on/off, the race messages per second per watcher and board,
and checks every race message carries only progress fields.

    .venv/bin/python bench/race.py --players 200 --seconds 8

Environment as bench/server.py (DATABASE_URL, default .../solitaire_bench; REDIS_URL).
In both phases the play sockets note their progress (a dict write per move, one Redis
pipeline a second per process): "off" measures the race without anyone watching it.

Runs of 2026-12-01 (2 cores shared by the server, PostgreSQL, Redis, the racers' client,
the watchers' client and other work; 200 racers on the Klondike daily, a move a second
each, 2 x (10 s off, 10 s on); the race's sends in slots, 25 leaders a message, race
sockets sent the race only):

    load   race   moves  mean ms  p50 ms  p90 ms  p99 ms  server CPU (of a core)
    ~0.9   off     3998    4.11    2.80    4.96   39.53   30.7%
           on      4000    4.30    2.82    5.60   39.25   32.9%
           on/off         104.7%  100.7%  113.0%   99.3%  107.2%
    ~1.0   off     3997    6.05    3.78   10.74   41.72   34.7%
           on      3999    4.46    2.96    6.43   35.95   33.8%
           on/off          73.8%   78.3%   59.9%   86.2%   97.4%

Every run: one race message a second per watcher (median gap 1.00 s, the shortest as read
by the client 0.93-0.96 s; the server never sends one within a second), 3.4 KiB each, none
carrying anything but progress.  On a busier machine (load 2-5, a CI run beside it) the
ratios swing from 100% to several times that in either direction, the server's CPU staying
the same: the watchers' own process, reading 200 messages a second on the same two cores,
then takes the racers' turn.  Before the sends were spread in slots, the second's sends in
one burst doubled the p90 (204%) at the same CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

import websockets
from processes import cpu_seconds, ensure_database, free_port, wait_for
from server import HttpPlayer, answer_to, pick

ROOT = Path(__file__).resolve().parent.parent
FIELDS = {"player", "session", "cards_up", "moves", "elapsed_ms", "finished"}
CARD = re.compile(r"\b(?:10|[A2-9TJQK])[SHDC]\b")


class Run:
    def __init__(self) -> None:
        self.phase = "setup"
        self.stop = False
        self.latencies: dict[str, list[float]] = {}
        self.race_times: dict[int, list[float]] = {}  # watcher -> arrival times
        self.race_messages = 0
        self.bad_messages = 0
        self.race_sizes: list[int] = []
        self.heard = 0  # watchers that have had their first race message
        self.retries = 0  # board socket handshakes tried again
        self.cpu: dict[str, float] = {}  # the server's CPU seconds per phase kind
        self.wall: dict[str, float] = {}


async def racer(
    i: int,
    base: str,
    ws_base: str,
    game: str,
    interval: float,
    run: Run,
    ready: asyncio.Barrier,
    players: list[HttpPlayer],
) -> None:
    rng = random.Random(i)
    player = await asyncio.to_thread(HttpPlayer, base)
    players[i] = player
    session = await asyncio.to_thread(
        player.call, "POST", "/api/sessions/", {"game": game, "deal": "daily"}
    )
    assert session["ranked"], session
    headers = {"Cookie": player.cookie_header(), "Origin": base}
    async with websockets.connect(
        f"{ws_base}/ws/sessions/{session['id']}/", additional_headers=headers, max_size=None
    ) as ws:
        state = json.loads(await ws.recv())
        await ready.wait()
        await asyncio.sleep(rng.random() * interval)  # spread over the interval
        next_at = time.monotonic()
        while not run.stop:
            move = pick(state, rng, "random") if not state["won"] else None
            if move is None:
                await asyncio.sleep(interval)
                continue
            phase = run.phase
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": move}))
            answer = await answer_to(ws)
            if phase == run.phase:  # a move across a phase change is counted in neither
                run.latencies.setdefault(phase, []).append(time.perf_counter() - t0)
            if answer["type"] == "state":
                state = answer
            elif answer.get("error") == "stale_seq":
                state["seq"] = answer["seq"]
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))


async def watcher(
    i: int, player: HttpPlayer, base: str, ws_base: str, path: str, run: Run, until: asyncio.Event
) -> None:
    headers = {"Cookie": player.cookie_header(), "Origin": base}
    await asyncio.sleep(i * 0.01)  # not 200 handshakes at once (the listen backlog)
    for attempt in range(5):  # a handshake the loaded server drops is tried again
        try:
            ws = await websockets.connect(
                f"{ws_base}{path}?race=1", additional_headers=headers, max_size=None
            )
            break
        except (OSError, websockets.exceptions.InvalidMessage):
            run.retries += 1
            await asyncio.sleep(0.2 * (attempt + 1))
    else:
        return
    async with ws:
        while not until.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            msg = json.loads(text)
            if msg.get("type") != "race":
                continue
            if i not in run.race_times:
                run.heard += 1
            run.race_times.setdefault(i, []).append(time.monotonic())
            run.race_messages += 1
            run.race_sizes.append(len(text))
            if (
                set(msg) != {"type", "players"}
                or CARD.search(text)
                or any(set(p) != FIELDS for p in msg["players"])
            ):
                run.bad_messages += 1


async def watch_only(spec_path: str) -> None:
    """The watchers, in a process of their own (--watch): reading 200 race messages a second
    in the racers' process would delay their answers and be counted as the server's."""
    spec = json.loads(Path(spec_path).read_text())
    run, until = Run(), asyncio.Event()
    players = [HttpPlayer.__new__(HttpPlayer) for _ in spec["cookies"]]
    for p, cookie in zip(players, spec["cookies"], strict=True):
        p.cookie_header = lambda c=cookie: c  # type: ignore[method-assign]
    tasks = [
        asyncio.create_task(watcher(i, p, spec["base"], spec["ws_base"], spec["path"], run, until))
        for i, p in enumerate(players)
    ]
    deadline = time.monotonic() + 30
    while run.heard < len(players) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)  # "stop"
    until.set()
    await asyncio.gather(*tasks)
    print(
        json.dumps(
            {
                "times": list(run.race_times.values()),
                "messages": run.race_messages,
                "bad": run.bad_messages,
                "sizes": run.race_sizes,
                "retries": run.retries,
            }
        ),
        flush=True,
    )


def ms(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000 if s else float("nan")


async def main_async(args: argparse.Namespace, port: int, pid: int) -> None:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    run = Run()
    ready = asyncio.Barrier(args.players + 1)
    players: list[HttpPlayer] = [None] * args.players  # type: ignore[list-item]
    tasks = [
        asyncio.create_task(racer(i, base, ws_base, args.game, args.interval, run, ready, players))
        for i in range(args.players)
    ]
    await ready.wait()
    day = players[0].call("GET", "/api/daily/")["date"]
    path = f"/ws/leaderboards/{args.game}/{day}/"
    spec = str(Path(os.environ.get("TMPDIR", "/tmp")) / f"race-watchers-{os.getpid()}.json")
    Path(spec).write_text(
        json.dumps(
            {
                "base": base,
                "ws_base": ws_base,
                "path": path,
                "cookies": [p.cookie_header() for p in players],
            }
        )
    )
    await asyncio.sleep(args.interval + 1)  # every racer under way before the clock
    for k in range(args.rounds):
        # off, on, then on, off: a drift over the run (games ending, the machine's other
        # work) weighs on both alike
        for phase in ("off", "on") if k % 2 == 0 else ("on", "off"):
            child = None
            if phase == "on":
                # The sockets' opening (each is sent the board, as any board socket is) is
                # left out of the timed phase: it measures racing, not connecting.
                child = await asyncio.create_subprocess_exec(
                    sys.executable,
                    __file__,
                    "--watch",
                    spec,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    limit=1 << 24,
                )  # its report: one line
                assert child.stdout is not None
                assert child.stdin is not None
                assert (await child.stdout.readline()).strip() == b"ready"
                await asyncio.sleep(1)
            else:
                await asyncio.sleep(2)  # the last phase's sockets closed, the ticker stopped
            run.phase = f"{phase}{k}"
            cpu0, t0 = cpu_seconds(pid), time.monotonic()
            await asyncio.sleep(args.seconds)
            run.phase = "between"
            run.cpu[phase] = run.cpu.get(phase, 0.0) + cpu_seconds(pid) - cpu0
            run.wall[phase] = run.wall.get(phase, 0.0) + time.monotonic() - t0
            if child is not None:
                child.stdin.write(b"stop\n")  # type: ignore[union-attr]
                heard = json.loads(await child.stdout.readline())  # type: ignore[union-attr]
                await child.wait()
                for t in heard["times"]:
                    run.race_times[len(run.race_times)] = t
                run.race_messages += heard["messages"]
                run.bad_messages += heard["bad"]
                run.race_sizes += heard["sizes"]
                run.retries += heard["retries"]
    run.stop = True
    await asyncio.gather(*tasks)
    Path(spec).unlink()

    def merged(phase: str) -> list[float]:
        return [x for k in range(args.rounds) for x in run.latencies.get(f"{phase}{k}", [])]

    off, on = merged("off"), merged("on")
    for name in sorted(run.latencies):
        lat = run.latencies[name]
        if name[:2] in ("of", "on"):
            print(
                f"  phase {name:6} {len(lat):6} moves, mean {statistics.fmean(lat) * 1000:6.2f} "
                f"ms, p50 {ms(lat, 0.5):6.2f} ms"
            )
    print(
        f"\n{args.players} racers on the {args.game} daily of {day}, a move every "
        f"{args.interval:g} s each, {args.rounds} x ({args.seconds:g} s off, "
        f"{args.seconds:g} s on)\n"
    )
    cpu = {k: run.cpu[k] / run.wall[k] for k in run.cpu}  # of one core
    print(
        f"{'race':6} {'moves':>7} {'mean ms':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
        f"{'server CPU':>11}"
    )
    for name, lat in (("off", off), ("on", on)):
        print(
            f"{name:6} {len(lat):7} {statistics.fmean(lat) * 1000:9.2f} {ms(lat, 0.5):8.2f} "
            f"{ms(lat, 0.9):8.2f} {ms(lat, 0.99):8.2f} {cpu[name]:11.1%}"
        )
    print(
        f"{'on/off':6} {'':7} {statistics.fmean(on) / statistics.fmean(off):9.1%} "
        f"{ms(on, 0.5) / ms(off, 0.5):8.1%} {ms(on, 0.9) / ms(off, 0.9):8.1%} "
        f"{ms(on, 0.99) / ms(off, 0.99):8.1%} {cpu['on'] / cpu['off']:11.1%}"
    )
    gaps = [
        b - a for times in run.race_times.values() for a, b in zip(times, times[1:], strict=False)
    ]
    rates = [(len(t) - 1) / (t[-1] - t[0]) for t in run.race_times.values() if len(t) > 1]
    print(
        f"\nrace messages: {run.race_messages} to {len(run.race_times)} watchers, "
        f"{max(rates):.2f}/s per watcher at most (one board), shortest gap "
        f"{min(gaps):.3f} s, median {statistics.median(gaps):.3f} s, "
        f"{statistics.fmean(run.race_sizes) / 1024:.1f} KiB each; "
        f"{run.bad_messages} carried anything but progress; {run.retries} handshakes "
        "tried again"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=8, help="length of each phase")
    ap.add_argument("--rounds", type=int, default=2, help="off/on pairs (default 2)")
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between a racer's moves")
    ap.add_argument(
        "--game",
        default="klondike",
        help="default klondike: the stock keeps every racer moving to the end",
    )
    ap.add_argument("--log", help="write the server's output to this file")
    ap.add_argument("--watch", help=argparse.SUPPRESS)  # the watchers' own process
    args = ap.parse_args()
    if args.watch:
        asyncio.run(watch_only(args.watch))
        return
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": "bench",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMIT_GUESTS": "0",
        "SOLVER_BUDGET_SECONDS": "2",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DAILY_SECRET": os.environ.get("DAILY_SECRET", "bench-race-daily-secret-" + "x" * 40),
    }
    ensure_database(db)
    import redis  # an earlier run's racers, still in its race until they went stale

    r = redis.Redis.from_url(env["REDIS_URL"])
    for key in r.scan_iter("bench:race:*"):
        r.delete(key)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    subprocess.run(
        [sys.executable, "manage.py", "create_daily_deals", "--days", "1"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = free_port()
    log = open(args.log, "w") if args.log else subprocess.DEVNULL  # noqa: SIM115
    site = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "config.serve",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    try:
        wait_for(port, site)
        asyncio.run(main_async(args, port, site.pid))
    finally:
        site.terminate()
        site.wait(timeout=10)


if __name__ == "__main__":
    main()
