"""Practice games played offline (in the browser, on the engine running in Pyodide), stored
when they are uploaded: replayed here with the engine, move by move, before anything is
written, and stored as a practice session (docs/api.md, "Offline games").

What the server trusts of an upload: nothing but the move list, replayed from the deal the
seed gives.  A game played offline cannot be ranked (its deal was dealt in the browser, so
its player saw every card), cannot be a daily (a daily's seed is refused: its deal is
played on the server only), and carries no time (the server did not see it played).
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.daily import deals as daily
from games.engine import GAMES, Game, ReplayError, new_game
from games.engine.record import positions
from games.engine.undo import is_undo, stored
from games.errors import BadRequest, DealError, Refused
from games.models import Deal, GameSession, Player
from games.play.outcome import MAX_MOVES

CLIENT_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")
SEED_DIGITS = 90  # a version 2 seed has 78 digits


def _seed(game: str, seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise BadRequest("seed must be the deal's seed, as a string of digits")
    if isinstance(seed, str) and not (
        seed.isascii() and seed.isdigit() and len(seed) <= SEED_DIGITS
    ):
        raise BadRequest("seed must be the deal's seed, as a string of digits")
    number = int(seed)
    try:
        new_game(game, number)  # the engine says whether this game deals from it
    except ValueError as exc:
        raise BadRequest(f"seed: {exc}") from None
    return number


def _replay(game: str, seed: int, moves: list[str]) -> Game:
    try:
        # The last table the moves leave (a deque of one keeps it without a loop variable).
        last = deque(positions(game, seed, moves), maxlen=1)
    except ReplayError as exc:
        # 422 as a refused move is, with ``seq`` the index of the move refused.
        raise Refused(exc.reason, exc.index) from None
    return last[0] if last else new_game(game, seed)


def _deal(game: str, seed: int) -> Deal:
    deal = daily.deal_row(game, seed)
    if deal.date is not None:
        raise DealError("a daily deal is played on the server only; its seed cannot be uploaded")
    return deal


def store(
    player: Player, data: dict[str, Any], client: tuple[str, str] = ("", "")
) -> tuple[GameSession, bool]:
    """The stored session for an uploaded game, and whether it was stored just now (False:
    this client id was uploaded before, and that session is the answer)."""
    game, moves, offline_id = data["game"], data["moves"], data["client"]
    if game not in GAMES:
        raise DealError(f"unknown game; games: {', '.join(GAMES)}")
    if not CLIENT_RE.fullmatch(offline_id):
        raise BadRequest("client must be 1 to 40 letters, digits, '-' or '_' (one id per game)")
    before = GameSession.objects.filter(player=player, offline_id=offline_id).first()
    if before is not None:
        return before, False
    seed = _seed(game, data["seed"])
    if not moves:
        raise BadRequest("moves: a game needs at least one move")
    if len(moves) > MAX_MOVES:
        raise BadRequest(f"moves: a game holds at most {MAX_MOVES} moves")
    # Refused before the deal is looked up or made, so a bad upload writes nothing at all.
    if Deal.objects.filter(game=game, seed=seed, date__isnull=False).exists():
        raise DealError("a daily deal is played on the server only; its seed cannot be uploaded")
    g = _replay(game, seed, moves)
    now = timezone.now()
    stamp = int(now.timestamp() * 1000)
    session = GameSession(
        player=player,
        deal=_deal(game, seed),
        game=game,
        ranked=False,
        scoring=GAMES[game].scoring,
        status=GameSession.WON if g.won else GameSession.RESIGNED,
        seq=len(moves),
        # The engine's score without the time bonus: the server never saw the clock.
        score=g.score if g.has_score else None,
        cards_up=g.cards_up,
        move_count=g.moves,
        undo_count=sum(1 for t in moves if is_undo(t)),
        started_at=now,
        finished_at=now,
        offline_id=offline_id,
        client_key=client[0],
        device_key=client[1],
    )
    # Stored as a session played here holds them, an undo as "u" however it was spelt, so
    # every reader of the list (the review's timing, the line shared) reads it alike.
    session.moves = [[stored(token), stamp] for token in moves]
    try:
        with transaction.atomic():
            session.save()
    except IntegrityError:  # the same upload, stored by a request that ran alongside
        return GameSession.objects.get(player=player, offline_id=offline_id), False
    return session, True
