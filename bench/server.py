"""Websocket play throughput against a bare Daphne echo, measured in the same run.

Starts Daphne on PostgreSQL and Redis (the site) and a second Daphne with a bare echo
consumer, opens N websocket players that each play legal moves taken from ``legal_moves`` as
fast as the server answers, then N echo clients sending messages of the same size.  Prints
moves (or echoes) per second and round-trip latency p50/p99, and the ratio.

    .venv/bin/python bench/server.py --players 50 --seconds 15
    .venv/bin/python bench/server.py --code ../main --code .   # two revisions, one run

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_bench, created
if missing), REDIS_URL (default redis://127.0.0.1:6379/0).  A player whose game reaches
--restart-after moves (or ends) starts a new deal over HTTP, outside the timed moves (its
server CPU is counted with the moves).  ``--processes N`` runs N site and N echo processes,
each player sticking to one; ``--balancer`` puts each side's processes behind its own HAProxy
(deploy/haproxy.cfg), as production runs them.

Results: bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import (  # noqa: E402
    balancer,
    cpu_seconds,
    loop_options,
    others_cpu_seconds,
    servers,
    tree_cpu_seconds,
)
from socket_clients import Gate, echo, play, verdicts  # noqa: E402


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
    row = {
        "rate": len(lat) / seconds,
        "p50": p(0.50),
        "p99": p(0.99),
        "mean": statistics.fmean(lat) * 1000 if lat else 0.0,
    }
    print(f"{name:28} {row['rate']:10.0f}/s   p50 {row['p50']:7.2f} ms   p99 {row['p99']:7.2f} ms")
    return row


class Side:
    """One server under test (the site from one checkout, or the echo): its clients' gate,
    their round trips, and what its windows took."""

    def __init__(self, name: str, ports: list[int], pids: list[int]) -> None:
        self.name, self.ports, self.pids, self.gate = name, ports, pids, Gate()
        self.latencies: list[float] = []
        self.seconds = self.cpu = 0.0
        self.others = {"postgres": 0.0, "redis": 0.0, "client": 0.0}


async def run(
    args: argparse.Namespace,
    site_groups: list[tuple[list[int], list[int]]],
    echo_ports: list[int],
    echo_pids: list[int],
) -> None:
    """``site_groups``: each checkout's site, its ports (what the players connect to) and
    the pids whose CPU is its own."""
    codes = args.code or ["."]
    sites = [
        Side("validated + stored moves" if len(codes) == 1 else f"moves, {code}", ports, pids)
        for code, (ports, pids) in zip(codes, site_groups, strict=True)
    ]
    bare = Side("bare Daphne echo", echo_ports, echo_pids)
    sides = [*sites, bare]
    ready = asyncio.Barrier(len(sides) * args.players + 1)  # every socket open before the clock
    payload = json.dumps({"type": "move", "seq": 42, "move": "8a", "pad": "x" * 1500})
    # Each player sticks to one process, as behind a load balancer with affinity; each
    # checkout's players play the same deals (the same seeds).
    tasks = [
        asyncio.create_task(
            play(
                f"http://127.0.0.1:{port}",
                f"ws://127.0.0.1:{port}",
                args.game,
                site.gate,
                ready,
                args.restart_after,
                site.latencies,
                i,
                args.moves,
            )
        )
        for site in sites
        for i, port in zip(range(args.players), itertools.cycle(site.ports), strict=False)
    ]
    tasks += [
        asyncio.create_task(
            echo(f"ws://127.0.0.1:{port}", bare.gate, ready, payload, bare.latencies)
        )
        for _, port in zip(range(args.players), itertools.cycle(echo_ports), strict=False)
    ]
    await ready.wait()
    if args.warmup > 0:  # what a freshly started process does once, left out of the figures
        for side in sides:
            await side.gate.window(args.warmup)
            await quiet(side.pids)
            side.latencies.clear()
    for r in range(args.rounds):
        # Checkouts take turns in a different order each round: none always goes first.
        order = [*sites[r % len(sites) :], *sites[: r % len(sites)], bare]
        for side in order:
            cpu0, rest0 = sum(cpu_seconds(p) for p in side.pids), others_cpu_seconds()
            side.seconds += await side.gate.window(args.seconds / args.rounds)
            side.cpu += sum(cpu_seconds(p) for p in side.pids) - cpu0
            rest = others_cpu_seconds()
            for k in rest:
                side.others[k] += rest[k] - rest0[k]
            await quiet(side.pids)
    for side in sides:
        side.gate.finish()
    await asyncio.gather(*tasks)
    zero = {"postgres": 0.0, "redis": 0.0, "client": 0.0}
    print(
        f"\n{args.players} clients, {args.seconds:.0f} s each in {args.rounds} turn(s), "
        f"game {args.game}, "
        f"{args.moves} moves, {args.processes} server process(es) each side"
        f"{' behind HAProxy' if args.balancer else ''}, "
        f"{verdicts[0]} verdict messages"
    )
    rows = {side.name: summary(side.name, side.latencies, side.seconds) for side in sides}
    echo_rate = rows[bare.name]["rate"]
    first = rows[sites[0].name]["rate"]
    for site, code in zip(sites, codes, strict=True):
        rate = rows[site.name]["rate"]
        label = "ratio moves/echo" + ("" if len(sites) == 1 else f", {code}")
        against = "" if site is sites[0] else f"   {rate / first:7.1%} of {codes[0]}'s moves/s"
        print(f"{label:28} {rate / echo_rate:10.1%}{against}")
    for side in sides:
        print(
            f"{side.name}: server CPU per message "
            f"{side.cpu / max(1, len(side.latencies)) * 1000:.2f} ms; the rest of the "
            f"machine's, ms: {_per(zero, side.others, len(side.latencies))}"
        )
    print("(new deals over HTTP during the run are included in the moves' figures)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--game", default="freecell")
    ap.add_argument("--restart-after", type=int, default=150)
    ap.add_argument(
        "--warmup",
        type=float,
        default=3,
        help="seconds of moves and of echo before the timing, not counted: a "
        "new process imports, connects and makes its first full "
        "collections then (default 3; 0 counts them)",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="windows in which the moves and the echo take turns, sharing the "
        "machine's drift in speed (default 4; 1: the moves, then the echo)",
    )
    ap.add_argument(
        "--moves",
        choices=["table", "random"],
        default="table",
        help="table: the table's moves before the stock; random: any legal move, "
        "the stock included, as a person plays (default table)",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="Daphne processes for the site, and as many for the echo (default 1)",
    )
    ap.add_argument(
        "--balancer",
        action="store_true",
        help="the production shape: each side's processes behind its own HAProxy "
        "(deploy/haproxy.cfg), the clients connecting to the balancer; the "
        "balancer's CPU is counted with its side's",
    )
    ap.add_argument("--log", help="write the servers' output to this file")
    ap.add_argument(
        "--code",
        action="append",
        metavar="DIR",
        help="the site from this checkout (a directory: a worktree of another "
        "revision); given more than once, each is measured in turn in the "
        "same run, on the same deals, against the same echo (default: this "
        "checkout)",
    )
    loop_options(ap)
    args = ap.parse_args()
    codes = [Path(c).resolve() for c in args.code or []]
    for code in codes:
        if not (code / "config" / "serve.py").is_file():
            raise SystemExit(f"--code {code}: not a checkout of this site")
    with servers(args.processes, args.log, args.site_loop, args.echo_loop, codes) as (
        site_ports,
        echo_ports,
        site_pids,
        echo_pids,
    ):
        n = args.processes
        groups = [
            (site_ports[i : i + n], site_pids[i : i + n]) for i in range(0, len(site_ports), n)
        ]
        if not args.balancer:
            asyncio.run(run(args, groups, echo_ports, echo_pids))
            return
        with contextlib.ExitStack() as stack:  # a balancer for each checkout's site
            fronted = []
            for i, (ports, pids) in enumerate(groups):
                lb, lb_pid = stack.enter_context(balancer(ports, f"site{i}"))
                fronted.append(([lb], [*pids, lb_pid]))
            echo_lb, echo_lb_pid = stack.enter_context(balancer(echo_ports, "echo"))
            asyncio.run(run(args, fronted, [echo_lb], [*echo_pids, echo_lb_pid]))


if __name__ == "__main__":
    main()
