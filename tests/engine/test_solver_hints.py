"""Hints: on a winning line when found, never an undo, cancellable, and solved for real once
nothing is hidden (the path rule and the blindness to unseen cards over every game:
test_hint_properties.py)."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import new_game
from games.engine.piles import FOUNDATION
from games.engine.solver import SOLVED, UNSOLVABLE, Budget, hint, solve
from games.engine.solver.sampling import _decided, hidden_cards
from games.engine.undo import reverses

from .kept_deals import KLONDIKE_LINE, KLONDIKE_SEED


@pytest.mark.parametrize("key", ["freecell", "bakers-dozen"])
def test_a_hint_is_never_the_undo_of_the_previous_move(key: str) -> None:
    start = new_game(key, 5)
    moves = [m for m in start.legal_moves() if m[1] < FOUNDATION]
    assert moves
    for m in moves:
        g = start.copy()
        g.push(m)
        h = hint(g, 1.0)
        assert h.move is not None
        back = (m[1], m[0], m[2])
        assert g.parse(h.move) != back or g.reason(back) is not None, (m, h.move)
        assert not reverses(g, h.move)
        g.play(h.move)  # the hint is a legal move


def test_a_found_hint_is_on_a_winning_line() -> None:
    g = new_game("freecell", 617)
    h = hint(g, 20.0)  # takes a fraction of a second; the margin is for a busy machine
    assert h.status == SOLVED
    assert h.line[0] == h.move
    for token in h.line:
        g.play(token)
    assert g.won


def test_hint_says_unsolvable_only_with_a_proof() -> None:
    g = new_game("freecell", 11982)
    assert hint(g, 0.05).status != UNSOLVABLE  # not enough time: no verdict
    # Four kings in the free cells of deal 1 after reckless play: a small, lost position.
    lost = new_game("freecell", 1)
    for token in ("1a", "1b", "1c", "1d"):
        lost.play(token)
    h = hint(lost, 10)
    verdict = solve(lost, 10).status
    assert (h.status == UNSOLVABLE) == (verdict == UNSOLVABLE)


@pytest.mark.parametrize(("key", "seed"), [("freecell", 11982), ("bakers-dozen", 0)])
def test_cancelling_a_running_search_stops_it(key: str, seed: int) -> None:
    # Stopped by the cancel, not by its 60 s budget.  How soon is a benchmark's figure
    # (bench/solver.py, cancel latency: a few milliseconds), not this test's: under a
    # loaded CI machine freeing the search's tables alone took 160 ms once.
    stop = threading.Event()
    done: list[float] = []
    g = new_game(key, seed)

    def work() -> None:
        hint(g, Budget(60, 10**8, cancel=stop))
        done.append(time.monotonic())

    t = threading.Thread(target=work)
    t.start()
    time.sleep(0.3)
    assert not done  # still searching
    asked = time.monotonic()
    stop.set()
    t.join(5)
    assert done
    assert done[0] - asked < 2


def test_cancelling_a_solve_says_unknown() -> None:
    stop = threading.Event()
    stop.set()
    r = solve(new_game("freecell", 11982), Budget(60, cancel=stop))
    assert r.status == "unknown"
    assert r.cancelled


def test_klondike_hint_with_nothing_hidden_is_solved_for_real() -> None:
    g = new_game("klondike", KLONDIKE_SEED)
    # Play the kept winning line until no card is hidden any more, then ask.
    for token in KLONDIKE_LINE:
        if not hidden_cards(g):
            break
        g.play(token)
    assert not hidden_cards(g)
    assert not g.won, "the line revealed the last card on the winning move"
    h = hint(g, 10)
    assert h.status == SOLVED
    assert h.move is not None


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["1a", "2b", "3c", "4d"]), st.integers(1, 6), max_size=4),
    st.integers(0, 6),
    st.lists(st.sampled_from(["0z", "1a", "2b", "3c", "4d", "5e"]), max_size=6),
)
def test_klondike_samples_stop_only_when_the_rest_could_not_change_the_hint(
    votes: dict[str, int], left: int, rest: list[str]
) -> None:
    """The samples stop early only when no way the remaining ones vote, including for a
    move nobody voted for yet, changes the winner the full count would pick (or ties it:
    a tie would go to how far the searches got).

    What a player can compute from it: the hint is the one all six samples would give, and
    how soon it comes back depends only on the votes of samples dealt from a seed of the
    visible table (solver/sampling.py), so its timing tells nothing about a face-down card."""
    counted = Counter(votes)
    if not _decided(counted, left):
        return
    lead = min(counted, key=lambda m: (-counted[m], m))
    after = counted + Counter(rest[:left])
    assert min(after, key=lambda m: (-after[m], m)) == lead


def test_klondike_samples_do_stop_early_when_they_agree() -> None:
    assert _decided(Counter({"1a": 4}), 2)
    assert not _decided(Counter({"1a": 3}), 3)  # three votes for a new move would tie
    assert _decided(Counter({"1a": 3, "2b": 1}), 1)
    assert not _decided(Counter(), 0)
    assert not _decided(Counter({"2b": 2, "1a": 1}), 1)
