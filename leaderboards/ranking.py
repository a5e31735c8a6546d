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

from games.daily import medals
from games.models import Deal, GameSession, Player
from leaderboards import index, pending
from leaderboards.keys import sort_key
from leaderboards.models import DayClosed, Entry


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
        "sort_key": sort_key(
            session.game, won, session.score, session.time_ms, session.move_count, session.cards_up
        ),
    }


def day_par(game: str, date: dt.date) -> int | None:
    """The par of a day's deal of ``game`` (None before it is made or when uncertified)."""
    return Deal.objects.filter(game=game, date=date).values_list("par", flat=True).first()


def public_session(player: Player, session_id: Any) -> Any:
    """The session id a board shows others: none for a player who asked to be anonymous in
    the open data (``Player.anonymous``), so that nothing joins its export line, which
    carries an id of its own (leaderboards/export.py), to the name the board shows."""
    return None if player.anonymous else session_id


def _row(
    rank: int, name: str, v: dict[str, Any], session_id: Any, par: int | None
) -> dict[str, Any]:
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

Row = tuple[Any, str, dict[str, Any], Player]  # (session id, name, values, player)


def _scored_rows(session_ids: list[str]) -> list[Row]:
    """The entries of these sessions, in this order (a page of the rank index)."""
    found = {
        str(e.session_id): e
        for e in Entry.objects.filter(session_id__in=session_ids)
        .select_related("player")
        .annotate(status=F("session__status"))
        .order_by()
    }
    return [
        (e.session_id, e.player.display_name, e.__dict__, e.player)
        for e in (found.get(sid) for sid in session_ids)
        if e is not None
    ]


def _pg_scored(
    game: str, date: dt.date, deal_id: int, offset: int, limit: int, closed: int | None
) -> tuple[int, list[Row]]:
    """The scored entries from PostgreSQL while Redis has no rank index: a range of
    entry_rank_idx, the day's few disqualified attempts left out; the count is the close's
    own on a closed day."""
    disqualified = list(
        GameSession.objects.filter(deal_id=deal_id, ranked=True, disqualified=True).values_list(
            "id", flat=True
        )
    )
    qs = Entry.objects.filter(game=game, date=date).exclude(session_id__in=disqualified)
    count = closed if closed is not None else qs.count()
    page = (
        qs.select_related("player")
        .annotate(status=F("session__status"))
        .order_by("sort_key", "session_id")[offset : offset + limit]
    )
    return count, [(e.session_id, e.player.display_name, e.__dict__, e.player) for e in page]


def _session_row(s: GameSession) -> Row:
    v = entry_values(s)
    v["status"] = s.status
    return (s.id, s.player.display_name, v, s.player)


def _pending_rows(
    game: str, date: dt.date, deal_id: int, start: int, count: int
) -> tuple[int, list[Row]]:
    """Rows ``start`` to ``start + count`` after the scored wins: wins not scored yet (at
    their place by the same key), then the unfinished attempts.  Returns (wins not scored
    yet, rows)."""
    late = sorted(
        (_session_row(s) for s in pending.unscored_wins(deal_id)),
        key=lambda r: (r[2]["sort_key"], str(r[0])),
    )
    rows = late[start : start + count]
    skip = max(0, start - len(late))
    ids = pending.page(game, date, deal_id, skip, count - len(rows))
    # The order was written a moment ago: an attempt won (or disqualified) since is shown
    # with the wins, never also here.
    found = {
        str(s.id): s
        for s in GameSession.objects.filter(id__in=ids, ranked=True, disqualified=False)
        .exclude(status=GameSession.WON)
        .select_related("player", "deal")
        .defer("legacy_moves")
    }
    rows += [_session_row(found[sid]) for sid in ids if sid in found]
    return len(late), rows


def board(
    game: str, date: dt.date, limit: int = 100, offset: int = 0
) -> tuple[int, list[dict[str, Any]]]:
    """(rows on the whole board, rows ``offset`` to ``offset + limit`` in rank order).

    The scored wins (every entry, once the day is closed) come from the Redis rank index:
    its size and a range of it, then the page's entries by their ids.  While the day is
    played, the unfinished attempts follow them (leaderboards/pending.py).  Without the
    index (Redis lost it: a rebuild is asked for) the same rows come from PostgreSQL."""
    offset = min(max(offset, 0), MAX_OFFSET)
    upto = offset + limit
    deal = Deal.objects.filter(game=game, date=date).values_list("id", "par").first()
    if deal is None:
        return 0, []
    deal_id, par = deal
    closed = (
        DayClosed.objects.filter(game=game, date=date).values_list("entries", flat=True).first()
    )
    got = index.page(game, date, offset, limit)
    if got is not None:
        scored, ids = got
        rows = _scored_rows(ids)
    else:
        scored, rows = _pg_scored(game, date, deal_id, offset, limit, closed)
    total = scored
    if closed is None:
        unfinished, won = pending.counts(game, date, deal_id)
        late = max(0, won - scored)  # wins stored whose scoring has not run yet
        if upto > scored:
            start = max(offset, scored)
            late, more = _pending_rows(game, date, deal_id, start - scored, upto - start)
            rows += more
        total = scored + late + unfinished
    return total, [
        _row(i, name, v, public_session(player, sid), par)
        for i, (sid, name, v, player) in enumerate(rows, start=offset + 1)
    ]


def entries(game: str, date: dt.date, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
    """Rows ``offset`` to ``offset + limit`` of the day's board, in rank order."""
    return board(game, date, limit, offset)[1]


def total(game: str, date: dt.date) -> int:
    """How many rows the day's board has (every page together)."""
    return board(game, date, 1, 0)[0]


def own_row(game: str, date: dt.date, player_id: int | None) -> dict[str, Any] | None:
    """The player's own row on the day's board, wherever it is (pinned by the page): a
    win with its rank, or an unfinished attempt with its status; None with no attempt."""
    if player_id is None:
        return None
    session = (
        GameSession.objects.filter(
            player_id=player_id,
            deal__game=game,
            deal__date=date,
            ranked=True,
            disqualified=False,
            started_at__isnull=False,
        )
        .select_related("player", "deal")
        .defer("legacy_moves")
        .first()
    )
    if session is None:
        return None
    v = entry_values(session)
    v["status"] = session.status
    rank = index.rank(game, date, session.pk) if v["won"] else None
    row = _row(rank or 0, session.player.display_name, v, session.pk, session.deal.par)
    row["rank"] = rank  # null for an attempt not won: it has a place, not a rank
    return row
