"""The solvers: winning lines that replay as wins, proofs that hold, certified deals."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.engine import daily_seed, new_game, replay
from games.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, Budget, certify, solve, solve_deal
from games.engine.solver.search import best_first

ROOT = Path(__file__).resolve().parents[2]


def cpu(seconds: float, states: int = 3_000_000) -> Budget:
    """A budget in CPU seconds, so a busy shared machine does not turn wins into unknowns."""
    return Budget(seconds, states, clock=time.process_time)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@pytest.mark.parametrize("deal", [1, 2, 617, 1941, 30000])
def test_freecell_solutions_replay_as_wins(deal: int) -> None:
    r = solve_deal("freecell", deal, cpu(20))
    assert r.status == SOLVED
    assert replay("freecell", deal, r.moves).won


def test_freecell_deals_1_to_40_are_all_solved() -> None:
    for deal in range(1, 41):
        r = solve_deal("freecell", deal, cpu(20))
        assert r.status == SOLVED, deal
        assert replay("freecell", deal, r.moves).won, deal


def test_deal_11982_is_proven_unsolvable() -> None:
    r = solve_deal("freecell", 11982, cpu(30, 10_000_000))
    assert r.status == UNSOLVABLE
    assert r.moves == []


def test_a_solve_from_the_middle_of_a_game_continues_from_there() -> None:
    g = new_game("freecell", 617)
    for token in ("8a", "8b", "8c"):
        g.play(token)
    r = solve(g, cpu(10))
    assert r.status == SOLVED
    assert replay("freecell", 617, ["8a", "8b", "8c", *r.moves]).won


@pytest.mark.parametrize("seed", [1, 5, 7, 10])
def test_bakers_dozen_solutions_replay_as_wins(seed: int) -> None:
    r = solve_deal("bakers-dozen", seed, cpu(20))
    assert r.status == SOLVED
    assert replay("bakers-dozen", seed, r.moves).won


def test_bakers_dozen_deal_where_no_queen_can_ever_move_is_proven_lost() -> None:
    # Deal 398: each king lies under a queen that must land on a king before it can go
    # up (or waits for a card under another such queen), so none of them ever moves.
    r = solve_deal("bakers-dozen", 398, cpu(5))
    assert r.status == UNSOLVABLE
    assert r.states == 1


@pytest.mark.parametrize(
    ("game", "seed"),
    [
        ("klondike", 0),
        ("klondike", 1),
        ("klondike", 3),
        ("klondike-draw3", 1),
        ("klondike-draw3", 4),
        ("whitehorse", 0),
        ("whitehorse", 2),
        ("klondike-3-passes", 2),
        ("klondike-1-pass", 4),
    ],
)
def test_klondike_family_solutions_replay_as_wins(game: str, seed: int) -> None:
    r = solve_deal(game, seed, cpu(20))
    assert r.status == SOLVED
    assert replay(game, seed, r.moves).won


def test_a_lost_klondike_draw3_deal_is_proven() -> None:
    r = solve_deal("klondike-draw3", 22, cpu(20))
    assert r.status == UNSOLVABLE


def test_an_exhausted_budget_says_unknown_never_unsolvable() -> None:
    r = solve_deal("freecell", 11982, Budget(0.05))
    assert r.status == UNKNOWN


def test_certify_returns_the_first_winnable_candidate_with_its_par() -> None:
    day = dt.date(2026, 12, 1)
    c = certify(day, "freecell", "secret", budget=10)
    assert c is not None
    assert c.seed == daily_seed(day, "freecell", "secret", c.candidate)
    assert replay("freecell", c.seed, c.moves).won
    assert c.par == len(c.moves) > 0
    again = certify(day, "freecell", "secret", budget=10)
    assert again is not None
    assert again.seed == c.seed  # reproducible


def test_certify_skips_candidates_it_cannot_win() -> None:
    day = dt.date(2026, 12, 1)
    c = certify(day, "klondike-draw3", "x", budget=5)
    assert c is not None
    assert replay("klondike-draw3", c.seed, c.moves).won
    for seed, verdict in c.rejected:
        assert verdict != SOLVED
        assert seed != c.seed


def test_cli_solve_prints_the_verdict_then_only_moves() -> None:
    out = cli("solve", "freecell", "617", "--budget", "10", "--cpu")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "solved"
    moves = " ".join(lines[1:]).split()
    assert replay("freecell", 617, moves).won
    check = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", "freecell", "617", "-"],
        input="\n".join(lines[1:]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert '"won": true' in check.stdout


def test_cli_solve_unsolvable_and_unknown_print_one_word() -> None:
    out = cli("solve", "freecell", "11982", "--budget", "30", "--cpu")
    assert out.stdout.split() == ["unsolvable"]
    out = cli("solve", "freecell", "11982", "--budget", "0.01")
    assert out.stdout.split() == ["unknown"]


def test_cli_solve_range_prints_a_summary_and_a_progress_bar() -> None:
    out = cli("solve", "freecell", "--range", "1", "6", "--budget", "10", "--cpu")
    assert out.returncode == 0, out.stderr
    assert "solved" in out.stdout
    assert "100.00%" in out.stdout
    assert "failed to replay as a win: 0" in out.stdout
    assert "6/6" in out.stderr


def test_klondike_safe_cards_are_those_nothing_could_need() -> None:
    from games.engine.solver.klondike_autoplay import next_cards, safe_cards

    # Suits 0 and 3 are one colour, 1 and 2 the other; card = rank * 4 + suit.
    assert safe_cards([0, 0, 0, 0]) == (0, 1, 2, 3)  # aces
    assert safe_cards([2, 1, 1, 2]) == (5, 6)  # the black threes could hold a red two
    assert safe_cards([2, 2, 2, 2]) == (8, 9, 10, 11)
    # The red six and five could still hold a black five or four: only black fours go.
    assert safe_cards([3, 5, 4, 3]) == (12, 15)
    assert next_cards([3, 5, 4, 13]) == (12, 21, 18)


@pytest.mark.parametrize("game", ["klondike", "klondike-draw3", "whitehorse", "klondike-1-pass"])
def test_each_narrow_klondike_search_alone_finds_wins_that_replay(game: str) -> None:
    from games.engine.solver.klondike import KlondikeDomain

    for seed in (0, 1):
        for eager, weights, _ in KlondikeDomain.schedule:
            d = KlondikeDomain(new_game(game, seed))
            d.restricted, d.eager, d.weights = True, eager, weights
            r = best_first(d, cpu(2, 3_000))
            if r.status == SOLVED:
                assert replay(game, seed, r.moves).won, (game, seed, eager, weights)


def test_a_klondike_narrow_search_that_runs_dry_is_no_proof() -> None:
    from games.engine.solver.klondike import KlondikeDomain

    # Narrow searches that exhaust their (smaller) space hand over to the full search.
    d = KlondikeDomain(new_game("klondike-draw3", 22))
    d.schedule = ((True, (5, 2, 1), 1_000_000),)
    r = d.search(cpu(20))
    assert r.status == UNSOLVABLE
    assert not d.restricted
    assert not d.eager
