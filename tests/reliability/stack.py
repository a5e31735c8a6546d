"""Real processes for the fault and scale-out tests: a private PostgreSQL cluster and a
private Redis (so stopping them never disturbs anything else on the machine), Daphne
servers and Celery workers pointed at them, and small HTTP/websocket clients."""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# The newest PostgreSQL server installed (Debian layout), for a throwaway cluster.
PG_BIN = max(
    Path("/usr/lib/postgresql").glob("*/bin"),
    default=Path("/usr/lib/postgresql/15/bin"),
    key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[Any] | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process for port {port} exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def stop(proc: subprocess.Popen[Any], timeout: float = 15) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class PrivateRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="redis-rel-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port, self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()  # an outage, not a shutdown: nothing saved
            self.proc.wait(10)
            self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivatePostgres:
    """A throwaway cluster owned by the postgres user, on its own port and socket dir."""

    def __init__(self) -> None:
        if not (PG_BIN / "initdb").exists():
            raise RuntimeError(f"no PostgreSQL server binaries in {PG_BIN}")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="pg-rel-")
        os.chmod(self.dir, 0o777)
        self.data = os.path.join(self.dir, "data")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/solitaire"
        self._as_postgres(
            [str(PG_BIN / "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync"]
        )

    def _as_postgres(self, cmd: list[str]) -> None:
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self, options: str = "") -> None:
        self._as_postgres(
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                self.data,
                "-w",
                "-l",
                os.path.join(self.dir, "log"),
                "-o",
                f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=on {options}",
                "start",
            ]
        )

    def stop(self) -> None:
        self._as_postgres([str(PG_BIN / "pg_ctl"), "-D", self.data, "-w", "-m", "fast", "stop"])

    def create_database(self) -> None:
        import psycopg

        with psycopg.connect(
            f"postgres://postgres@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE solitaire")

    def close(self) -> None:
        try:
            self.stop()
        except Exception:  # noqa: BLE001 - already stopped
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def site_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "REDIS_KEY_PREFIX": f"rel-{uuid.uuid4().hex[:8]}",
            "CELERY_QUEUE": f"rel-{uuid.uuid4().hex[:8]}",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CELERY_VISIBILITY_TIMEOUT": "3",
            "CELERY_RESTORE_INTERVAL": "1",
            "DAILY_CERTIFY_ON_DEMAND": "0",
            "DAILY_SECRET": "reliability-tests",
            "SECRET_KEY": "reliability-tests-" + "x" * 40,
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if "STATIC_ROOT" not in extra:
        # DEBUG is off: a server is ready only with its static files collected (/readyz).
        env["STATIC_ROOT"] = str(collected_static())
    env.update(extra)
    return env


_collected: list[Path] = []


def collected_static() -> Path:
    """The static files collected once for this test process (as the image's build does),
    for a server whose pages a browser opens: with DEBUG off a page names hashed files."""
    if not _collected:
        root = Path(tempfile.mkdtemp(prefix="static-rel-"))
        env = site_env("sqlite://", "", STATIC_ROOT=str(root))
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        _collected.append(root)
    return _collected[0]


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )


class Daphne:
    def __init__(self, env: dict[str, str], log: Path, *args: str) -> None:
        self.env, self.log, self.args = env, log, list(args)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        out = open(self.log, "ab")  # noqa: SIM115 - the child holds it
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                *self.args,
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=out,
        )
        wait_port(self.port, self.proc)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def close(self) -> None:
        if self.proc is not None:
            stop(self.proc)


def celery_worker(
    env: dict[str, str], log: Path, name: str, queue: str | None = None
) -> subprocess.Popen[bytes]:
    """A worker of the site's queues -- scoring, the close's (rank index rebuilds) and the
    analyses', as `make stack`'s one worker -- or of ``queue`` alone."""
    out = open(log, "ab")  # noqa: SIM115
    base = env["CELERY_QUEUE"]
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queue or f"{base},{base}-close,{base}-analysis",
            "--pool",
            "solo",
            "-n",
            f"{name}@%h",
            "--loglevel",
            "INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=out,
    )


class Browser:
    """A player's browser over real HTTP: cookies from GET /api/me/, CSRF on writes."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        status, self.me, _ = self.call("GET", "/api/me/")
        assert status == 200, self.me

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def call(
        self, method: str, path: str, body: Any = None, timeout: float = 30
    ) -> tuple[int, Any, dict[str, str]]:
        csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        req = urllib.request.Request(
            self.base + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", "X-CSRFToken": csrf},
        )
        try:
            with self.opener.open(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null"), dict(r.headers)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                payload = json.loads(raw)
            except ValueError:
                payload = raw.decode(errors="replace")
            return e.code, payload, dict(e.headers)

    def start(self, game: str, deal: Any = "random") -> dict[str, Any]:
        status, body, _ = self.call("POST", "/api/sessions/", {"game": game, "deal": deal})
        assert status == 201, body
        return body

    def move(self, sid: str, seq: int, move: str) -> tuple[int, Any, dict[str, str]]:
        return self.call("POST", f"/api/sessions/{sid}/moves/", {"seq": seq, "move": move})


def fc_solution(deal: int) -> list[str]:
    from tests.conftest import fc_solve

    return fc_solve(deal)


def stored_session(database_url: str, session_id: str) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT s.moves, s.seq, s.score, s.cards_up, s.status, s.game, d.seed "
            "FROM games_gamesession s JOIN games_deal d ON d.id = s.deal_id WHERE s.id = %s",
            (session_id,),
        ).fetchone()
        rows = dict(
            conn.execute(
                "SELECT seq, token FROM games_move WHERE session_id = %s", (session_id,)
            ).fetchall()
        )
    legacy, seq, score, cards_up, status, game, seed = row
    # A move's row, else the legacy list's entry (games/play/moves.py).
    tokens = [rows[i] if i in rows else legacy[i][0] for i in range(seq)]
    return {
        "tokens": tokens,
        "seq": seq,
        "score": score,
        "cards_up": cards_up,
        "status": status,
        "game": game,
        "seed": int(seed),
    }


def in_thread(fn: Any, *args: Any) -> Any:
    """Runs ``fn`` on a fresh thread: an event loop left running on the main thread (the
    browser tests' session-wide Playwright) must not stop asyncio.run or Playwright here."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args).result()


def run_async(coro: Any) -> Any:
    import asyncio

    return in_thread(asyncio.run, coro)
