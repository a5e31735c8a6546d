"""The close computes every entry's sort key in SQL (leaderboards/keys.py ``sort_key_sql``);
it must give the very integer ``sort_key`` gives in Python, or a closed day's final ranks
would disagree with the live board's."""

from __future__ import annotations

import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import DAILY_GAMES
from leaderboards.keys import sort_key, sort_key_sql

values = st.one_of(st.none(), st.integers(min_value=-10, max_value=2**31 - 1))


@pytest.mark.django_db
@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from(DAILY_GAMES),
    won=st.booleans(),
    score=values,
    time_ms=values,
    moves=st.integers(min_value=0, max_value=10_000),
    cards_up=st.integers(min_value=0, max_value=52),
)
def test_the_sql_key_is_the_python_key(game, won, score, time_ms, moves, cards_up):
    expr = sort_key_sql(game, "v.won", "v.score", "v.time_ms", "v.moves", "v.cards_up")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {expr} FROM (SELECT %s::boolean AS won, %s::int AS score, "
            "%s::bigint AS time_ms, %s::int AS moves, %s::smallint AS cards_up) v",
            [won, score, time_ms, moves, cards_up],
        )
        (got,) = cursor.fetchone()
    assert got == sort_key(game, won, score, time_ms, moves, cards_up)
