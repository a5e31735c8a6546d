"""The close of a day (docs/rules.md, "The daily"): a few set-based statements per game,
whatever the number of players, so that the midnight of a busy day takes seconds.

For each daily game of a day that is over, in one transaction under a lock of its own (a
second close of the same game and day waits, then finds the day closed and leaves it):

1. every ranked attempt still open ends where it stands (resigned at the day's end): the
   day's seed is revealed at the close, so nothing may be played on it afterwards;
2. a win stored before midnight whose scoring has not run yet is reviewed and entered now
   (the scoring task, arriving later, finds the day closed and changes nothing);
3. an attempt that stopped being ranked (a guest merged into an account) loses its entry;
4. every win gets its final rank from one window function, read in the order of the
   entries' rank index (no sort);
5. every other started ranked attempt gets its entry, unfinished, in one INSERT that
   carries its final rank (after every win: an unfinished attempt's sort key is above any
   win's, leaderboards/keys.py).

A disqualified attempt keeps its entry and has no rank.  Closing a closed day again leaves it
alone, unless asked to (``force``): a late correction (a disqualification, a merge) re-closes
the day, and the ranks follow it; rows already right are not written again.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.daily import days
from games.fairplay.review import review
from games.models import Deal, GameSession
from leaderboards.keys import UNFINISHED, sort_key_sql
from leaderboards.models import DayClosed, Entry
from leaderboards.ranking import entry_values

log = logging.getLogger(__name__)

S, E = GameSession._meta.db_table, Entry._meta.db_table
Progress = Callable[[str], None]
LATE_WINS_BATCH = 100  # late wins are reviewed this many at a time: never a day's in memory


def _lock(game: str, day: dt.date) -> None:
    """One close of (game, day) at a time, for the transaction's life (PostgreSQL; SQLite
    runs one writer at a time anyway)."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(f"close:{game}:{day.isoformat()}".encode())
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            # The ranking's sorts and hashes stay in memory at a million rows.
            cursor.execute("SET LOCAL work_mem = '64MB'")
            # The entries' foreign keys checked as each statement runs, not all at the
            # commit (Django makes them deferrable): the same work, shown in its own step.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _end_open_attempts(deal: Deal) -> int:
    assert deal.date is not None
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {S} SET status = %s, finished_at = %s "
            "WHERE deal_id = %s AND ranked AND status = %s",
            [GameSession.RESIGNED, days.day_end(deal.date), deal.pk, GameSession.PLAYING],
        )
        return int(cursor.rowcount)


def _enter_unscored_wins(deal: Deal) -> int:
    """Wins stored before the close whose scoring task has not run: few, reviewed one by
    one as the scoring task would, a batch at a time in the order of their ids."""
    count, after = 0, None
    while True:
        wins = (
            GameSession.objects.filter(
                deal=deal, ranked=True, status=GameSession.WON, entry__isnull=True
            )
            .select_related("deal")
            .order_by("id")
        )
        if after is not None:
            wins = wins.filter(id__gt=after)
        batch = list(wins[:LATE_WINS_BATCH])
        for session in batch:
            review(session)
            Entry.objects.update_or_create(session=session, defaults=entry_values(session))
        count += len(batch)
        if len(batch) < LATE_WINS_BATCH:
            return count
        after = batch[-1].pk


# The day's disqualified ranked attempts: few, found through the board index of sessions.
_DISQUALIFIED = f"SELECT id FROM {S} WHERE deal_id = %s AND ranked AND disqualified"


def _drop_unranked(deal: Deal) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {E} e USING {S} s WHERE s.id = e.session_id AND s.deal_id = %s "
            "AND NOT s.ranked",
            [deal.pk],
        )
        return int(cursor.rowcount)


def _rank_wins(deal: Deal) -> tuple[int, int]:
    """Final ranks of the day's wins, in one statement; returns (wins ranked, ranks
    written)."""
    where = f"e.game = %s AND e.date = %s AND e.sort_key < {UNFINISHED}"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {E} e SET final_rank = NULL WHERE {where} AND e.final_rank IS NOT NULL "
            f"AND e.session_id IN ({_DISQUALIFIED})",
            [deal.game, deal.date, deal.pk],
        )
        written = int(cursor.rowcount)
        # The window reads the wins in the order of entry_rank_idx (game, date, sort_key,
        # session_id); the outer entries are found by the same index, never a whole scan.
        cursor.execute(
            f"UPDATE {E} e SET final_rank = r.rank FROM ("
            "SELECT e.id, row_number() OVER (ORDER BY e.sort_key, e.session_id) AS rank "
            f"FROM {E} e WHERE {where} AND e.session_id NOT IN ({_DISQUALIFIED})) r "
            f"WHERE {where} AND e.id = r.id AND e.final_rank IS DISTINCT FROM r.rank",
            [deal.game, deal.date, deal.pk, deal.game, deal.date],
        )
        written += int(cursor.rowcount)
        cursor.execute(
            f"SELECT count(*) FROM {E} e WHERE {where} AND e.session_id NOT IN ({_DISQUALIFIED})",
            [deal.game, deal.date, deal.pk],
        )
        row = cursor.fetchone()
    return (int(row[0]) if row else 0), written


def _enter_unfinished(deal: Deal, wins: int, now: dt.datetime) -> tuple[int, int]:
    """Every started ranked attempt not won gets its entry and its final rank (after the
    ``wins``); returns (entries written, ranked unfinished attempts)."""
    key = sort_key_sql(deal.game, "FALSE", "s.score", "NULL", "s.move_count", "s.cards_up")
    columns = (
        "session_id, player_id, game, date, won, score, time_ms, moves, cards_up, "
        "undos, hints, active_ms, verified, review, clean_win, sort_key, final_rank, "
        "scored_at"
    )
    changed = " OR ".join(
        f"{E}.{c} IS DISTINCT FROM EXCLUDED.{c}"
        for c in (
            "player_id",
            "score",
            "moves",
            "cards_up",
            "undos",
            "hints",
            "sort_key",
            "final_rank",
        )
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {E} ({columns}) "
            "SELECT u.id, u.player_id, u.game, %s, FALSE, u.score, NULL, u.move_count, "
            "u.cards_up, u.undo_count, u.hint_count, NULL, NULL, '', FALSE, u.key, "
            "CASE WHEN u.disqualified THEN NULL ELSE %s + row_number() OVER "
            "(PARTITION BY u.disqualified ORDER BY u.key, u.id) END, %s "
            f"FROM (SELECT s.*, {key} AS key FROM {S} s WHERE s.deal_id = %s AND s.ranked "
            "AND s.started_at IS NOT NULL AND s.status <> %s) u "
            # Closing again writes only what changed (the player may have merged meanwhile).
            "ON CONFLICT (session_id) DO UPDATE SET player_id = EXCLUDED.player_id, "
            "score = EXCLUDED.score, moves = EXCLUDED.moves, cards_up = EXCLUDED.cards_up, "
            "undos = EXCLUDED.undos, hints = EXCLUDED.hints, sort_key = EXCLUDED.sort_key, "
            f"final_rank = EXCLUDED.final_rank WHERE {changed}",
            [deal.date, wins, now, deal.pk, GameSession.WON],
        )
        written = int(cursor.rowcount)
        cursor.execute(
            f"SELECT count(*) FROM {S} WHERE deal_id = %s AND ranked AND NOT disqualified "
            "AND started_at IS NOT NULL AND status <> %s",
            [deal.pk, GameSession.WON],
        )
        row = cursor.fetchone()
    return written, int(row[0]) if row else 0


def close_game(
    deal: Deal,
    progress: Progress | None = None,
    force: bool = False,
    changed: dict[str, int] | None = None,
) -> int:
    """Close one daily game's day; returns the number of ranked entries (and puts in
    ``changed`` the number of entries whose rank was written).  A day already closed is
    left as it is unless ``force``."""
    say = progress or (lambda _: None)
    assert deal.date is not None
    with transaction.atomic():
        _lock(deal.game, deal.date)
        done = DayClosed.objects.filter(game=deal.game, date=deal.date).first()
        if done is not None and not force:
            say(f"{deal.game}: closed already ({done.entries} ranked)")
            return done.entries
        t = time.perf_counter()

        def step(text: str) -> None:
            nonlocal t
            say(f"{deal.game}: {text} ({time.perf_counter() - t:.1f} s)")
            t = time.perf_counter()

        step(f"{_end_open_attempts(deal)} open attempts ended")
        step(f"{_enter_unscored_wins(deal)} late wins reviewed and entered")
        step(f"{_drop_unranked(deal)} entries of attempts no longer ranked removed")
        wins, rewritten = _rank_wins(deal)
        step(f"{wins} wins ranked")
        written, unfinished = _enter_unfinished(deal, wins, timezone.now())
        if changed is not None:
            changed[deal.game] = rewritten + written
        step(f"{unfinished} unfinished attempts ranked ({written} entries written)")
        count = wins + unfinished
        DayClosed.objects.update_or_create(
            game=deal.game, date=deal.date, defaults={"entries": count}
        )
    return count


def is_closed(game: str, day: dt.date) -> bool:
    return DayClosed.objects.filter(game=game, date=day).exists()


def _close_one(
    day: dt.date,
    game: str,
    deal: Deal | None,
    force: bool,
    say: Progress,
    changed: dict[str, int] | None,
    own_connection: bool,
) -> int:
    """Close one game's day, rebuild its rank index and push its board."""
    from leaderboards import index, live, periods

    try:
        if deal is None:  # no deal that day (the game was not a daily yet): nothing to rank
            DayClosed.objects.update_or_create(game=game, date=day, defaults={"entries": 0})
            return 0
        before = DayClosed.objects.filter(game=game, date=day).first()
        count = close_game(deal, progress=say, force=force, changed=changed)
        if before is None or force or index.size(game, day) != count:
            t = time.perf_counter()
            indexed = index.rebuild(game, day, progress=say)
            say(f"{game}: rank index rebuilt, {indexed} entries ({time.perf_counter() - t:.1f} s)")
        periods.invalidate(game, day)
        live.push_board(game, day)
        return count
    finally:
        if own_connection:
            connection.close()  # this thread's own, opened for this game


def close(
    day: dt.date,
    games: list[str] | None = None,
    force: bool = False,
    progress: Progress | None = None,
    changed: dict[str, int] | None = None,
) -> dict[str, int]:
    """Close ``day`` (every daily game, or ``games``): reveal its deals' seeds and salts
    (docs/deals.md, "Commit, then reveal"), close each game, rebuild its rank index in
    Redis and push its board.  A day not over yet is left alone ({}).  Returns the number
    of ranked entries per game.

    The games are closed CLOSE_WORKERS at a time, each on a connection of its own (the
    statements of one game use one core of the database); inside a transaction (a
    correction made in a request, the test run) one after the other, in that transaction."""
    from games.engine import DAILY_GAMES

    say = progress or log.info
    if not days.is_over(day):
        log.warning(
            "close_day %s: the day is not over yet (today is %s); nothing done", day, days.today()
        )
        return {}
    Deal.objects.filter(date=day, revealed_at__isnull=True).update(revealed_at=timezone.now())
    deals = {d.game: d for d in Deal.objects.filter(date=day, game__in=DAILY_GAMES)}
    todo = list(games or DAILY_GAMES)
    workers = 1 if connection.in_atomic_block else max(1, settings.CLOSE_WORKERS)
    if workers == 1 or len(todo) == 1:
        counts = [_close_one(day, g, deals.get(g), force, say, changed, False) for g in todo]
    else:
        with ThreadPoolExecutor(min(workers, len(todo))) as pool:
            counts = list(
                pool.map(
                    lambda g: _close_one(day, g, deals.get(g), force, say, changed, True), todo
                )
            )
    return dict(zip(todo, counts, strict=True))
