"""`make run`: migrate, create today's deals, then serve with Daphne on 127.0.0.1:$PORT while
the coming days' deals are made in the background.

With DATABASE_URL and REDIS_URL set, a Celery worker, a worker for the day's close and beat
start beside Daphne.  One Ctrl-C (or the end of any one of them) stops them all.
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, check=True)


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def port_holder(port: int) -> str:
    """Who listens on ``port``: "pid 123 (python -m config.serve ...)", or how to find out
    when the process belongs to another user (the kernel hides its sockets' owners)."""
    import psutil

    try:
        found = [
            c.pid
            for c in psutil.net_connections(kind="tcp")
            if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port
        ]
    except psutil.AccessDenied:
        found = []
    for pid in found:
        if pid is None:
            continue
        try:
            command = " ".join(psutil.Process(pid).cmdline()) or psutil.Process(pid).name()
        except psutil.Error:
            command = "?"
        return f"pid {pid} ({command[:120]})"
    return f"a process of another user (`sudo ss -ltnp 'sport = :{port}'` names it)"


def check_port(port: int) -> str | None:
    """Why the server could not listen on 127.0.0.1:``port``, or None when it can.  Asked
    before anything starts, so a busy port is said first, not after the migrations."""
    with socket.socket() as s:
        # As Twisted binds a listening port, so a port left in TIME_WAIT by a server just
        # stopped counts as free, as it is for Daphne.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} is in use by {port_holder(port)}: stop it, or serve on "
                    f"another port: PORT={port + 1} make run"
                )
            return f"cannot listen on 127.0.0.1:{port}: {exc.strerror}"
    return None


def _port() -> int:
    raw = os.environ.get("PORT", "8000")
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise SystemExit(f"PORT must be a port number from 1 to 65535, not {raw!r}")
    return int(raw)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def raise_open_files() -> None:
    """Every socket is an open file: the soft limit (often 1,024) up to the hard one, for
    this process and so for the server it starts (bench/idle_sockets.py)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # past the kernel's own ceiling: keep what there is
            pass


def main() -> int:
    raise_open_files()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A local run: DEBUG on, so settings make (once) and keep a random secret pair for this
    # checkout in .local-secrets.json instead of refusing to start without them.
    os.environ.setdefault("DEBUG", "1")
    port = str(_port())
    busy = check_port(int(port))
    if busy is not None:
        print(f"==> {busy}", file=sys.stderr, flush=True)
        return 1
    redis = os.environ.get("REDIS_URL") or os.environ.get("REDIS_SENTINELS")
    services = bool(os.environ.get("DATABASE_URL") and redis)
    print("==> migrating the database", flush=True)
    manage("migrate", "--noinput", "-v", "0")
    print("==> creating today's daily deals", flush=True)
    manage("create_daily_deals", "--days", "1")

    commands = [
        [
            sys.executable,
            "-m",
            "config.serve",
            "-b",
            "127.0.0.1",
            "-p",
            port,
            "config.asgi:application",
        ]
    ]
    if services:
        # Beat's schedule file is its own state (settings: STATE_DIR), not a shared name.
        queue = os.environ.get("CELERY_QUEUE") or "solitaire"
        close = os.environ.get("CELERY_CLOSE_QUEUE") or f"{queue}-close"
        commands.append(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                queue,
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
            ]
        )
        # The day's close on a worker of its own (config/celery.py: its visibility timeout).
        commands.append(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                close,
                "-n",
                "close@%h",
                "--loglevel",
                "INFO",
                "--concurrency",
                "1",
            ]
        )
        # The post-game analyses on their own queue and worker: never ahead of scoring.
        analysis = os.environ.get("ANALYSIS_QUEUE") or f"{queue}-analysis"
        commands.append(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                analysis,
                "-n",
                "analyst@%h",
                "--loglevel",
                "INFO",
                "--concurrency",
                "1",
            ]
        )
        commands.append(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"]
        )
    else:
        print("    (no DATABASE_URL/REDIS_URL: SQLite, in-memory channels, tasks inline)")

    # A SIGTERM (from a supervisor or a test) stops everything the same way Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    children = [subprocess.Popen(cmd, cwd=ROOT) for cmd in commands]
    print(f"\n    Daily Solitaire is at http://127.0.0.1:{port}/   (Ctrl-C stops)\n", flush=True)
    # The solver certifies every deal, seconds each: the coming days' are made once the
    # site serves today's, at a lower priority than the server.
    ahead: subprocess.Popen[bytes] | None = None
    pending = True
    try:
        while all(child.poll() is None for child in children):
            if pending and _listening(int(port)):
                print("==> creating the coming days' deals in the background", flush=True)
                ahead = subprocess.Popen(
                    [sys.executable, "manage.py", "create_daily_deals"],
                    cwd=ROOT,
                    stdout=subprocess.DEVNULL,
                    preexec_fn=lambda: os.nice(10),
                )
                pending = False
            if ahead is not None and ahead.poll() is not None:
                done = "ready" if ahead.returncode == 0 else f"failed ({ahead.returncode})"
                print(f"==> the coming days' deals: {done}", flush=True)
                ahead = None
            time.sleep(0.5)
        failed = next(c for c in children if c.poll() is not None)
        name = " ".join(str(a) for a in list(failed.args)[2:4])  # type: ignore[arg-type]
        print(f"==> {name} stopped; stopping the rest", flush=True)
        return failed.returncode or 1
    except KeyboardInterrupt:
        print("\n==> stopping", flush=True)
        return 0
    finally:
        stop(children + ([ahead] if ahead is not None else []))


if __name__ == "__main__":
    sys.exit(main())
