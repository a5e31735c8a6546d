"""`make stack`: the production shape on one machine, without Docker.

WEB web processes (2 by default; Daphne on uvloop, ``config.serve``) on 127.0.0.1, ports
WEB_PORT, WEB_PORT+1, ... (PORT+1 onwards by default), behind HAProxy on PORT (8000) run
from ``deploy/haproxy.cfg``, the same file as compose's balancer; a Celery worker and Celery
beat; on the PostgreSQL and Redis of ``DATABASE_URL`` and ``REDIS_URL`` (the local ones by
default; the database is created when missing).  DEBUG is off, as in production: the static
files are collected (when their sources changed) into STATIC_ROOT, and the secrets come from
the environment or, when unset, from ``.local-secrets.json``, the pair ``make run`` keeps.

The pids of its processes are written to ``.stack/pids.json`` (STACK_DIR) as ``{"web": [..],
"worker": .., "beat": .., "lb": ..}`` whenever one changes.  A process that exits is started
again, as a supervisor would (``kill -TERM`` of each web process in turn is a rolling
restart); one failing again and again within seconds of its start stops the stack.  Ctrl-C
(or SIGTERM) stops all: the web processes drain (config/drain.py), then the balancer stops.
Its request log is ``.stack/lb.log``.
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from balancer import Balancer  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STACK = Path(os.environ.get("STACK_DIR") or ROOT / ".stack")  # pids, logs, the API socket
PY = sys.executable
QUICK_FAILURE = 10.0  # seconds: an exit this soon after a start counts towards giving up
GIVE_UP_AFTER = 3  # quick failures in a row


def say(text: str) -> None:
    print(f"==> {text}", flush=True)


def settings_env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    env["DEBUG"] = env.get("DEBUG") or "0"
    missing = [n for n in ("SECRET_KEY", "DAILY_SECRET") if not env.get(n)]
    if missing:
        # The pair `make run` made for this checkout (config/settings/env.py, local_secrets),
        # so both run on one database with the same seeds and sessions.
        path = ROOT / ".local-secrets.json"
        try:
            kept = dict(json.loads(path.read_text()))
        except (OSError, ValueError):
            kept = {
                "SECRET_KEY": secrets.token_urlsafe(50),
                "DAILY_SECRET": secrets.token_urlsafe(32),
            }
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(kept, f)
        for name in missing:
            env[name] = kept[name]
    env.setdefault("STATIC_ROOT", str(ROOT / "staticfiles"))
    return env


def ensure_database(url: str) -> None:
    """Create the database of a PostgreSQL URL when it does not exist yet."""
    import psycopg
    from psycopg import sql

    try:
        psycopg.connect(url, connect_timeout=5).close()
        return
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise SystemExit(
                f"PostgreSQL at DATABASE_URL does not answer: {exc}\n"
                "Start it, or set DATABASE_URL to one that runs."
            ) from exc
    name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
    admin = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    say(f"creating the database {name}")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(str(name))))


def static_is_current(static_root: Path) -> bool:
    """The collected files are newer than every source file they come from."""
    manifest = static_root / "staticfiles.json"
    if not manifest.exists():
        return False
    made = manifest.stat().st_mtime
    for folder in ROOT.glob("*/static"):
        if any(p.stat().st_mtime > made for p in folder.rglob("*") if p.is_file()):
            return False
    return True


def _die_with_parent() -> None:
    # Linux: the child is sent SIGTERM should this supervisor die without stopping it.
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Child:
    def __init__(
        self, name: str, cmd: list[str], env: dict[str, str], log: Path | None = None
    ) -> None:
        self.name, self.cmd, self.env, self.log = name, cmd, env, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self.quick_failures = 0

    def start(self) -> None:
        out: Any = open(self.log, "ab") if self.log else None  # noqa: SIM115 - the child's
        # A session of its own: Ctrl-C reaches the supervisor only, which stops the
        # children in order (the web processes drain first).
        self.proc = subprocess.Popen(
            self.cmd,
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=out,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self.started = time.monotonic()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def exited(self) -> int | None:
        return None if self.proc is None else self.proc.poll()


def wait_listening(port: int, child: Child, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.exited() is not None:
            raise SystemExit(
                f"{child.name} exited with {child.exited()} before it served; its output is above"
            )
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{child.name} did not listen on {port} within {timeout:.0f} s")


def write_pids(webs: list[Child], worker: Child, beat: Child, lb: Child) -> None:
    pids = {"web": [w.pid for w in webs], "worker": worker.pid, "beat": beat.pid, "lb": lb.pid}
    tmp = STACK / "pids.json.tmp"
    tmp.write_text(json.dumps(pids) + "\n")
    tmp.replace(STACK / "pids.json")  # readers never see half a file


def stop_all(webs: list[Child], others: list[Child], lb: Child) -> None:
    drain = float(os.environ.get("DRAIN_SECONDS", "8")) + 5
    for group, wait in ((webs + others, drain), ([lb], 5.0)):
        group = [c for c in group if c.proc is not None]
        for child in group:
            if child.exited() is None:
                child.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        deadline = time.monotonic() + wait
        for child in group:
            try:
                child.proc.wait(max(0.1, deadline - time.monotonic()))  # type: ignore[union-attr]
            except subprocess.TimeoutExpired:
                child.proc.kill()  # type: ignore[union-attr]
                child.proc.wait(5)  # type: ignore[union-attr]


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    port = int(os.environ.get("PORT", "8000"))
    count = int(os.environ.get("WEB", "2"))
    first = int(os.environ.get("WEB_PORT") or port + 1)
    stats = int(os.environ.get("LB_STATS_PORT") or port + 404)
    if count < 1:
        raise SystemExit(f"WEB must be 1 or more web processes, not {count}")
    env = settings_env()
    STACK.mkdir(parents=True, exist_ok=True)
    (STACK / "pids.json").unlink(missing_ok=True)
    if env["DATABASE_URL"].startswith("postgres"):
        ensure_database(env["DATABASE_URL"])
    say("migrating the database")
    subprocess.run(
        [PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    if not static_is_current(Path(env["STATIC_ROOT"])):
        say(f"collecting the static files into {env['STATIC_ROOT']} (a minute the first time)")
        subprocess.run(
            [PY, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )

    balancer = Balancer(port, stats, STACK / "haproxy.sock")
    lb = Child("lb", balancer.command(), balancer.env, STACK / "lb.log")
    webs = [
        Child(
            f"web{i + 1}",
            [
                PY,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(first + i),
                "--proxy-headers",
                "config.asgi:application",
            ],
            env,
        )
        for i in range(count)
    ]
    # The one worker reads the day's close's queue and the analyses' too, so they run here;
    # a close longer than CELERY_VISIBILITY_TIMEOUT would then be handed out again (to wait
    # on the first's lock, then find the day closed), and analyses share the scoring's
    # worker: production gives each a worker of its own (docker-compose.yml).
    queue = env.get("CELERY_QUEUE") or "solitaire"
    queues = ",".join(
        [
            queue,
            env.get("CELERY_CLOSE_QUEUE") or queue + "-close",
            env.get("ANALYSIS_QUEUE") or queue + "-analysis",
        ]
    )
    worker = Child(
        "worker",
        [
            PY,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queues,
            "--loglevel",
            "INFO",
            "--concurrency",
            env.get("WORKER_CONCURRENCY", "2"),
        ],
        env,
    )
    beat = Child("beat", [PY, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"], env)
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)  # even when started in the background
    children = [lb, *webs, worker, beat]
    try:
        lb.start()
        for web in webs:
            web.start()
        for i, web in enumerate(webs):
            wait_listening(first + i, web)
            balancer.add(web.name, first + i)
        worker.start()
        beat.start()
        write_pids(webs, worker, beat, lb)
        say(
            f"{count} web processes on 127.0.0.1:{first}-{first + count - 1}, a worker and "
            f"beat; pids in .stack/pids.json; the balancer's log in .stack/lb.log"
        )
        print(
            f"\n    Daily Solitaire is at http://127.0.0.1:{port}/   (balancer's figures: "
            f"http://127.0.0.1:{stats}/stats, /metrics; Ctrl-C stops)\n",
            flush=True,
        )
        while True:
            time.sleep(0.2)
            for child in children:
                code = child.exited()
                if code is None:
                    continue
                quick = time.monotonic() - child.started < QUICK_FAILURE
                child.quick_failures = child.quick_failures + 1 if quick else 0
                if child.quick_failures >= GIVE_UP_AFTER:
                    say(
                        f"{child.name} keeps exiting ({code}) within seconds of its start; "
                        "stopping the stack (its output is above)"
                    )
                    return 1
                say(f"{child.name} (pid {child.pid}) exited with {code}; starting it again")
                child.start()
                if child is lb:
                    wait_listening(port, lb)
                    balancer.add_all()
                write_pids(webs, worker, beat, lb)
    except KeyboardInterrupt:
        say("stopping")
        return 0
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut the stop
        stop_all(webs, [worker, beat], lb)
        (STACK / "pids.json").unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
