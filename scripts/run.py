"""`make run`: migrate, create today's deals, then serve with Daphne on 127.0.0.1:$PORT while
the coming days' deals are made in the background.

With DATABASE_URL and REDIS_URL set, a Celery worker and beat start beside Daphne.  One
Ctrl-C (or the end of any one of them) stops them all.
"""

from __future__ import annotations

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
    port = os.environ.get("PORT", "8000")
    services = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    print("==> migrating the database", flush=True)
    manage("migrate", "--noinput", "-v", "0")
    print("==> creating today's daily deals", flush=True)
    manage("create_daily_deals", "--days", "1")

    commands = [[sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", port,
                 "config.asgi:application"]]
    if services:
        from django.conf import settings  # the queues' names, as every process reads them

        # Beat's schedule file is its own state (settings: STATE_DIR), not a shared name.
        commands.append([sys.executable, "-m", "celery", "-A", "config", "worker",
                         "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "--loglevel", "INFO",
                         "--concurrency", "2"])
        # The post-game analyses on their own queue and worker: never ahead of scoring.
        commands.append([sys.executable, "-m", "celery", "-A", "config", "worker",
                         "-Q", settings.ANALYSIS_QUEUE, "-n", "analyst@%h", "--loglevel",
                         "INFO", "--concurrency", "1"])
        commands.append([sys.executable, "-m", "celery", "-A", "config", "beat",
                         "--loglevel", "INFO"])
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
                ahead = subprocess.Popen([sys.executable, "manage.py", "create_daily_deals"],
                                         cwd=ROOT, stdout=subprocess.DEVNULL,
                                         preexec_fn=lambda: os.nice(10))
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
