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

PROBE = ("from config import serve; print(serve.choose_loop()); import daphne.server as s; "
         "from twisted.internet import reactor; loop = type(reactor._asyncioEventloop); "
         "print(type(s.twisted_loop).__module__, loop.__module__)")


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "SERVE_LOOP"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


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
