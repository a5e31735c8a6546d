"""Where did I lose? (docs/rules.md, "Where was it lost?"): the turning point of a finished
or resigned game, found by the solver in a worker (``analyse_session``, below) and kept
on the session.

A full-information game (FreeCell, Baker's Dozen) is analysed as soon as it is over.  A
game with hidden cards is analysed with every card known, which would tell whoever is
still playing the same daily where its hidden cards lie: a daily of the Klondike family is
analysed only once its day is closed and its seed revealed.  Only its player may ask:
each analysis is a worker's time.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.engine import HIDDEN_CARD_GAMES, IllegalMove, new_game, replay, seen
from games.engine.solver.turning import turning_point
from games.errors import BadRequest
from games.models import GameSession
from games.play import analysis_cache

log = logging.getLogger(__name__)
REQUEUE_AFTER = dt.timedelta(minutes=10)  # a pending analysis whose task was lost


def _waits_for_close(session: GameSession) -> bool:
    deal = session.deal
    return session.game in HIDDEN_CARD_GAMES and deal.date is not None and deal.revealed_at is None


def answer(session: GameSession) -> dict[str, Any]:
    """The analysis as it stands, asking a worker for it the first time (idempotent)."""
    if session.status == GameSession.PLAYING:
        raise BadRequest("a game is analysed once it is over: win, or resign it first")
    base = {"par": session.deal.par, "full_knowledge": session.game in HIDDEN_CARD_GAMES}
    if _waits_for_close(session):
        return {
            **base,
            "status": "pending",
            "waiting_for": "the day's close: the analysis "
            "knows every card, so it waits until no one is playing this deal",
        }
    current = session.analysis
    stale = timezone.now() - REQUEUE_AFTER
    if current is None or (
        current.get("status") == "pending" and current.get("queued_at", "") < stale.isoformat()
    ):
        queued = {"status": "pending", "queued_at": timezone.now().isoformat()}
        # One request queues it: the row says pending before the task is sent.
        claim = GameSession.objects.filter(pk=session.pk).filter(
            Q(analysis__isnull=True)
            | Q(analysis__status="pending", analysis__queued_at__lt=stale.isoformat())
        )
        if claim.update(analysis=queued):
            try:
                # Its own queue and worker: never ahead of a win's scoring.
                analyse_session.apply_async((str(session.pk),), queue=settings.ANALYSIS_QUEUE)
            except Exception as exc:  # noqa: BLE001 - the broker is down: asked again later
                log.warning("analysis not queued, broker unavailable: %s", exc)
        session.refresh_from_db(fields=["analysis"])
        current = session.analysis or queued
    out = {**base, **current}
    out.pop("queued_at", None)
    if out.get("status") == "done":
        out.update(_worded(session, out))
    return out


# Named as when it lived in games/tasks.py: a message an earlier release queued still finds it.
@shared_task(name="games.tasks.analyse_session", acks_late=True)
def analyse_session(session_id: str) -> str | None:
    """Find where a finished game was lost and keep it on the session; a game already
    analysed is left as it is."""
    session = GameSession.objects.select_related("deal").filter(pk=session_id).first()
    if session is None or (session.analysis or {}).get("status") in {"done", "unknown"}:
        return None
    found = analyse(session)
    GameSession.objects.filter(pk=session.pk).update(analysis=found)
    return str(found["status"])


def _worded(session: GameSession, found: dict[str, Any]) -> dict[str, Any]:
    """The losing move and the alternative as move objects (docs/api.md, Move objects): the
    card and the piles, so a page says "moving the 3 of clubs to free cell 1" in its own
    language rather than a move code.  Read from the table where they were played, which
    the player saw (the analysis is answered once the game is over)."""
    tokens = session.tokens
    at = found.get("turning_point")
    upto = len(tokens) if at is None else at
    try:
        g = replay(session.game, int(session.deal.seed), tokens[:upto], session.scored_by)
        out: dict[str, Any] = {}
        for key, token in (
            ("losing", found.get("losing_move")),
            ("alternative", found.get("winning_alternative")),
        ):
            out[key] = seen.move_object(g, g.parse(token)) if token else None
        return out
    except (IllegalMove, ValueError):  # a record the rules no longer take: codes only
        return {"losing": None, "alternative": None}


def analyse(session: GameSession) -> dict[str, Any]:
    """Run the solver over the stored game (the task's work)."""
    deal = session.deal
    daily = analysis_cache.daily_of(deal)  # its proofs shared with the day's other players
    start = (new_game(session.game, int(deal.seed)), list(deal.line)) if deal.line else None
    found = turning_point(
        session.game,
        int(deal.seed),
        session.tokens,
        settings.ANALYSIS_SECONDS,
        solve_position=analysis_cache.caching_solver(daily, start),
    )
    found["analysed_at"] = timezone.now().isoformat()
    return found
