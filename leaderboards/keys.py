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
