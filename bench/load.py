"""Load: N concurrent websocket players playing real games, then an integrity check.

Starts Daphne (``--servers`` processes, players spread over them) on PostgreSQL and Redis,
gives every player a browser session and a deal over HTTP, then has each play legal moves
over its websocket (a think time between moves, as people do) for ``--seconds``.  A player
whose game is won or stuck starts another deal.  Prints moves/s, round-trip latency
p50/p99 and errors; then reads PostgreSQL and checks that every acknowledged move is stored
exactly once, in order, and that every session replays with the engine to its stored score.

    .venv/bin/python bench/load.py                      # 1000 players, 120 s
    .venv/bin/python bench/load.py --players 200 --seconds 30 --think 0.5

Bounded on purpose: loopback only (127.0.0.1, no host option), at most 2000 players and
900 seconds, and the whole run is cancelled if it overruns its time by a minute.
By default it starts a private PostgreSQL cluster (as the postgres user, max_connections
400) and a private Redis on free ports and removes them afterwards; ``--shared`` uses
DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_load, created if
missing) and REDIS_URL (default redis://127.0.0.1:6379/0) instead.  Exit status 1 when any
acknowledged move is missing or stored twice, or a session does not replay to its score.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.processes import ensure_database, free_port, wait_for  # noqa: E402
from bench.server import HttpPlayer  # noqa: E402
from games.engine import replay  # noqa: E402

MAX_PLAYERS, MAX_SECONDS = 2000, 900


@dataclass
class Played:
    session: str
    game: str
    acked: list[str] = field(default_factory=list)  # acknowledged moves, in seq order


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    sessions: list[Played] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def pick(state: dict, rng: random.Random) -> str | None:
    moves = state["legal_moves"]
    if not moves:
        return None
    ups = [m for m in moves if m["to"].startswith("foundation")]
    table = [m for m in moves if "stock" not in (m["from"], m["to"])]
    if ups and rng.random() < 0.6:
        return rng.choice(ups)["move"]
    return rng.choice(table if table and rng.random() < 0.7 else moves)["move"]


async def player(
    i: int,
    bases: list[str],
    games: list[str],
    stop: float,
    think: float,
    max_moves: int,
    totals: Totals,
    pool: ThreadPoolExecutor,
) -> None:
    rng = random.Random(i)
    base = bases[i % len(bases)]
    loop = asyncio.get_running_loop()
    try:
        browser = await loop.run_in_executor(pool, HttpPlayer, base)
    except Exception:  # noqa: BLE001
        totals.error("setup")
        return
    ws_base = base.replace("http://", "ws://")
    await asyncio.sleep(rng.random() * think)  # players do not all start on the same tick
    while time.monotonic() < stop:
        game = rng.choice(games)
        try:
            session = await loop.run_in_executor(pool, browser.new_session, game)
        except Exception:  # noqa: BLE001
            totals.error("new session")
            await asyncio.sleep(1)
            continue
        played = Played(session["id"], game)
        totals.sessions.append(played)
        headers = {"Cookie": browser.cookie_header(), "Origin": base}
        try:
            async with websockets.connect(
                f"{ws_base}/ws/sessions/{session['id']}/",
                additional_headers=headers,
                max_size=None,
                open_timeout=60,
                ping_timeout=None,
            ) as ws:
                state = json.loads(await ws.recv())
                while time.monotonic() < stop and not state["won"] and state["seq"] < max_moves:
                    move = pick(state, rng)
                    if move is None:
                        break
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": move}))
                    answer = json.loads(await ws.recv())
                    totals.latencies.append(time.perf_counter() - t0)
                    if answer.get("type") != "state":
                        totals.error(answer.get("error", "error"))
                        break
                    played.acked.append(move)
                    if answer["seq"] != len(played.acked):
                        totals.error("seq out of step")
                    state = answer
                    await asyncio.sleep(think * (0.5 + rng.random()))
        except (TimeoutError, OSError, websockets.WebSocketException):
            totals.error("connection")
            await asyncio.sleep(1)


def time_bonus(game: str, time_ms: int | None) -> int:
    # docs/rules.md, Scores: only Baker's Dozen adds a time bonus; games.play.outcome.time_bonus is the same.
    return max(0, 1200 - int((time_ms or 0) / 1000)) if game == "bakers-dozen" else 0


def verify(db_url: str, sessions: list[Played]) -> dict[str, int]:
    import psycopg

    out = {"sessions": 0, "acked": 0, "stored": 0, "lost": 0, "extra": 0, "bad_replay": 0}
    by_id = {p.session: p for p in sessions}
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT s.id::text, s.moves, s.seq, s.score, s.cards_up, s.status, s.time_ms, "
            "s.game, d.seed FROM games_gamesession s JOIN games_deal d ON d.id = s.deal_id "
            "WHERE s.id = ANY(%s::uuid[])",
            (list(by_id),),
        ).fetchall()
        move_rows: dict[str, dict[int, str]] = {}
        for sid, i, token in conn.execute(
            "SELECT session_id::text, seq, token FROM games_move "
            "WHERE session_id = ANY(%s::uuid[])",
            (list(by_id),),
        ).fetchall():
            move_rows.setdefault(sid, {})[i] = token
    for sid, moves, seq, score, cards_up, status, time_ms, game, seed in rows:
        p = by_id.pop(sid)
        # A move's row, else the legacy list's entry (games/play/moves.py).
        mine = move_rows.get(sid, {})
        stored = [
            mine[i] if i in mine else moves[i][0] for i in range(seq) if i in mine or i < len(moves)
        ]
        out["sessions"] += 1
        out["acked"] += len(p.acked)
        out["stored"] += len(stored)
        common = 0
        while common < min(len(stored), len(p.acked)) and stored[common] == p.acked[common]:
            common += 1
        out["lost"] += len(p.acked) - common
        out["extra"] += len(stored) - common
        try:
            g = replay(game, int(seed), stored)
            want = (
                None
                if not g.has_score
                else g.score + (time_bonus(game, time_ms) if status == "won" else 0)
            )
            if seq != len(stored) or cards_up != g.cards_up or score != want:
                out["bad_replay"] += 1
        except Exception:  # noqa: BLE001 - an illegal stored move
            out["bad_replay"] += 1
    for p in by_id.values():  # sessions the server never stored
        out["lost"] += len(p.acked)
    return out


def percentile(lat: list[float], q: float) -> float:
    if not lat:
        return float("nan")
    s = sorted(lat)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


async def run(args: argparse.Namespace, bases: list[str]) -> Totals:
    totals = Totals()
    stop = time.monotonic() + args.seconds
    with ThreadPoolExecutor(max_workers=32) as pool:
        tasks = [
            player(i, bases, args.games, stop, args.think, args.max_moves, totals, pool)
            for i in range(args.players)
        ]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), args.seconds + 60)
        except TimeoutError:
            totals.error("overran")
    return totals


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    ap.add_argument("--servers", type=int, default=2, help="Daphne processes")
    ap.add_argument("--games", default="klondike,freecell,bakers-dozen,whitehorse")
    ap.add_argument("--max-moves", type=int, default=300, help="moves before a new deal")
    ap.add_argument("--log", help="write the servers' output to this file")
    ap.add_argument(
        "--shared",
        action="store_true",
        help="use DATABASE_URL / REDIS_URL instead of a private PostgreSQL and Redis",
    )
    args = ap.parse_args()
    args.games = args.games.split(",")
    if not 1 <= args.players <= MAX_PLAYERS or not 1 <= args.seconds <= MAX_SECONDS:
        raise SystemExit(f"--players 1..{MAX_PLAYERS}, --seconds 1..{MAX_SECONDS}")
    private = []
    if args.shared:
        db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_load")
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        ensure_database(db)
    else:
        # A private PostgreSQL and Redis: the load cannot starve anyone else's connections.
        from tests.reliability.stack import PrivatePostgres, PrivateRedis

        pg, rd = PrivatePostgres(), PrivateRedis()
        private = [rd, pg]
        pg.start("-c max_connections=400 -c synchronous_commit=on")
        pg.create_database()
        rd.start()
        db, redis_url = pg.url, rd.url
    try:
        return _main(args, db, redis_url)
    finally:
        for service in private:
            service.close()


def _main(args: argparse.Namespace, db: str, redis_url: str) -> int:
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": "load",
        "CELERY_QUEUE": "load",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "DAILY_CERTIFY_ON_DEMAND": "0",
        # Every simulated player is a new guest from this one address.
        "RATE_LIMIT_GUESTS": "0",
        # A throwaway pair: the servers refuse to start on a public secret.
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DAILY_SECRET": os.environ.get("DAILY_SECRET") or secrets.token_urlsafe(50),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    log = open(args.log, "w") if args.log else subprocess.DEVNULL  # noqa: SIM115
    ports = [free_port() for _ in range(args.servers)]
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(p),
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )
        for p in ports
    ]
    try:
        for p, s in zip(ports, servers, strict=True):
            wait_for(p, s)
        started = time.monotonic()
        totals = asyncio.run(run(args, [f"http://127.0.0.1:{p}" for p in ports]))
        elapsed = time.monotonic() - started
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            try:
                s.wait(timeout=15)
            except subprocess.TimeoutExpired:
                s.kill()
    lat = totals.latencies
    print(
        f"\n{args.players} websocket players on {args.servers} Daphne processes, "
        f"{args.seconds:.0f} s, think {args.think:.1f} s, games {', '.join(args.games)}"
    )
    print(
        f"acknowledged moves   {len(lat):10d}   ({len(lat) / elapsed:.0f} moves/s over "
        f"{elapsed:.0f} s including setup)"
    )
    print(
        f"round trip           p50 {percentile(lat, 0.5):8.1f} ms   "
        f"p99 {percentile(lat, 0.99):8.1f} ms   max {percentile(lat, 1.0):8.1f} ms"
    )
    print(f"errors               {sum(totals.errors.values())}  {totals.errors or ''}")
    check = verify(db, totals.sessions)
    print(
        f"verified in PostgreSQL: {check['sessions']} sessions, {check['acked']} acknowledged "
        f"moves, {check['stored']} stored; lost {check['lost']}, stored but not acknowledged "
        f"{check['extra']}, sessions not replaying to their score {check['bad_replay']}"
    )
    ok = check["lost"] == 0 and check["extra"] == 0 and check["bad_replay"] == 0
    print("integrity: OK" if ok else "integrity: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
