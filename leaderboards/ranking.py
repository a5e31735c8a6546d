"""The daily board (docs/rules.md, "Ranking order"): scored entries first, then today's unfinished attempts.

Wins are ranked by the entries Celery writes (``leaderboards.tasks.score_session``): the
Klondike family and Baker's Dozen by score (time bonus included), then time, then moves;
FreeCell by time, then moves.  Unfinished ranked attempts follow every win, by cards up
(after the day is closed they have entries too).  Disqualified sessions never appear.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import F

from games import medals
from games.models import Deal, GameSession, Player
from leaderboards import index
from leaderboards.keys import sort_key
from leaderboards.models import Entry


def entry_values(session: GameSession) -> dict[str, Any]:
    """The entry a session deserves now (the same whether computed once or twice)."""
    won = session.status == GameSession.WON
    return {
        "player_id": session.player_id,
        "game": session.game,
        "date": session.deal.date,
        "won": won,
        "score": session.score,
        "time_ms": session.time_ms if won else None,
        "moves": session.move_count,
        "cards_up": session.cards_up,
        "undos": session.undo_count,
        "hints": session.hint_count,
        "active_ms": session.active_ms if won else None,
        "verified": session.verified if won else None,
        "review": session.review if won else "",
        "clean_win": won and session.undo_count == 0 and session.hint_count == 0,
        "sort_key": sort_key(session.game, won, session.score, session.time_ms,
                             session.move_count, session.cards_up),
    }


def day_par(game: str, date: dt.date) -> int | None:
    """The par of a day's deal of ``game`` (None before it is made or when uncertified)."""
    return Deal.objects.filter(game=game, date=date).values_list("par", flat=True).first()


def public_session(player: Player, session_id: Any) -> Any:
    """The session id a board shows others: none for a player who asked to be anonymous in
    the open data (``Player.anonymous``), so that nothing joins its export line, which
    carries an id of its own (leaderboards/export.py), to the name the board shows."""
    return None if player.anonymous else session_id


def _row(rank: int, name: str, v: dict[str, Any], session_id: Any,
         par: int | None) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": name,
        "score": v["score"],
        "time_ms": v["time_ms"],
        "moves": v["moves"],
        "won": v["won"],
        "cards_up": v["cards_up"],
        "undos": v["undos"],
        "hints": v["hints"],
        "session": None if session_id is None else str(session_id),
        "active_ms": v["active_ms"],
        "verified": bool(v["verified"]),
        "review": _review(v),
        "clean": v["clean_win"],
        "medal": medals.medal(v["won"], v["moves"], par),
        "status": v.get("status") or ("won" if v["won"] else "playing"),
    }


def _review(v: dict[str, Any]) -> str:
    """none, pending, cleared or disqualified; a win not checked yet is pending."""
    if v["review"]:
        return str(v["review"])
    return "pending" if v["won"] and v["verified"] is None else "none"


MAX_OFFSET = 10_000  # deeper than any player pages; a bound on the work of one answer


def entries(game: str, date: dt.date, limit: int = 100, offset: int = 0
            ) -> list[dict[str, Any]]:
    """Rows ``offset`` to ``offset + limit`` of the day's board, in rank order."""
    offset = min(max(offset, 0), MAX_OFFSET)
    upto = offset + limit
    scored = list(
        Entry.objects.filter(game=game, date=date, session__disqualified=False,
                             session__ranked=True)
        .select_related("player").annotate(status=F("session__status"))
        .order_by("sort_key", "session_id")[:upto]
    )
    rows: list[tuple[int, str, dict[str, Any], Any, Player]] = [
        (e.sort_key, e.player.display_name, e.__dict__, e.session_id, e.player) for e in scored
    ]
    if len(rows) < upto:
        pending = (
            GameSession.objects.filter(
                deal__game=game, deal__date=date, ranked=True, disqualified=False,
                started_at__isnull=False, entry__isnull=True,
            )
            .select_related("player", "deal").defer("moves")
            .order_by("-cards_up", "move_count", "id")[: upto - len(rows)]
        )
        for s in pending:
            v = entry_values(s)
            v["status"] = s.status
            if v["won"]:
                # Won but not scored yet: shown at once, at its place, by the same key.
                v["score"] = s.score
            rows.append((v["sort_key"], s.player.display_name, v, s.id, s.player))
        rows.sort(key=lambda r: (r[0], str(r[3])))
    par = day_par(game, date)
    return [_row(i, name, v, public_session(player, sid), par)
            for i, (_, name, v, sid, player) in enumerate(rows[offset:upto], start=offset + 1)]


def total(game: str, date: dt.date) -> int:
    """How many rows the day's board has (every page together)."""
    scored = Entry.objects.filter(game=game, date=date, session__disqualified=False,
                                  session__ranked=True).count()
    pending = GameSession.objects.filter(
        deal__game=game, deal__date=date, ranked=True, disqualified=False,
        started_at__isnull=False, entry__isnull=True).count()
    return scored + pending


def own_row(game: str, date: dt.date, player_id: int | None) -> dict[str, Any] | None:
    """The player's own row on the day's board, wherever it is (pinned by the page): a
    win with its rank, or an unfinished attempt with its status; None with no attempt."""
    if player_id is None:
        return None
    session = (GameSession.objects.filter(
        player_id=player_id, deal__game=game, deal__date=date, ranked=True,
        disqualified=False, started_at__isnull=False).select_related("player", "deal")
        .defer("moves").first())
    if session is None:
        return None
    v = entry_values(session)
    v["status"] = session.status
    rank = index.rank(game, date, session.pk) if v["won"] else None
    row = _row(rank or 0, session.player.display_name, v, session.pk, session.deal.par)
    row["rank"] = rank  # null for an attempt not won: it has a place, not a rank
    return row
