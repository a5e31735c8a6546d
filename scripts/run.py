"""`make run`: migrate, create today's deals, then serve with Daphne on 127.0.0.1:$PORT.

With DATABASE_URL and REDIS_URL set, a Celery worker and beat start beside Daphne.  One
Ctrl-C (or the end of any one of them) stops them all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
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


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A local run: DEBUG on, so settings make (once) and keep a random secret pair for this
    # checkout in .local-secrets.json instead of refusing to start without them.
    os.environ.setdefault("DEBUG", "1")
    port = os.environ.get("PORT", "8000")
    services = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    print("==> migrating the database", flush=True)
    manage("migrate", "--noinput", "-v", "0")
    print("==> creating today's daily deals", flush=True)
    manage("create_daily_deals", "--days", "1")  # later days: the scheduled task

    commands = [[sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", port,
                 "config.asgi:application"]]
    if services:
        schedule = Path(tempfile.gettempdir()) / "solitaire-celerybeat-schedule"
        commands.append([sys.executable, "-m", "celery", "-A", "config", "worker",
                         "--loglevel", "INFO", "--concurrency", "2"])
        commands.append([sys.executable, "-m", "celery", "-A", "config", "beat",
                         "--loglevel", "INFO", "--schedule", str(schedule)])
    else:
        print("    (no DATABASE_URL/REDIS_URL: SQLite, in-memory channels, tasks inline)")

    # A SIGTERM (from a supervisor or a test) stops everything the same way Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    children = [subprocess.Popen(cmd, cwd=ROOT) for cmd in commands]
    print(f"\n    Daily Solitaire is at http://127.0.0.1:{port}/   (Ctrl-C stops)\n", flush=True)
    try:
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        failed = next(c for c in children if c.poll() is not None)
        name = " ".join(str(a) for a in list(failed.args)[2:4])  # type: ignore[arg-type]
        print(f"==> {name} stopped; stopping the rest", flush=True)
        return failed.returncode or 1
    except KeyboardInterrupt:
        print("\n==> stopping", flush=True)
        return 0
    finally:
        stop(children)


if __name__ == "__main__":
    sys.exit(main())
