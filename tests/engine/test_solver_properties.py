"""Property: "no legal move" and "unsolvable" are never said where the solver wins.

Positions come from random play (including hopeless play that fills the free cells), so
dead ends and near-dead ends are common, which is where a wrong verdict would show.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, endgame, new_game
from games.engine.solver import SOLVED, UNSOLVABLE, Budget, hint, solve


def random_position(key: str, seed: int, plies: int, salt: int) -> tuple[Game, list[str]]:
    g = new_game(key, seed)
    rng = random.Random(salt)
    played: list[str] = []
    for _ in range(plies):
        moves = list(g.legal_moves())
        if not moves or g.won:
            break
        m = rng.choice(moves)
        played.append(g.notation(m))
        g.push(m)
    return g, played


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["freecell", "bakers-dozen", "klondike", "whitehorse"]),
    seed=st.integers(1, 5000),
    plies=st.integers(0, 120),
    salt=st.integers(0, 2**32),
)
def test_no_dead_end_is_reported_where_the_solver_wins(
    key: str, seed: int, plies: int, salt: int
) -> None:
    g, played = random_position(key, seed, plies, salt)
    r = solve(g, Budget(0.4, 200_000))
    if r.status == SOLVED:
        assert not endgame.no_legal_move(g), (key, seed, played)
        line = g.copy()
        for token in r.moves:
            line.play(token)
        assert line.won
    if key in ("freecell", "bakers-dozen"):
        h = hint(g, Budget(0.3, 200_000))
        if r.status == SOLVED:
            assert h.status != UNSOLVABLE
        if h.status == UNSOLVABLE:
            assert r.status != SOLVED
            assert solve(g, Budget(2.0)).status != SOLVED
    if endgame.no_legal_move(g):
        assert r.status != SOLVED


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 32000), salt=st.integers(0, 2**32))
def test_freecell_dead_ends_after_reckless_play_are_never_called_wins(seed: int, salt: int) -> None:
    # Reckless play: cards into the free cells first, which quickly leaves no move at all.
    g = new_game("freecell", seed)
    rng = random.Random(salt)
    for _ in range(12):
        moves = list(g.legal_moves())
        if not moves:
            break
        to_cells = [m for m in moves if 16 <= m[1] < 20]
        g.push(rng.choice(to_cells or moves))
    r = solve(g, Budget(1.0))
    if endgame.no_legal_move(g):
        assert r.status == UNSOLVABLE  # nothing moves: the search space is one position
    if r.status == SOLVED:
        assert not endgame.no_legal_move(g)
