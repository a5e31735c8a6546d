"""What players see when a web process dies or is restarted behind the balancer.

    .venv/bin/python bench/failover.py [--scenario kill,rolling] [--seconds 20] [--rate 5]
    .venv/bin/python bench/failover.py --code /path/to/an/older/checkout --config old.cfg --old-client

A private PostgreSQL and Redis (tests/reliability/stack.py), ``--web`` Daphne processes of
the checkout ``--code`` (this one by default), HAProxy on ``--config`` (deploy/haproxy.cfg by
default; a configuration without the runtime API, as before it, is rewritten for 127.0.0.1
with one ``server`` line a process), then per scenario, for ``--seconds``: GETs through the
balancer at ``--rate`` a second, and ``--players`` play sockets through it, each playing a
FreeCell solution (a move every 0.3 s) and reconnecting as the page does
(``--old-client``: the fixed 0.5, 1, 2, 4, 8 s steps the page had before; otherwise
socket.js's jittered waits).

- ``kill``: ``kill -9`` of the first web process a few seconds in; it is started again
  after 3 s.
- ``rolling``: SIGTERM of each web process in turn, each started again once it has exited,
  the next one stopped once the new one answers and 2 s more (the balancer's rise).

Printed per scenario: requests sent and failed (5xx or no answer), the longest a socket that
was cut took to greet again after its process was stopped, and whether every socket's stored
moves are exactly the moves it was answered for (nothing lost or doubled).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from balancer import Balancer  # noqa: E402  (scripts/balancer.py)

from tests.reliability.stack import (  # noqa: E402
    Browser,
    PrivatePostgres,
    PrivateRedis,
    collected_static,
    fc_solution,
    free_port,
    migrate,
    site_env,
    stored_session,
    wait_port,
)
from tests.reliability.traffic import PlaySocket, Requests  # noqa: E402


def localized(text: str, port: int, servers: list[int]) -> str:
    """A configuration written for Docker's DNS, on 127.0.0.1 with these servers."""
    text = re.sub(r"^resolvers docker\n(?:[ \t]+.*\n)*", "", text, flags=re.MULTILINE)
    text = re.sub(r"^\s*maxconn \d+\n", "", text, count=1, flags=re.MULTILINE)
    text = re.sub(r"bind :8000", f"bind 127.0.0.1:{port}", text)
    text = re.sub(r"\s(resolvers docker|init-addr none)", "", text)
    lines = "".join(f"    server web{i + 1} 127.0.0.1:{p}\n" for i, p in enumerate(servers))
    return re.sub(r"^\s*server-template .*\n", lines, text, flags=re.MULTILINE)


class Web:
    def __init__(self, code: Path, env: dict[str, str], port: int, log: Path) -> None:
        self.code, self.env, self.port, self.log = code, env, port, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        out = open(self.log, "ab")  # noqa: SIM115 - the child's
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "--proxy-headers",
                "config.asgi:application",
            ],
            cwd=self.code,
            env=self.env,
            stdout=out,
            stderr=out,
        )
        wait_port(self.port, self.proc)


def scenario(name: str, args: Any, webs: list[Web], lb_port: int, db_url: str) -> dict[str, Any]:
    base = f"http://127.0.0.1:{lb_port}"
    browsers = [Browser(base) for _ in range(args.players)]
    players = []
    for i, b in enumerate(browsers):
        session = b.start("freecell", 1000 + i)
        players.append(
            PlaySocket(
                f"ws://127.0.0.1:{lb_port}",
                base,
                b.cookie_header(),
                session,
                fc_solution(1000 + i),
                jitter=not args.old_client,
            )
        )
    load = Requests(base, rate=args.rate)
    stops: list[float] = []

    async def operate() -> None:
        await asyncio.sleep(min(4.0, args.seconds / 5))
        if name == "kill":
            stops.append(time.monotonic())
            webs[0].proc.send_signal(signal.SIGKILL)  # type: ignore[union-attr]
            await asyncio.to_thread(webs[0].proc.wait)  # type: ignore[union-attr]
            await asyncio.sleep(3)
            await asyncio.to_thread(webs[0].start)
        else:
            for web in webs:
                stops.append(time.monotonic())
                web.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
                await asyncio.to_thread(web.proc.wait, 30)  # type: ignore[union-attr]
                await asyncio.to_thread(web.start)
                await asyncio.sleep(2.0)

    async def run() -> None:
        load.start()
        tasks = [asyncio.create_task(p.run()) for p in players]
        started = time.monotonic()
        await operate()
        await asyncio.sleep(max(0.0, args.seconds - (time.monotonic() - started)))
        load.stop()
        for p in players:
            p.stopping = True
        await asyncio.wait_for(asyncio.gather(*tasks), 30)

    asyncio.run(run())
    back = [b for p in players for b in p.returns(stops)]
    intact = all(
        stored_session(db_url, p.url.rsplit("/", 2)[-2])["tokens"] == p.acknowledged
        and not [e for e in p.errors if e[0] != "connect"]
        for p in players
    )
    return {
        "requests": len(load.outcomes),
        "failed": len(load.failed()),
        "statuses": sorted({str(o[2]) for o in load.failed()}),
        "back": max(back) if back else None,
        "cuts": len(back),
        "intact": intact,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="kill,rolling")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--rate", type=float, default=5)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--web", type=int, default=2)
    ap.add_argument("--code", type=Path, default=ROOT)
    ap.add_argument("--config", type=Path, default=ROOT / "deploy" / "haproxy.cfg")
    ap.add_argument("--old-client", action="store_true")
    args = ap.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="failover-"))
    print(f"logs in {logs}; load average {os.getloadavg()[0]:.2f}", flush=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    webs: list[Web] = []
    lb: subprocess.Popen[bytes] | None = None
    rows = []
    try:
        pg.start()
        pg.create_database()
        rd.start()
        env = site_env(
            pg.url,
            rd.url,
            STATIC_ROOT=str(collected_static()),
            LOG_LEVEL="INFO",
            RATE_LIMIT_MOVES="100000",
            RATE_LIMIT_GUESTS="100000",
        )
        env.pop("PYTHONPATH", None)
        migrate(env)
        lb_port = free_port()
        webs = [Web(args.code, env, free_port(), logs / f"web{i + 1}.log") for i in range(args.web)]
        for web in webs:
            web.start()
        text = args.config.read_text()
        out = open(logs / "lb.log", "ab")  # noqa: SIM115
        if "LB_ADMIN_SOCKET" in text:
            balancer = Balancer(lb_port, free_port(), logs / "haproxy.sock")
            lb = subprocess.Popen(
                [*balancer.command()[:2], str(args.config)],
                env=balancer.env,
                stdout=out,
                stderr=out,
            )
            for i, web in enumerate(webs):
                balancer.add(f"web{i + 1}", web.port)
        else:
            cfg = logs / "haproxy.cfg"
            cfg.write_text(localized(text, lb_port, [w.port for w in webs]))
            lb = subprocess.Popen(["haproxy", "-f", str(cfg)], stdout=out, stderr=out)
        wait_port(lb_port, lb)
        time.sleep(2.5)  # every server checked up
        for name in args.scenario.split(","):
            print(
                f"==> {name}: {args.seconds:.0f} s, {args.rate:g} requests/s, "
                f"{args.players} play sockets",
                flush=True,
            )
            result = scenario(name, args, webs, lb_port, pg.url)
            rows.append((name, result, os.getloadavg()[0]))
            time.sleep(3)
    finally:
        for web in webs:
            if web.proc is not None and web.proc.poll() is None:
                web.proc.kill()
        if lb is not None:
            lb.kill()
        rd.close()
        pg.close()
    print(
        f"\n{'scenario':10} {'requests':>8} {'failed':>7}  {'sockets cut':>11} "
        f"{'back within':>11}  {'moves intact':>12}  load"
    )
    for name, r, load in rows:
        back = "-" if r["back"] is None else f"{r['back']:.2f} s"
        print(
            f"{name:10} {r['requests']:8d} {r['failed']:7d}  {r['cuts']:11d} {back:>11}  "
            f"{'yes' if r['intact'] else 'NO':>12}  {load:.2f}"
            + (f"  ({', '.join(r['statuses'])})" if r["statuses"] else "")
        )


if __name__ == "__main__":
    main()
