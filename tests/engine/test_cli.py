"""The command line (docs/api.md, Command line), run as a user would, plus the engine's
independence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HAVE_FC_SOLVE = bool(shutil.which("fc-solve")) or bool(os.environ.get("CI"))


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def fc_solve(number: int) -> str:
    board = subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(number)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return subprocess.run(
        ["fc-solve", "-m", "-snx"], input=board, capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.skipif(not HAVE_FC_SOLVE, reason="freecell-solver-bin is not installed")
@pytest.mark.parametrize("number", [1, 5, 617, 11981, 24000, 40000, 2**31 + 5, 2**32 + 7])
def test_public_solver_solutions_replay_as_wins(number: int) -> None:
    out = cli("replay", "freecell", str(number), "-", stdin=fc_solve(number))
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    assert result["won"] is True
    assert result["cards_up"] == 52
    assert result["score"] is None


@pytest.mark.skipif(not HAVE_FC_SOLVE, reason="freecell-solver-bin is not installed")
def test_a_wrong_move_in_a_solution_gives_status_1_with_index_and_reason() -> None:
    tokens = fc_solve(617).split()
    moves = [t for t in tokens if t[0] in "12345678abcd" and len(t) <= 5]
    moves[3] = "h1" if moves[3] != "h1" else "a1"
    out = cli("replay", "freecell", "617", *moves)
    assert out.returncode == 1
    err = json.loads(out.stdout)
    assert err["index"] == 3
    assert err["move"] == moves[3]
    assert err["reason"]


def test_replay_reports_score_and_cards_up_for_klondike() -> None:
    out = cli("replay", "klondike", "7", "s", "s", "u")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {"won": False, "moves": 1, "cards_up": 0, "score": 0}


def test_moves_lists_legal_moves_as_text_and_as_objects() -> None:
    text = cli("moves", "freecell", "617").stdout.split()
    objs = json.loads(cli("moves", "freecell", "617", "--json").stdout)
    assert len(text) == len(objs) == 35
    assert [o["move"] for o in objs] == text
    assert {"move", "from", "to", "count"} <= set(objs[0])
    after = json.loads(cli("moves", "klondike", "7", "s", "--json").stdout)
    assert any(o["from"] == "stock" and o["to"] == "waste" for o in after)


def test_deal_json_for_klondike_has_tableau_stock_and_face_down() -> None:
    d = json.loads(cli("deal", "klondike", "7", "--json").stdout)
    assert [len(p) for p in d["tableau"]] == [1, 2, 3, 4, 5, 6, 7]
    assert d["face_down"] == [0, 1, 2, 3, 4, 5, 6]
    assert len(d["stock"]) == 24


def test_usage_errors_exit_2_with_a_message() -> None:
    assert cli("deal", "spider", "1").returncode == 2
    bad_seed = cli("deal", "klondike", "x")
    assert bad_seed.returncode == 2
    assert "whole number" in bad_seed.stderr
    bad_move = cli("replay", "klondike", "7", "zz")
    assert bad_move.returncode == 1
    assert "is not a move" in json.loads(bad_move.stdout)["reason"]


def test_the_engine_never_imports_django() -> None:
    code = (
        "import sys; import games.engine, games.engine.cli, games.engine.record; "
        "from games.engine import seen; "
        "g = games.engine.new_game('klondike', 1); seen.state(g); "
        "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "False"
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        assert "import django" not in path.read_text()
        assert "from django" not in path.read_text()


def _cards_in(layout: dict) -> list[str]:
    return (
        [c for p in layout["tableau"] for c in p]
        + layout.get("stock", [])
        + [c for pile in layout["foundations"].values() for c in pile]
    )


def test_deal_shows_all_52_cards_the_foundations_too_in_json_and_text() -> None:
    # Baker's Dozen 910940 sends two aces home at the deal: they were in no key before.
    d = json.loads(cli("deal", "bakers-dozen", "910940", "--json").stdout)
    assert d["foundations"] == {"C": ["AC"], "D": ["AD"], "H": [], "S": []}
    assert sorted(_cards_in(d)) == sorted({c for c in _cards_in(d)})
    assert len(_cards_in(d)) == 52
    text = cli("deal", "bakers-dozen", "910940").stdout.splitlines()
    assert text[-1] == "foundations: AC AD"
    assert len(" ".join(text[:-1]).split()) == 50
    from games.engine import GAMES

    for game in GAMES:
        layout = json.loads(cli("deal", game, "2024", "--json").stdout)
        cards = _cards_in(layout)
        assert len(cards) == len(set(cards)) == 52, game


def test_freecell_text_stays_the_public_solvers_board_format() -> None:
    text = cli("deal", "freecell", "617").stdout.splitlines()
    assert len(text) == 8
    assert not any(line.startswith("foundations") for line in text)
