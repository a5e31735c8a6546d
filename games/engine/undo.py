"""Undo, decided in one place: which token takes the previous move back, and which move
only reverses the one before it.

A move list holds undos among the moves (``record``): the token ``u`` or ``undo``, in any
case, spaces around it ignored, is an undo, and it is stored as ``u``.  Every reader of a
move list -- replay, the locked and the optimistic store, an uploaded offline game, the
admin's re-validation, the post-game analysis -- asks ``is_undo`` rather than comparing
tokens itself, so a list that replays here is read the same everywhere.

``undoes`` is about moves, not tokens: a move that puts back what the previous move did.
Taps rank such a move last; a hint never makes it (its position is the one before).

>>> is_undo("u"), is_undo(" UNDO "), is_undo("u1"), stored("Undo"), stored("3a")
(True, True, False, 'u', '3a')
"""

from __future__ import annotations

from .game import Game, IllegalMove
from .piles import CELL, FOUNDATION, STOCK, WASTE, Move, Pile

UNDO = "u"  # how an undo is stored in a move list
TOKENS = frozenset({"u", "undo"})  # read with is_undo: the case and spaces do not count


def is_undo(token: str) -> bool:
    """Does ``token`` take the previous move back (rather than name a move)?"""
    return token.strip().lower() in TOKENS


def stored(token: str) -> str:
    """``token`` as a move list keeps it: an undo as ``u``, a move as sent."""
    return UNDO if is_undo(token) else token


def previous_move(game: Game) -> Move | None:
    return game.history[-1][0] if game.history else None


def undoes(move: Move, prev: Move | None) -> bool:
    """Does ``move``, played right after ``prev``, only take ``prev`` back: the very cards
    ``prev`` moved (as many, from the pile it put them on: the top of a column, the one
    free cell it filled) back to the pile they came from (any free cell, when it was one)?"""
    if prev is None:
        return False
    src, dst, n = move
    ps, pd, pn = prev
    if STOCK in (src, dst, ps, pd) or WASTE in (ps, pd) and WASTE in (src, dst) and n > 1:
        return False  # turning the stock is never "taking a move back"

    def norm(p: Pile) -> Pile:  # which free cell they go back to does not matter
        return CELL if CELL <= p < FOUNDATION else p

    # The source must be exactly where ``prev`` put its cards: another free cell holds
    # another card, and moving that one is a new move.
    return n == pn and src == pd and norm(dst) == norm(ps)


def reverses(game: Game, token: str) -> bool:
    """Does ``token``, played now, only take the previous move back?  An undo token does by
    definition; a move does when it puts back what the last move did (``undoes``); a token
    that is no move here does not."""
    if is_undo(token):
        return previous_move(game) is not None
    try:
        move = game.parse(token)
    except IllegalMove:
        return False
    return undoes(move, previous_move(game))
