"""The close of a day (docs/rules.md, "The daily"): a few set-based statements per game,
whatever the number of players, so that the midnight of a busy day takes seconds.

For each daily game of a day that is over, in one transaction under a lock of its own (a
second close of the same game and day waits, then finds nothing left to do):

1. every ranked attempt still open ends where it stands (resigned at the day's end): the
   day's seed is revealed at the close, so nothing may be played on it afterwards;
2. a win stored before midnight whose scoring has not run yet is reviewed and entered now
   (the scoring task, arriving later, finds the day closed and changes nothing);
3. every other started ranked attempt gets its entry, unfinished, in one INSERT;
4. an attempt that stopped being ranked (a guest merged into an account) loses its entry;
5. every entry gets its final rank from one window function.

Closing again gives the same rows: a late correction (a disqualification, a merge) re-closes
the day, and the ranks follow it.
"""

from __future__ import annotations

import datetime as dt
import logging
import zlib
from collections.abc import Callable

from django.db import connection, transaction
from django.utils import timezone

from games import days
from games.models import Deal, GameSession
from games.review import review
from leaderboards.keys import sort_key_sql
from leaderboards.models import DayClosed, Entry
from leaderboards.ranking import entry_values

log = logging.getLogger(__name__)

S, E = GameSession._meta.db_table, Entry._meta.db_table
Progress = Callable[[str], None]


def _lock(game: str, day: dt.date) -> None:
    """One close of (game, day) at a time, for the transaction's life (PostgreSQL; SQLite
    runs one writer at a time anyway)."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(f"close:{game}:{day.isoformat()}".encode())
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _end_open_attempts(deal: Deal) -> int:
    assert deal.date is not None
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {S} SET status = %s, finished_at = %s "
            "WHERE deal_id = %s AND ranked AND status = %s",
            [GameSession.RESIGNED, days.day_end(deal.date), deal.pk, GameSession.PLAYING])
        return int(cursor.rowcount)


def _enter_unscored_wins(deal: Deal) -> int:
    """Wins stored before the close whose scoring task has not run: few, so one by one,
    each reviewed as the scoring task would."""
    wins = GameSession.objects.filter(deal=deal, ranked=True, status=GameSession.WON,
                                      entry__isnull=True).select_related("deal")
    count = 0
    for session in wins:
        review(session)
        Entry.objects.update_or_create(session=session, defaults=entry_values(session))
        count += 1
    return count


def _enter_unfinished(deal: Deal, now: dt.datetime) -> int:
    key = sort_key_sql(deal.game, "FALSE", "s.score", "NULL", "s.move_count", "s.cards_up")
    columns = ("session_id, player_id, game, date, won, score, time_ms, moves, cards_up, "
               "undos, hints, active_ms, verified, review, clean_win, sort_key, scored_at")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {E} ({columns}) "
            f"SELECT s.id, s.player_id, s.game, %s, FALSE, s.score, NULL, s.move_count, "
            f"s.cards_up, s.undo_count, s.hint_count, NULL, NULL, '', FALSE, {key}, %s "
            f"FROM {S} s WHERE s.deal_id = %s AND s.ranked AND s.started_at IS NOT NULL "
            "AND s.status <> %s "
            # Closing again rewrites the same values (the player may have merged meanwhile).
            "ON CONFLICT (session_id) DO UPDATE SET player_id = EXCLUDED.player_id, "
            "score = EXCLUDED.score, moves = EXCLUDED.moves, cards_up = EXCLUDED.cards_up, "
            "undos = EXCLUDED.undos, hints = EXCLUDED.hints, sort_key = EXCLUDED.sort_key",
            [deal.date, now, deal.pk, GameSession.WON])
        return int(cursor.rowcount)


def _drop_unranked(deal: Deal) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {E} WHERE game = %s AND date = %s AND session_id IN "
            f"(SELECT id FROM {S} WHERE deal_id = %s AND NOT ranked)",
            [deal.game, deal.date, deal.pk])
        return int(cursor.rowcount)


def _final_ranks(deal: Deal) -> int:
    """Every entry's final rank in one statement; a disqualified session has none.  Returns
    the number of ranked entries."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {E} SET final_rank = r.rank FROM ("
            f"SELECT e.id, CASE WHEN s.disqualified THEN NULL ELSE row_number() OVER "
            "(PARTITION BY s.disqualified ORDER BY e.sort_key, e.session_id) END AS rank "
            f"FROM {E} e JOIN {S} s ON s.id = e.session_id "
            "WHERE e.game = %s AND e.date = %s) r "
            f"WHERE {E}.id = r.id AND {E}.final_rank IS DISTINCT FROM r.rank",
            [deal.game, deal.date])
        cursor.execute(f"SELECT count(*) FROM {E} WHERE game = %s AND date = %s "
                       "AND final_rank IS NOT NULL", [deal.game, deal.date])
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def close_game(deal: Deal, progress: Progress | None = None) -> int:
    """Close one daily game's day; returns the number of ranked entries."""
    say = progress or (lambda _: None)
    assert deal.date is not None
    with transaction.atomic():
        _lock(deal.game, deal.date)
        ended = _end_open_attempts(deal)
        say(f"{deal.game}: {ended} open attempts ended")
        scored = _enter_unscored_wins(deal)
        entered = _enter_unfinished(deal, timezone.now())
        say(f"{deal.game}: {scored} late wins and {entered} unfinished attempts entered")
        dropped = _drop_unranked(deal)
        count = _final_ranks(deal)
        say(f"{deal.game}: {count} final ranks ({dropped} entries of unranked attempts gone)")
        DayClosed.objects.update_or_create(game=deal.game, date=deal.date,
                                           defaults={"entries": count})
    return count


def is_closed(game: str, day: dt.date) -> bool:
    return DayClosed.objects.filter(game=game, date=day).exists()
