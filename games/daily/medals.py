"""Medals against par, and a daily's difficulty (docs/rules.md, "Par and medals").

A certified daily keeps its par: the move count of the winning line the solver found
before the day opened.  A won attempt earns gold within 10% over par, silver within 30%,
bronze for any other win; a move count under par is gold too (the solver's line is a
good one, not the shortest).  Moves are those on the table at the win, as the board shows
them (a move taken back does not count).  A deal with no par (not certified, or not a
daily) gives no medal.
"""

from __future__ import annotations

from games.engine import GAMES

GOLD, SILVER, BRONZE = "gold", "silver", "bronze"
# Share of par a win may go over and keep the medal: gold, then silver.
GOLD_OVER, SILVER_OVER = 0.10, 0.30


def medal(won: bool, moves: int | None, par: int | None) -> str | None:
    """gold, silver or bronze for a win against ``par``; None for no win or no par."""
    if not won or not par or moves is None:
        return None
    if moves <= par * (1 + GOLD_OVER):
        return GOLD
    if moves <= par * (1 + SILVER_OVER):
        return SILVER
    return BRONZE


EASY, MEDIUM, HARD = "easy", "medium", "hard"


def difficulty(game: str, par: int | None, effort: int | None) -> str | None:
    """easy, medium or hard from the certifying search's effort (positions looked at) per
    move of par, against the game's own thresholds (``effort_per_move``); None unknown."""
    if not par or not effort:
        return None
    easy, hard = GAMES[game].effort_per_move
    per_move = effort / par
    if per_move <= easy:
        return EASY
    return MEDIUM if per_move <= hard else HARD
