"""Open data: everything about a closed day, as newline-delimited JSON (docs/api.md, "Open
data").  One line per daily deal (its revealed seed and salt, so anyone can deal it again
and check it against the commitment published before the day), then one line per ranked
session of that day with its whole move list and server times, its result, clocks and
review status.  With the seed and the moves, every session replays with the engine to its
stored result: anyone can check every board.

Only a closed day is exported: its games are over and its seeds revealed.  Before that the
moves would show the others' face-down cards as they were turned, and the seed all of
them.  Practice sessions are the players' own and are not exported; a player who asked
(``Player.anonymous``) is named "anonymous", with no id.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Iterator
from typing import Any

from django.conf import settings

from games.daily.days import parse_day
from games.engine import DAILY_GAMES
from games.models import Deal, GameSession
from leaderboards.models import DayClosed, Entry

ANONYMOUS = "anonymous"


class NotExported(LookupError):
    """The day is not closed (or not a day); ``str`` says why."""


def closed_day(text: str) -> dt.date:
    day = parse_day(text)
    if day is None:
        raise ValueError("a day is written YYYY-MM-DD, from 2000-01-01 to 2999-12-31")
    deals = Deal.objects.filter(date=day, game__in=DAILY_GAMES)
    closed = DayClosed.objects.filter(date=day, game__in=DAILY_GAMES).count()
    if (
        not deals.exists()
        or deals.filter(revealed_at__isnull=True).exists()
        or closed < len(DAILY_GAMES)
    ):
        raise NotExported(
            f"{day} is not closed yet: its export exists once the day is over "
            "and its seeds are revealed"
        )
    return day


def version(day: dt.date) -> str:
    """The export's ETag: it changes whenever the day's final ranks are written again (a
    late disqualification, a reinstatement or a merge closes the day again, audited as
    ``day_reclosed``), so a cache in front revalidates each time and never serves a board
    from before a correction.  Read from a handful of rows, whatever the day's size."""
    closes = (
        DayClosed.objects.filter(date=day)
        .order_by("game")
        .values_list("game", "closed_at", "entries")
    )
    reveals = (
        Deal.objects.filter(date=day, game__in=DAILY_GAMES)
        .order_by("game")
        .values_list("game", "revealed_at")
    )
    text = repr((day.isoformat(), list(closes), list(reveals)))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def deal_line(deal: Deal) -> dict[str, Any]:
    return {
        "type": "deal",
        "game": deal.game,
        "date": deal.date.isoformat() if deal.date else None,
        "deal": deal.public_id,
        "seed": str(deal.seed),
        "salt": deal.salt,
        "commitment": deal.commitment,
        "revealed_at": _time(deal.revealed_at),
        "par": deal.par,
    }


def anonymous_id(session_id: Any) -> str:
    """The id an anonymous player's session has in the open data: keyed with the server's
    secret, so it is the same in every copy of the export and appears on no other route
    (boards, the race and replays show no session id of that player), and nobody without
    the secret can compute it from a session id seen earlier, nor the reverse."""
    key = hashlib.sha256(b"open-data-anonymous:" + settings.SECRET_KEY.encode()).digest()
    return "anon-" + hmac.new(key, str(session_id).encode(), hashlib.sha256).hexdigest()[:32]


def session_line(session: GameSession, final_rank: int | None) -> dict[str, Any]:
    player = session.player
    return {
        "type": "session",
        "game": session.game,
        "date": session.deal.date.isoformat() if session.deal.date else None,
        "deal": session.deal.public_id,
        "session": anonymous_id(session.pk) if player.anonymous else str(session.pk),
        "player": ANONYMOUS if player.anonymous else player.display_name,
        "player_id": None if player.anonymous else player.pk,
        # [token, server time in ms since the epoch]; the client's operation ids stay out.
        "moves": [[m[0], m[1]] for m in session.moves],
        "status": session.status,
        "score": session.score,
        "cards_up": session.cards_up,
        "move_count": session.move_count,
        "undo_count": session.undo_count,
        "hint_count": session.hint_count,
        "created_at": _time(session.created_at),
        "started_at": _time(session.started_at),
        "finished_at": _time(session.finished_at),
        "time_ms": session.time_ms,
        "active_ms": session.active_ms,
        "verified": session.verified,
        "review": session.review or None,
        "disqualified": session.disqualified,
        "final_rank": final_rank,
    }


def lines(day: dt.date) -> Iterator[dict[str, Any]]:
    """The day's lines: its deals, then its ranked sessions, game by game in the order of
    the dailies, each game's sessions in the order they were started."""
    order = {game: i for i, game in enumerate(DAILY_GAMES)}
    deals = sorted(Deal.objects.filter(date=day, game__in=DAILY_GAMES), key=lambda d: order[d.game])
    for deal in deals:
        yield deal_line(deal)
    ranks = dict(Entry.objects.filter(date=day).values_list("session_id", "final_rank"))
    for game in DAILY_GAMES:
        # Streamed from the database in chunks: a busy day's moves do not fit in memory at
        # once.  Attempts never started (no move) are on no board and left out here too.
        sessions = (
            GameSession.objects.filter(
                deal__date=day, deal__game=game, ranked=True, started_at__isnull=False
            )
            .select_related("player", "deal")
            .order_by("created_at", "id")
        )
        for session in sessions.iterator(chunk_size=200):
            yield session_line(session, ranks.get(session.pk))
