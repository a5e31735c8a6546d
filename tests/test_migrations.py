"""Migrations are safe with the release still serving (docs/operations.md, "Migrations under
the running release"): ``make lint`` runs makemigrations' check and the migration linter on
every migration newer than the release in production; this checks both are wired and that
the linter does catch what broke a deploy before (0012 added a NOT NULL column without a
database default: the release before it answered 500 on every new game)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = (ROOT / "deploy" / "previous-release").read_text().strip()


def _manage(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(DEBUG="1", DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres")
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_makemigrations_has_nothing_left_to_write():
    out = _manage("makemigrations", "--check", "--dry-run")
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_migration_since_the_release_in_production_is_safe():
    out = _manage(
        "lintmigrations",
        "--project-root-path",
        ".",
        "--git-commit-id",
        PREVIOUS,
        "--include-apps",
        "games",
        "leaderboards",
        "--no-cache",
    )
    assert out.returncode == 0, out.stdout[-3000:]
    assert "Erroneous migrations: 0/" in out.stdout
    assert "Valid migrations: 0/0" not in out.stdout


def test_the_linter_catches_a_not_null_column_without_a_default():
    out = _manage("lintmigrations", "games", "0012_gamesession_offline_id", "--no-cache")
    assert out.returncode != 0, out.stdout
    assert "NOT NULL constraint on columns" in out.stdout, out.stdout
