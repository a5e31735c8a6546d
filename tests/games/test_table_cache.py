"""The tables kept between moves (games/play/tables.py) are bounded by memory as well as by
count: long games with many remembered verdicts push the oldest tables out sooner."""

from __future__ import annotations

import random

from django.test import override_settings

from games.engine import new_game
from games.play import tables


def _played(moves: int, seed: int):
    g, rng = new_game("klondike", seed), random.Random(seed)
    for _ in range(moves):
        legal = list(g.legal_moves())
        if not legal:
            break
        g.push(rng.choice(legal))
    return g


def test_the_kept_tables_stay_under_their_memory_bound_the_oldest_going_first():
    tables.clear()
    try:
        long_games = [_played(200, seed) for seed in range(40)]
        with override_settings(TABLES_MAX_MB=0.1):  # about 100 KB
            for i, g in enumerate(long_games):
                tables.keep(f"s{i}", i, g)
            count, held = tables.held()
            assert held <= 0.1 * 2**20
            assert 0 < count < len(long_games)
            last = len(long_games) - 1
            assert tables.peek(f"s{last}", last) is not None  # the newest stays
            assert tables.peek("s0", 0) is None  # the oldest went first
            assert held == sum(tables.size(g) for g in long_games[-count:])
            assert tables.take(f"s{last}", last) is not None
            assert tables.held()[1] == held - tables.size(long_games[-1])
    finally:
        tables.clear()
    assert tables.held() == (0, 0)
