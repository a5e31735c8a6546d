"""config/serve.py: Daphne's loop chosen before Daphne makes it.

Each case runs in a new interpreter, since the choice must come before ``daphne.server`` is
imported, and the test process has imported it already.  A served socket on uvloop is
played in tests/games/test_ws_memory.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = (
    "from config import serve; print(serve.choose_loop()); import daphne.server as s; "
    "from twisted.internet import reactor; loop = type(reactor._asyncioEventloop); "
    "print(type(s.twisted_loop).__module__, loop.__module__)"
)


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "SERVE_LOOP"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_daphne_and_its_reactor_run_on_uvloop_by_default():
    out = _python(PROBE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["uvloop", "uvloop", "uvloop"]


def test_serve_loop_asyncio_keeps_daphne_as_it_comes():
    out = _python(PROBE, SERVE_LOOP="asyncio")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["asyncio", "asyncio.unix_events", "asyncio.unix_events"]


def test_too_late_to_choose_is_refused_with_a_reason():
    out = _python("import daphne.server; from config import serve; serve.main()")
    assert out.returncode != 0
    assert "before daphne.server is imported" in out.stderr


def _listen_backlog(port: int) -> int | None:
    """The backlog of the socket listening on ``port``: ``ss`` shows it as Send-Q."""
    out = subprocess.run(
        ["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[2]) if out else None


def _serve(port: int, *args: str, **env: str) -> subprocess.Popen[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("SERVE_LOOP", "LISTEN_BACKLOG")}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "config.serve",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            *args,
            "config.asgi:application",
        ],
        cwd=ROOT,
        env={**clean, "DEBUG": "1", **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _backlog_of_served(**env: str) -> int:
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = _serve(port, **env)
    try:
        deadline = time.monotonic() + 60
        while (found := _listen_backlog(port)) is None:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the server never listened"
            time.sleep(0.2)
        return found
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_listening_socket_takes_a_burst_of_players():
    # Twisted's own default is 50: a burst of reconnecting tabs overflowed it.
    assert _backlog_of_served() == 2048
    assert _backlog_of_served(LISTEN_BACKLOG="300") == 300


def test_a_bad_backlog_is_refused_with_what_to_do():
    proc = _serve(1, LISTEN_BACKLOG="lots")
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()  # a server that started anyway must not outlive the test
    assert proc.returncode != 0
    assert "LISTEN_BACKLOG must be a whole number" in err
    assert "leave it unset" in err
