"""Fair-play review of a ranked win: the signals kept with it and the verdict they give.

Every ranked win is *verified* or *under review*.  The scoring task (leaderboards.tasks)
calls ``review`` once the win is stored; what crosses a threshold (``settings.REVIEW``,
documented in docs/rules.md, "Fair play") is pending until an operator clears or
disqualifies it in the admin's review queue.

The signals read only what the server measured itself: the stored moves with their server
times, the moment the deal was first shown (the session's creation), undo and hint counts,
the solver's own line, and other players' earlier attempts from the same address or
device.  Moves made after the table could be finished (the finish sends cards up
mechanically, one every hundred milliseconds) are left out of the timing signals: they are
not a player's decisions.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext_noop

from games.engine import HIDDEN_CARD_GAMES, IllegalMove, endgame, new_game
from games.engine.piles import STOCK
from games.engine.undo import is_undo
from games.fairplay import line_share
from games.models import GameSession

SIGNALS_VERSION = 2  # 2: the line share by position (games/fairplay/line_share.py)


@dataclass(frozen=True)
class Thresholds:
    fast_gap_ms: int  # a gap shorter than this is faster than a person decides
    max_fast_share: float  # more than this share of fast gaps: under review
    min_median_gap_ms: int  # a median gap below this: under review
    min_first_move_ms: int  # a first move sooner than this after the deal was shown
    max_line_share: float  # this share or more of the moves on the solver's own line

    @classmethod
    def from_settings(cls) -> Thresholds:
        r = settings.REVIEW
        return cls(
            int(r["fast_gap_ms"]),
            float(r["max_fast_share"]),
            int(r["min_median_gap_ms"]),
            int(r["min_first_move_ms"]),
            float(r["max_line_share"]),
        )


# The sentence a player reads for each reason, translated where it is shown.
REASONS = {
    "fast_gaps": gettext_noop("moves faster than a person can play"),
    "median_gap": gettext_noop("a steady pace faster than a person can keep"),
    "first_move": gettext_noop("the first move came before the table could be read"),
    "solver_line": gettext_noop("the moves follow the solver's own line"),
    "linked": gettext_noop(
        "another attempt at this deal from the same address, device or person came first"
    ),
}


def decisions(session: GameSession, table_moves_only: bool = False) -> list[int]:
    """The server times (ms) of the player's own operations: each stored move up to the
    point where the table could be finished (a batch stored with one time counts once).
    ``table_moves_only`` leaves out touches of the stock: a person can tap through the
    stock as fast as a script, so those gaps say nothing about who decides."""
    g = new_game(session.game, session.deal.seed)
    stamps: list[int] = []
    for token, at, *_ in session.moves:
        if endgame.finish_wins(g):
            break
        try:
            move = g.undo() if is_undo(token) else g.play(token)
        except IllegalMove:
            break  # re-validation reports it; the timing before it still stands
        stock = move is not None and STOCK in move[:2]
        if (not stamps or at != stamps[-1]) and not (table_moves_only and stock):
            stamps.append(at)
    return stamps


def linked_attempts(session: GameSession) -> list[dict[str, Any]]:
    """Other players' attempts at this deal, begun earlier, from this address or device;
    and the same person's other ranked attempt that a guest merge joined to this one (a
    guest's look at the deal, then a sign-in: one person, two looks)."""
    return _other_players(session) + _merged(session)


def _other_players(session: GameSession) -> list[dict[str, Any]]:
    keys = {k for k in (session.client_key, session.device_key) if k}
    if not keys:
        return []
    # Matched in the query (the client_key and device_key indexes): a day's deal has up to
    # millions of attempts, and reading every earlier one made each review, the scoring
    # task's and the close's, take seconds at a hundred thousand.
    earlier = GameSession.objects.filter(
        Q(client_key__in=keys) | Q(device_key__in=keys),
        deal_id=session.deal_id,
        created_at__lt=session.created_at,
    ).exclude(player_id=session.player_id)
    found = list(earlier.only("id", "player_id", "client_key", "device_key", "created_at"))
    return [
        {
            "session": str(s.pk),
            "player": s.player_id,
            "same": "device" if s.device_key and s.device_key == session.device_key else "address",
            "created_at": s.created_at.isoformat(),
        }
        for s in found
    ]


def _merged(session: GameSession) -> list[dict[str, Any]]:
    """Attempts at this deal that were another ranked attempt of this person until a merge
    demoted them (games/accounts/merge.py), opened before this one was finished: whatever
    they showed, this attempt could have used."""
    merged = (
        GameSession.objects.filter(
            deal_id=session.deal_id,
            player_id=session.player_id,
            audit__action="merge_demoted",
        )
        .exclude(pk=session.pk)
        .distinct()
    )
    if session.finished_at is not None:
        merged = merged.filter(created_at__lt=session.finished_at)
    return [
        {
            "session": str(s.pk),
            "player": s.player_id,
            "same": "merged",
            "created_at": s.created_at.isoformat(),
        }
        for s in merged.only("id", "player_id", "created_at")
    ]


def timing(session: GameSession) -> dict[str, Any]:
    """The signals read from the stored moves alone (no database work)."""
    thresholds = Thresholds.from_settings()
    shown = int(session.created_at.timestamp() * 1000)
    stamps = decisions(session)
    first = stamps[0] - shown if stamps else None
    table = decisions(session, table_moves_only=True)
    between = [b - a for a, b in zip(table, table[1:], strict=False)]
    tokens = session.tokens
    line = session.deal.line or []
    on_line = line_share.share(
        session.game,
        int(session.deal.seed),
        tokens,
        line,
        solve=_solver(session.game),
        samples=settings.REVIEW_SOLVES,
    )
    return {
        "version": SIGNALS_VERSION,
        "decisions": len(stamps),
        "first_move_ms": first,
        "fastest_gap_ms": min(between) if between else None,
        "median_gap_ms": int(statistics.median(between)) if between else None,
        "p10_gap_ms": int(_quantile(between, 0.1)) if between else None,
        "fast_share": round(sum(g < thresholds.fast_gap_ms for g in between) / len(between), 3)
        if between
        else 0.0,
        "ms_per_move": int(session.time_ms / len(tokens)) if session.time_ms and tokens else None,
        "line_share": on_line,
        "undos": session.undo_count,
        "hints": session.hint_count,
    }


def _solver(game: str) -> line_share.Solver | None:
    """The solver's line from any position of a game with no hidden card (a player can run
    it from anywhere); None for a game that hides cards, whose hidden cards a player's
    solver could not know during the day."""
    if game in HIDDEN_CARD_GAMES or settings.REVIEW_SOLVES <= 0:
        return None
    from games.engine.solver import SOLVED, Budget, solve

    def run(g: Any) -> list[str] | None:
        # A cap in states, not seconds: the same game gives the same signals every time.
        r = solve(g, Budget(60.0, settings.REVIEW_SOLVE_STATES))
        return list(r.moves) if r.status == SOLVED else None

    return run


def signals(session: GameSession) -> dict[str, Any]:
    return {**timing(session), "linked": linked_attempts(session)}


def _quantile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def verdict(found: dict[str, Any], thresholds: Thresholds | None = None) -> list[str]:
    """The reasons (keys of REASONS) a win goes under review; none: verified."""
    t = thresholds or Thresholds.from_settings()
    reasons = []
    if found["decisions"] >= 5 and found["fast_share"] > t.max_fast_share:
        reasons.append("fast_gaps")
    if (
        found["median_gap_ms"] is not None
        and found["decisions"] >= 5
        and found["median_gap_ms"] < t.min_median_gap_ms
    ):
        reasons.append("median_gap")
    if found["first_move_ms"] is not None and found["first_move_ms"] < t.min_first_move_ms:
        reasons.append("first_move")
    if found["line_share"] is not None and found["line_share"] >= t.max_line_share:
        reasons.append("solver_line")
    if found["linked"]:
        reasons.append("linked")
    return reasons


def review(session: GameSession) -> GameSession:
    """Compute and keep the signals and the verdict of a won ranked session.  An
    operator's decision (cleared, disqualified) is never overturned by a recomputation."""
    found = signals(session)
    reasons = verdict(found)
    fields: dict[str, Any] = {"signals": found, "review_reasons": reasons}
    if session.review not in ("cleared", "disqualified"):
        fields["review"] = "pending" if reasons else ""
        fields["verified"] = not reasons
    GameSession.objects.filter(pk=session.pk).update(**fields)
    for name, value in fields.items():
        setattr(session, name, value)
    return session
