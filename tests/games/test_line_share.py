"""The solver-line signal compares positions (games/fairplay/line_share.py): a prefix, undone
detours, loops and transpositions cannot hide a line, and a line of one's own shares
little with the solver's.

The attack this closes: on the FreeCell daily, a legal move and its undo, then the
certified line at a person's pace: verified, rank 1, no signal, because the moves were
compared index by index and the offset of two put every one of them off by two."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GAMES, new_game
from games.fairplay import line_share


def _walk(game: str, seed: int, choices: list[int]) -> list[str]:
    """Legal moves and undos chosen by ``choices``, as a stored move list."""
    g = new_game(game, seed)
    out: list[str] = []
    for c in choices:
        moves = list(g.legal_moves())
        if c % 5 == 0 and g.history:
            g.undo()
            out.append("u")
        elif moves:
            m = moves[c % len(moves)]
            out.append(g.notation(m))
            g.push(m)
    return out


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(1, 30000),
    choices=st.lists(st.integers(0, 10_000), max_size=80),
)
def test_the_path_replays_to_where_the_game_is_through_distinct_positions(game, seed, choices):
    tokens = _walk(game, seed, choices)
    steps = line_share.path(game, seed, tokens)
    g = new_game(game, seed)
    seen = set()
    for before, token in steps:
        assert line_share.key(g) == before
        assert before not in seen
        seen.add(before)
        g.play(token)
    end = new_game(game, seed)
    for t in tokens:
        end.undo() if t == "u" else end.play(t)
    assert line_share.key(g) == line_share.key(end)


def _line(seed: int) -> list[str]:
    from games.engine.solver import SOLVED, Budget, solve

    r = solve(new_game("freecell", seed), Budget(30))
    assert r.status == SOLVED
    return list(r.moves)


@pytest.mark.parametrize("seed", [617, 1941])
def test_a_prefix_detours_and_a_transposition_keep_the_whole_line(seed):
    line = _line(seed)
    rng = random.Random(seed)
    first = new_game("freecell", seed).notation(
        next(iter(new_game("freecell", seed).legal_moves()))
    )
    assert line_share.share("freecell", seed, [first, "u", *line], line) == 1.0
    detoured: list[str] = []
    g = new_game("freecell", seed)
    for token in line:
        if rng.random() < 0.3:
            m = rng.choice(list(g.legal_moves()))
            detoured += [g.notation(m), "u"]
        detoured.append(token)
        g.play(token)
    assert line_share.share("freecell", seed, detoured, line) == 1.0
    # index by index, as the signal was computed before, the prefix hides every move
    assert sum(a == b for a, b in zip([first, "u", *line], line, strict=False)) < len(line) / 4


def test_a_line_of_ones_own_shares_little_and_the_solver_from_anywhere_is_seen(solve_freecell):
    from games.engine.solver import SOLVED, Budget, solve

    seed = 617
    line = _line(seed)
    own = solve_freecell(seed)  # the public solver's line: somebody else's way through
    assert line_share.share("freecell", seed, own, line) < 0.3

    def run(g):
        r = solve(g, Budget(60.0, 20_000))
        return list(r.moves) if r.status == SOLVED else None

    # An opening of one's own, then this site's solver from there: certified-line share
    # low, but the solve where the path leaves the line sees the rest of it.
    g = new_game("freecell", seed)
    opening = []
    rng = random.Random(3)
    for _ in range(4):
        m = rng.choice([m for m in g.legal_moves()])
        opening.append(g.notation(m))
        g.push(m)
    cheat = solve(g.copy(), Budget(30))  # the cheater has all the time of the day
    assert cheat.status == SOLVED
    rest = list(cheat.moves)
    tokens = [*opening, *rest]
    assert line_share.share("freecell", seed, tokens, line) < 0.5
    assert line_share.share("freecell", seed, tokens, line, solve=run, samples=3) >= 0.9
    assert line_share.share("freecell", seed, own, line, solve=run, samples=3) < 0.5
