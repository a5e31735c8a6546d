"""The rooms table of docs/architecture.md names every room: each package of ``games`` and
each module left loose at its top, so a newcomer finds where a thing lives from the docs
alone, and a module added outside every room shows here until it is given one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Django's own folders and the app's hooks, which every app has and no table needs.
DJANGO_PARTS = {
    "migrations",
    "templates",
    "static",
    "locale",
    "management",
    "__pycache__",
    "__init__.py",
    "apps.py",
}


def _table() -> str:
    text = (ROOT / "docs/architecture.md").read_text()
    start = text.index("## The rooms")
    return text[start : text.index("\n## ", start + 1)]


def _rooms_of_games() -> list[str]:
    found = []
    for part in sorted((ROOT / "games").iterdir()):
        if part.name in DJANGO_PARTS or part.name.startswith("."):
            continue
        if part.is_dir() and (part / "__init__.py").exists():
            found.append(f"games/{part.name}/")
        elif part.suffix == ".py":
            found.append(f"games/{part.name}")
    return found


def test_every_room_of_games_is_in_the_rooms_table() -> None:
    named = set(re.findall(r"^\| `([^`]+)` \|", _table(), re.M))
    missing = [room for room in _rooms_of_games() if room not in named]
    assert missing == [], f"add these to the rooms table of docs/architecture.md: {missing}"


def test_every_room_the_table_names_exists() -> None:
    named = re.findall(r"^\| `([^`]+)` \|", _table(), re.M)
    gone = [room for room in named if not (ROOT / room).exists()]
    assert gone == [], f"the rooms table names what is no longer there: {gone}"


def test_few_modules_are_left_loose_at_the_top_of_games() -> None:
    loose = [room for room in _rooms_of_games() if room.endswith(".py")]
    # The error table, the signals and the tasks of no room are the app's own; anything
    # else belongs in a room.
    assert loose == ["games/errors.py", "games/signals.py", "games/tasks.py"], loose
