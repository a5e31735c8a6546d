"""The processes a benchmark measures: the site and the bare echo started through
config/serve.py, their ports and database, and the CPU each process (and the services
beside them) spent, from /proc.  Shared by bench/server.py, api_client.py, http_cost.py,
idle_sockets.py and the other scripts that start the site."""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def wait_for(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server on port {port} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server on port {port} did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux), to show the server's cost per message."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU of a process and its children (granian serves from a worker process it starts;
    the site settles verdicts in a worker process of its own)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu_seconds(p)
        todo += children.get(p, [])
    return total


def others_cpu_seconds() -> dict[str, float]:
    """CPU of the services beside the servers (every PostgreSQL and Redis process) and of
    this client, for where a message's cost goes on a machine they all share."""
    out = {"postgres": 0.0, "redis": 0.0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name = stat.read_text().split("(", 1)[1].split(")", 1)[0]
        except (OSError, IndexError):
            continue
        kind = (
            "postgres"
            if name.startswith("postgres")
            else "redis"
            if name.startswith("redis")
            else None
        )
        if kind:
            out[kind] += cpu_seconds(int(stat.parent.name))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["client"] = usage.ru_utime + usage.ru_stime
    return out


def loop_options(ap: argparse.ArgumentParser) -> None:
    """The event loop of each side (config/serve.py), for this script and api_client.py."""
    ap.add_argument(
        "--site-loop",
        choices=["uvloop", "asyncio"],
        default="uvloop",
        help="the site's event loop (default uvloop, as production runs it)",
    )
    ap.add_argument(
        "--echo-loop",
        choices=["uvloop", "asyncio"],
        default="asyncio",
        help="the echo's event loop (default asyncio: a bare Daphne as it comes)",
    )


@contextlib.contextmanager
def servers(
    processes: int,
    log_path: str | None = None,
    site_loop: str = "uvloop",
    echo_loop: str = "asyncio",
    codes: Sequence[Path] = (),
) -> Iterator[tuple[list[int], list[int], list[int], list[int]]]:
    """The site's Daphne processes and as many bare echoes, started and stopped: their
    ports and pids (bench/api_client.py starts them the same way).  Each runs through
    config/serve.py on the event loop asked for: the site as production runs it (uvloop),
    the echo as Daphne comes (asyncio's own loop) unless told otherwise.  ``codes``: the
    site from each of these checkouts in turn (``processes`` each, in that order), on one
    database migrated by this checkout, to compare revisions of the code in one run."""
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_bench")
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "REDIS_KEY_PREFIX": "bench",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        # Every simulated player is a new guest from this one address.
        "RATE_LIMIT_GUESTS": "0",
        # A throwaway pair: the servers refuse to start on a public secret.
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DAILY_SECRET": os.environ.get("DAILY_SECRET") or secrets.token_urlsafe(50),
    }
    ensure_database(db)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    echo_ports = [free_port() for _ in range(processes)]
    log = open(log_path, "w") if log_path else subprocess.DEVNULL  # noqa: SIM115
    quiet = {"stdout": log, "stderr": log}

    def daphne(port: int, app: str, loop: str, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
        # From ``cwd``: ``-m`` puts it first on the path, so its code is the one imported.
        return subprocess.Popen(
            [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port), app],
            cwd=cwd,
            env={**env, "SERVE_LOOP": loop},
            **quiet,
        )

    dirs = list(codes) or [ROOT]
    site_ports = [free_port() for _ in range(processes * len(dirs))]
    sites = [
        daphne(port, "config.asgi:application", site_loop, dirs[i // processes])
        for i, port in enumerate(site_ports)
    ]
    echoes = [daphne(port, "bench.echo_app:application", echo_loop) for port in echo_ports]
    try:
        for port, proc in zip(site_ports + echo_ports, sites + echoes, strict=True):
            wait_for(port, proc)
        yield site_ports, echo_ports, [p.pid for p in sites], [p.pid for p in echoes]
    finally:
        for proc in sites + echoes:
            proc.terminate()
        for proc in sites + echoes:
            proc.wait(timeout=10)


@contextlib.contextmanager
def balancer(ports: list[int], name: str) -> Iterator[tuple[int, int]]:
    """HAProxy with the production configuration (deploy/haproxy.cfg) in front of ``ports``:
    its port and pid, once it counts every server up.  The servers are written into a copy of
    the file (the running ones come from Docker's DNS or ``make stack``'s runtime API)."""
    import shutil
    import tempfile

    sys.path.insert(0, str(ROOT))
    from scripts.balancer import Balancer, servers_up

    folder = Path(tempfile.mkdtemp(prefix=f"bench-lb-{name}-"))
    config = folder / "haproxy.cfg"
    config.write_text(
        (ROOT / "deploy/haproxy.cfg").read_text()
        + "".join(f"    server {name}{i} 127.0.0.1:{port}\n" for i, port in enumerate(ports))
    )
    port, stats = free_port(), free_port()
    lb = Balancer(port, stats, folder / "admin.sock")  # the stack's environment and command
    proc = subprocess.Popen(
        [*lb.command()[:-1], str(config)],
        env=lb.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(port, proc)
        deadline = time.monotonic() + 30
        while servers_up(stats) < len(ports):  # every server checked up (rise 2)
            if time.monotonic() > deadline:
                raise SystemExit(f"the {name} balancer did not count its servers up in 30 s")
            time.sleep(0.2)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
