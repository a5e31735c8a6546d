"""One integer per entry that sorts like the ranking (docs/rules.md, Ranking order); lower
ranks higher.

It is exact as a Redis sorted-set score (a double) because it stays below 2**53:
  won:       [0][13 bits: 8191 - score][27 bits: time ms][12 bits: moves]  (score games)
             [0][27 bits: time ms][12 bits: moves]                 (ranked by time)
  unfinished [1][6 bits: 52 - cards up][12 bits: moves]
Times beyond 2**27 ms (37 hours) and moves beyond 4095 are capped; they tie, nothing more.
"""

from __future__ import annotations

from games.engine import GAMES

MOVE_BITS, TIME_BITS, SCORE_BITS = 12, 27, 13
UNFINISHED = 1 << (MOVE_BITS + TIME_BITS + SCORE_BITS)


def _cap(value: int | None, bits: int) -> int:
    return min(max(value or 0, 0), (1 << bits) - 1)


def sort_key(
    game: str, won: bool, score: int | None, time_ms: int | None, moves: int, cards_up: int
) -> int:
    m = _cap(moves, MOVE_BITS)
    if not won:
        return UNFINISHED | (_cap(52 - cards_up, 6) << MOVE_BITS) | m
    t = _cap(time_ms, TIME_BITS) << MOVE_BITS
    if GAMES[game].ranked_by_time:
        return t | m
    s = (1 << SCORE_BITS) - 1 - _cap(score, SCORE_BITS)
    return (s << (TIME_BITS + MOVE_BITS)) | t | m


def _cap_sql(column: str, bits: int) -> str:
    # BIGINT: PostgreSQL would shift a 32-bit column modulo 32.
    top = (1 << bits) - 1
    return (
        f"CAST(CASE WHEN COALESCE(({column}), 0) < 0 THEN 0 WHEN ({column}) > {top} "
        f"THEN {top} ELSE COALESCE(({column}), 0) END AS BIGINT)"
    )


def sort_key_sql(game: str, won: str, score: str, time_ms: str, moves: str, cards_up: str) -> str:
    """``sort_key`` as an SQL expression over the named columns (PostgreSQL and SQLite
    alike), so that a day's close computes every key in one statement; the two agree
    (tests/leaderboards/test_sort_key_sql.py)."""
    m = _cap_sql(moves, MOVE_BITS)
    unfinished = f"({UNFINISHED} | ({_cap_sql(f'52 - {cards_up}', 6)} << {MOVE_BITS}) | {m})"
    t = f"({_cap_sql(time_ms, TIME_BITS)} << {MOVE_BITS})"
    if GAMES[game].ranked_by_time:
        finished = f"({t} | {m})"
    else:
        s = f"({(1 << SCORE_BITS) - 1} - {_cap_sql(score, SCORE_BITS)})"
        finished = f"(({s} << {TIME_BITS + MOVE_BITS}) | {t} | {m})"
    return f"(CASE WHEN {won} THEN {finished} ELSE {unfinished} END)"
