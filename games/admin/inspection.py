"""What operators do to a stored session (docs/architecture.md, Operators): replay,
re-validate, timing, disqualify.

Every operator action leaves an AuditEntry; nothing here edits the move list.
"""

from __future__ import annotations

import datetime as dt
import statistics
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import signals
from games.engine import IllegalMove, new_game
from games.engine.cards import CODE
from games.engine.undo import is_undo
from games.fairplay.review import decisions
from games.models import AuditEntry, GameSession
from games.play.outcome import time_bonus


@dataclass
class Step:
    index: int  # 0 = the deal, before any move
    token: str
    at_ms: int | None
    gap_ms: int | None
    score: int | None
    cards_up: int
    error: str | None = None
    clock: str = ""  # at_ms as the time of day, in the admin's time zone
    since: str = ""  # at_ms as the time since the deal was shown


def clock(at_ms: int) -> str:
    """A stored move's server time as a reader takes it in: date and time to the ms."""
    moment = timezone.localtime(dt.datetime.fromtimestamp(at_ms / 1000, tz=dt.UTC))
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{at_ms % 1000:03d}"


def since(at_ms: int, start_ms: int) -> str:
    """The time from ``start_ms`` (the deal shown) to ``at_ms``: +m:ss.mmm, or +h:mm:ss.mmm."""
    sign, ms = ("-", start_ms - at_ms) if at_ms < start_ms else ("+", at_ms - start_ms)
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    head = f"{hours}:{minutes:02d}" if hours else f"{minutes}"
    return f"{sign}{head}:{seconds:02d}.{millis:03d}"


def shown_ms(session: GameSession) -> int:
    """When the deal was first shown (the session's creation): the clock's start."""
    return int(session.created_at.timestamp() * 1000)


def move_rows(session: GameSession) -> list[tuple[int, str, str, str, int | None, int]]:
    """Each stored move: number, token, time of day, time since the deal was shown, gap
    since the move before (ms) and the raw server time (ms since the epoch)."""
    start, previous = shown_ms(session), None
    rows: list[tuple[int, str, str, str, int | None, int]] = []
    for i, (token, at, *_) in enumerate(session.moves, start=1):
        rows.append(
            (
                i,
                token,
                clock(at),
                since(at, start),
                at - previous if previous is not None else None,
                at,
            )
        )
        previous = at
    return rows


def replay_steps(
    session: GameSession, hide_hidden: bool = False
) -> tuple[list[Step], list[dict[str, Any]]]:
    """Each stored move re-applied in turn: the steps and, per step, the full table
    (hidden cards included: this is for operators only; ``hide_hidden`` draws face-down
    cards and the stock as their backs, for a deal still sealed: games/admin/deals.py).
    Stops at the first bad move."""
    g = new_game(session.game, session.deal.seed, session.scored_by)
    steps = [Step(0, "", None, None, g.score if g.has_score else None, g.cards_up)]
    tables = [_table(g, hide_hidden)]
    previous: int | None = None
    for i, (token, at_ms, *_) in enumerate(session.moves, start=1):
        gap = at_ms - previous if previous is not None else None
        previous = at_ms
        try:
            if is_undo(token):
                g.undo()
            else:
                g.play(token)
        except IllegalMove as exc:
            steps.append(Step(i, token, at_ms, gap, None, g.cards_up, error=str(exc)))
            tables.append(_table(g, hide_hidden))
            break
        steps.append(Step(i, token, at_ms, gap, g.score if g.has_score else None, g.cards_up))
        tables.append(_table(g, hide_hidden))
    start = shown_ms(session)
    for step in steps:
        if step.at_ms is not None:
            step.clock, step.since = clock(step.at_ms), since(step.at_ms, start)
    return steps, tables


HIDDEN = "??"  # a card drawn by its back


def _table(g: Any, hide_hidden: bool = False) -> dict[str, Any]:
    piles = []
    for i, p in enumerate(g.tab):
        down = g.down[i]
        piles.append(
            [
                {"code": HIDDEN if hide_hidden and k < down else CODE[c], "down": k < down}
                for k, c in enumerate(p)
            ]
        )
    return {
        "tableau": piles,
        "cells": [CODE[c] if c >= 0 else "" for c in g.cells],
        "foundations": {s: g.found[n] for n, s in enumerate("CDHS")},
        "stock": [HIDDEN if hide_hidden else CODE[c] for c in g.stock],
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
        session=session,
        actor=actor,
        action="revalidate",
        reason="match" if result["matches"] else "mismatch",
        data=result,
    )
    return result


def disqualify(
    session: GameSession, actor: Any, reason: str, action: str = "disqualify"
) -> GameSession:
    """Take a session off every board, with a reason (audited).  One operation wherever it
    is pressed (the session page, the review queue): a won attempt's review ends as
    disqualified too, so the player's win panel and profile say so and the session leaves
    the review queue; the boards follow (``signals.session_disqualified``)."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a disqualification needs a reason")
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        locked.disqualified, locked.disqualified_reason = True, reason
        fields = ["disqualified", "disqualified_reason"]
        if locked.status == GameSession.WON:
            locked.review, locked.verified = "disqualified", False
            fields += ["review", "verified"]
        locked.save(update_fields=fields)
        AuditEntry.objects.create(
            session=locked,
            actor=actor,
            action=action,
            reason=reason,
            data={"reasons": locked.review_reasons},
        )
    return _told(locked, reviewed=locked.status == GameSession.WON)


def reinstate(
    session: GameSession, actor: Any, reason: str, action: str = "reinstate"
) -> GameSession:
    """Put a session back on the boards (audited).  A won attempt is then an operator's
    cleared win: it leaves the review queue and reads as verified."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a reinstatement needs a reason")
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        was = locked.disqualified
        locked.disqualified, locked.disqualified_reason = False, ""
        fields = ["disqualified", "disqualified_reason"]
        if locked.status == GameSession.WON:
            locked.review, locked.verified = "cleared", True
            fields += ["review", "verified"]
        locked.save(update_fields=fields)
        AuditEntry.objects.create(
            session=locked,
            actor=actor,
            action=action,
            reason=reason,
            data={"reasons": locked.review_reasons},
        )
    return _told(locked, reviewed=locked.status == GameSession.WON, boards=was)


def decide_review(session: GameSession, actor: Any, verdict: str, reason: str) -> GameSession:
    """An operator's decision on a win under review: ``clear`` makes it verified,
    ``disqualify`` takes it off every board: the same operations as the session page's,
    audited as review decisions."""
    if verdict == "clear":
        return reinstate(session, actor, reason, action="review_clear")
    if verdict == "disqualify":
        return disqualify(session, actor, reason, action="review_disqualify")
    raise ValueError("decide clear or disqualify")


def _told(session: GameSession, reviewed: bool, boards: bool = True) -> GameSession:
    """Tell the boards (the entry's review state, the rank index, a closed day's final
    ranks) once the change is stored."""
    fresh = GameSession.objects.select_related("deal", "player").get(pk=session.pk)
    if reviewed:
        signals.session_reviewed.send(GameSession, session=fresh)
    if boards:
        signals.session_disqualified.send(GameSession, session=fresh)
    return fresh


def gap_chart(session: GameSession, width: int = 600, height: int = 120) -> str:
    """The gaps between the player's operations over the game, as an SVG polyline: a
    person's line is ragged and tall, a script's flat along the bottom."""
    shown = shown_ms(session)
    stamps = decisions(session)
    gaps = [b - a for a, b in zip([shown, *stamps], stamps, strict=False)]
    if len(gaps) < 2:
        return ""
    top = max(min(max(gaps), 10_000), 1)
    step = width / (len(gaps) - 1)
    points = " ".join(
        f"{i * step:.1f},{height - min(g, top) / top * height:.1f}" for i, g in enumerate(gaps)
    )
    return (
        f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="gaps between moves, up to {top} ms">'
        f'<polyline fill="none" stroke="currentColor" points="{points}"/></svg>'
    )
