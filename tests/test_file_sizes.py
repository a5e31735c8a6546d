"""No source file over 400 lines: a module that long does more than one thing, and is split
along what it does (migrations, written by Django, excepted)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("config", "games", "leaderboards", "frontend", "scripts", "bench", "tests")
LIMIT = 400


def too_long(root: Path) -> list[str]:
    """Every .py file under the folders longer than LIMIT lines, with its length."""
    out = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            if "migrations" in path.relative_to(root).parts:
                continue
            with path.open("rb") as f:
                lines = sum(1 for _ in f)
            if lines > LIMIT:
                out.append(f"{path.relative_to(root)}: {lines} lines")
    return out


def test_no_source_file_is_over_400_lines() -> None:
    assert too_long(ROOT) == []


def test_a_long_file_is_named_and_a_migration_is_not(tmp_path: Path) -> None:
    (tmp_path / "games" / "migrations").mkdir(parents=True)
    (tmp_path / "games" / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "games" / "short.py").write_text("x = 1\n" * LIMIT)
    (tmp_path / "games" / "migrations" / "0001_initial.py").write_text("x = 1\n" * 999)
    assert too_long(tmp_path) == [f"{Path('games', 'long.py')}: {LIMIT + 1} lines"]
