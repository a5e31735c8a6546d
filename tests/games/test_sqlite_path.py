"""The SQLite path (``make run`` with no DATABASE_URL) plays every operation: the module
tests/games/sqlite_play.py run by a pytest of its own on an SQLite file, so the ORM
branches that stand in for PostgreSQL's statements run in every test run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_start_move_undo_hint_finish_and_resign_over_http_and_the_socket_on_sqlite(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'play.sqlite3'}"}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/games/sqlite_play.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = out.stdout[-4000:] + out.stderr[-2000:]
    assert out.returncode == 0, said
    assert "6 passed" in out.stdout, said
    assert "skipped" not in out.stdout, said  # fc-solve is there: the finish ran too
