"""What operators do to a stored session (docs/architecture.md, Operators): replay,
re-validate, timing, disqualify.

Every operator action leaves an AuditEntry; nothing here edits the move list.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.engine import IllegalMove, new_game
from games.engine.cards import CODE
from games.engine.record import UNDO_TOKENS
from games.models import AuditEntry, GameSession
from games.play.outcome import time_bonus
from games.review import decisions


@dataclass
class Step:
    index: int  # 0 = the deal, before any move
    token: str
    at_ms: int | None
    gap_ms: int | None
    score: int | None
    cards_up: int
    error: str | None = None


def replay_steps(session: GameSession) -> tuple[list[Step], list[dict[str, Any]]]:
    """Each stored move re-applied in turn: the steps and, per step, the full table
    (hidden cards included: this is for operators only).  Stops at the first bad move."""
    g = new_game(session.game, session.deal.seed, session.scored_by)
    steps = [Step(0, "", None, None, g.score if g.has_score else None, g.cards_up)]
    tables = [_table(g)]
    previous: int | None = None
    for i, (token, at_ms, *_) in enumerate(session.moves, start=1):
        gap = at_ms - previous if previous is not None else None
        previous = at_ms
        try:
            if token.strip().lower() in UNDO_TOKENS:
                g.undo()
            else:
                g.play(token)
        except IllegalMove as exc:
            steps.append(Step(i, token, at_ms, gap, None, g.cards_up, error=str(exc)))
            tables.append(_table(g))
            break
        steps.append(Step(i, token, at_ms, gap, g.score if g.has_score else None, g.cards_up))
        tables.append(_table(g))
    return steps, tables


def _table(g: Any) -> dict[str, Any]:
    piles = []
    for i, p in enumerate(g.tab):
        down = g.down[i]
        piles.append([{"code": CODE[c], "down": k < down} for k, c in enumerate(p)])
    return {
        "tableau": piles,
        "cells": [CODE[c] if c >= 0 else "" for c in g.cells],
        "foundations": {s: g.found[n] for n, s in enumerate("CDHS")},
        "stock": [CODE[c] for c in g.stock],
        "waste": [CODE[c] for c in g.waste],
    }


def timing_signals(session: GameSession) -> dict[str, Any]:
    stamps = [m[1] for m in session.moves]
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    return {
        "moves_stored": len(stamps),
        "fastest_gap_ms": min(gaps) if gaps else None,
        "median_gap_ms": int(statistics.median(gaps)) if gaps else None,
        "undo_count": session.undo_count,
        "hint_count": session.hint_count,
        "time_ms": session.time_ms,
    }


def revalidate(session: GameSession, actor: Any) -> dict[str, Any]:
    """Replay the whole move list and compare with what is stored; the verdict is audited."""
    steps, _ = replay_steps(session)
    bad = next((s for s in steps if s.error), None)
    last = steps[-1]
    g_score = last.score
    won = last.cards_up == 52 and bad is None
    expected_score = g_score
    if won and g_score is not None and session.time_ms is not None:
        expected_score = g_score + time_bonus(session.game, session.time_ms / 1000)
    result: dict[str, Any] = {
        "ok": bad is None,
        "error": {"index": bad.index - 1, "move": bad.token, "reason": bad.error} if bad else None,
        "replayed_cards_up": last.cards_up,
        "stored_cards_up": session.cards_up,
        "replayed_score": expected_score,
        "stored_score": session.score,
        "replayed_won": won,
        "stored_won": session.status == GameSession.WON,
    }
    result["matches"] = bool(
        result["ok"]
        and result["replayed_cards_up"] == result["stored_cards_up"]
        and result["replayed_score"] == result["stored_score"]
        and result["replayed_won"] == result["stored_won"]
    )
    AuditEntry.objects.create(
        session=session, actor=actor, action="revalidate",
        reason="match" if result["matches"] else "mismatch", data=result,
    )
    return result


@transaction.atomic
def disqualify(session: GameSession, actor: Any, reason: str) -> None:
    reason = reason.strip()
    if not reason:
        raise ValueError("a disqualification needs a reason")
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    locked.disqualified = True
    locked.disqualified_reason = reason
    locked.save(update_fields=["disqualified", "disqualified_reason"])
    AuditEntry.objects.create(session=locked, actor=actor, action="disqualify", reason=reason)


@transaction.atomic
def reinstate(session: GameSession, actor: Any, reason: str) -> None:
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    locked.disqualified = False
    locked.save(update_fields=["disqualified"])
    AuditEntry.objects.create(session=locked, actor=actor, action="reinstate", reason=reason)


@transaction.atomic
def decide_review(session: GameSession, actor: Any, verdict: str, reason: str) -> None:
    """An operator's decision on a win under review: ``clear`` makes it verified,
    ``disqualify`` takes it off every board.  Both need a reason and are audited."""
    if verdict not in ("clear", "disqualify"):
        raise ValueError("decide clear or disqualify")
    reason = reason.strip()
    if not reason:
        raise ValueError("a review decision needs a reason")
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if verdict == "disqualify":
        locked.disqualified, locked.disqualified_reason = True, reason
    locked.review = "cleared" if verdict == "clear" else "disqualified"
    locked.verified = verdict == "clear"
    locked.save(update_fields=["review", "verified", "disqualified", "disqualified_reason"])
    AuditEntry.objects.create(session=locked, actor=actor, action=f"review_{verdict}",
                              reason=reason, data={"reasons": locked.review_reasons})


def gap_chart(session: GameSession, width: int = 600, height: int = 120) -> str:
    """The gaps between the player's operations over the game, as an SVG polyline: a
    person's line is ragged and tall, a script's flat along the bottom."""
    shown = int(session.created_at.timestamp() * 1000)
    stamps = decisions(session)
    gaps = [b - a for a, b in zip([shown, *stamps], stamps, strict=False)]
    if len(gaps) < 2:
        return ""
    top = max(min(max(gaps), 10_000), 1)
    step = width / (len(gaps) - 1)
    points = " ".join(f"{i * step:.1f},{height - min(g, top) / top * height:.1f}"
                      for i, g in enumerate(gaps))
    return (f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-label="gaps between moves, up to {top} ms">'
            f'<polyline fill="none" stroke="currentColor" points="{points}"/></svg>')
