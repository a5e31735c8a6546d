"""The answer after any operation, over HTTP and the socket alike (the public shape in
docs/api.md, plus the session's counters)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.utils.translation import gettext

from games.daily import medals
from games.engine import Game, endgame, seen
from games.fairplay.review import REASONS
from games.models import GameSession
from games.play import analysis_cache, verdicts
from games.play.outcome import Outcome


def _shared_verdict(daily: analysis_cache.Daily, g: Game) -> bool:
    """The dead-end verdict of ``g`` as ``endgame.settle`` gives it, another table's when
    one of the daily's settled it already; left on ``g`` as its own search would be."""
    found = analysis_cache.dead_end(daily, g)
    if found is None:
        found = endgame.settle(verdicts.detached(g))
        analysis_cache.keep_dead_end(daily, g, *found)
    endgame.remember(g, found[1])
    return found[0]


def state(outcome: Outcome, within: float | None = None) -> dict[str, Any]:
    """The answer after any operation: docs/api.md's shape plus the session's counters.

    ``within``: the seconds the dead-end verdict may take (the socket's event loop gives it
    a fraction of a millisecond).  When that is not enough the answer says False, as it
    would of a verdict still open, and ``outcome.unsettled`` is set: the caller has the
    verdict settled off the loop (``games.play.verdicts``) and says when it is a dead end."""
    session, g = outcome.session, outcome.game
    deal = session.deal  # once: each read goes through the relation's descriptor
    # A full verdict on a daily: first what fits the loop's share, then the verdict another
    # table of the deal settled (analysis_cache), and only then the search, kept for others.
    daily = analysis_cache.daily_of(deal) if within is None else None
    st = seen.state(g, settings.DEAD_END_LOOP_MS / 1000 if daily is not None else within)
    if st["no_legal_move"] is None and daily is not None:
        st["no_legal_move"] = _shared_verdict(daily, g)
    if st["no_legal_move"] is None:
        outcome.unsettled = True
        st["no_legal_move"] = False
    out: dict[str, Any] = {
        "id": str(session.id),
        "game": session.game,
        "deal": deal.public_id,
        "date": deal.date.isoformat() if deal.date else None,
        "seq": session.seq,
        "status": session.status,
        "ranked": session.ranked,
        "view": st["view"],
        "legal_moves": st["legal_moves"],
        "score": session.score,
        "cards_up": st["cards_up"],
        "moves": st["moves"],
        "won": st["won"],
        "can_finish": st["can_finish"],
        "no_legal_move": st["no_legal_move"],
        "can_undo": st["can_undo"] and session.status == GameSession.PLAYING,
        "undo_count": session.undo_count,
        "hint_count": session.hint_count,
        "time_ms": session.time_ms,
        # The ranked clock: from the deal being shown, measured here, so the table can show
        # the figure that ranks whatever the player's own clock says.
        "clock_ms": session.time_ms
        if session.time_ms is not None
        else max(0, int((dt.datetime.now(dt.UTC) - session.created_at).total_seconds() * 1000)),
        "created_at": session.created_at.isoformat(),
        "started_at": session.started_at.isoformat() if session.started_at else None,
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
    }
    out["par"] = deal.par
    out["difficulty"] = medals.difficulty(session.game, deal.par, deal.effort)
    out["medal"] = medals.medal(st["won"], st["moves"], deal.par)
    if session.status == GameSession.WON:
        out["active_ms"] = session.active_ms
        out["review"] = {
            "verified": session.verified,
            "state": session.review or ("pending" if session.verified is None else "none"),
            "reasons": [gettext(REASONS.get(r, r)) for r in session.review_reasons],
        }
    if g.public_deal_numbers:
        out["deal_number"] = deal.seed  # a number players know (FreeCell)
    if outcome.op is not None:
        out["op"] = outcome.op
    if outcome.repeated:
        out["repeated"] = True
    if outcome.hint_source is not None:
        # The hint is one of the legal moves, given as that entry itself (its "best" mark
        # included), so a client can find it in the list by equality.
        hint = outcome.hint
        if isinstance(hint, dict):
            hint = next((m for m in out["legal_moves"] if m["move"] == hint.get("move")), hint)
        out["hint"] = hint
        out["source"] = outcome.hint_source
        out["verdict"] = {"solver": "solved", "unsolvable": "unsolvable"}.get(
            outcome.hint_source, "unknown"
        )
    return out
