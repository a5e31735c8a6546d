"""Boards and the admin at volume: a closed day of N ranked sessions (bench/seed_day.py,
closed by leaderboards.closing) beside a small one, then each read timed the way it was
done before and the way it is done now, in the same run, on the same rows.

    .venv/bin/python bench/boards.py --sessions 1000000 --small 10000

The big day is one game's (Klondike), so that one board has a million entries.  Rows: the
day board's first page (its count and rows: two COUNT joins and a join per row
before; the Redis index's size and range, then a hundred rows by id, now), the same with
the Redis index lost (before: rebuilt in the request; now: PostgreSQL's index and a task),
the all-time board (before: every entry grouped and joined to its session per request; now:
kept in the cache, and its computation when it changed), the admin's session list and its
searches (before: a full count, a date hierarchy and text search on every field; now: a
capped count and indexed lookups).  Each figure is the median of --repeat runs, with the
slowest; "now" is also timed through the HTTP API or the admin page as a whole.

By default on a private PostgreSQL cluster and Redis (removed afterwards); ``--shared``
uses DATABASE_URL (default .../solitaire_boards_bench, dropped and made afresh) and
REDIS_URL.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
urlpatterns: list[Any] = []  # this module is the URL map while it runs (the old admin)


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(median, slowest) milliseconds of ``repeat`` runs, after one to warm up."""
    fn()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t) * 1000)
    return statistics.median(runs), max(runs)


# -- the reads as they were before ---------------------------------------------------------
def old_day_board(game: str, day: dt.date) -> Any:
    from django.db.models import F

    from games.models import GameSession
    from leaderboards.models import Entry

    scored = Entry.objects.filter(
        game=game, date=day, session__disqualified=False, session__ranked=True
    )
    total = (
        scored.count()
        + GameSession.objects.filter(
            deal__game=game,
            deal__date=day,
            ranked=True,
            disqualified=False,
            started_at__isnull=False,
            entry__isnull=True,
        ).count()
    )
    rows = list(
        scored.select_related("player")
        .annotate(status=F("session__status"))
        .order_by("sort_key", "session_id")[:100]
    )
    return total, rows


def old_rebuild(game: str, day: dt.date) -> int:
    """The index rebuilt as a request did when it found the set missing."""
    from leaderboards import index
    from leaderboards.models import Entry

    r = index.client()
    assert r is not None
    tmp, batch, count = f"{index.key(game, day)}:old", {}, 0
    r.delete(tmp)
    for sid, key in (
        Entry.objects.filter(game=game, date=day, session__disqualified=False)
        .values_list("session_id", "sort_key")
        .iterator(chunk_size=10_000)
    ):
        batch[str(sid)] = key
        if len(batch) >= 10_000:
            r.zadd(tmp, batch)
            count, batch = count + len(batch), {}
    if batch:
        r.zadd(tmp, batch)
    r.delete(tmp)
    return count


def old_period_board(game: str) -> list[Any]:
    from django.db.models import Count, Max, Min, Q

    from leaderboards.models import Entry

    qs = Entry.objects.filter(game=game, session__disqualified=False, session__ranked=True)
    rows = list(
        qs.values("player_id", "player__display_name")
        .annotate(
            wins=Count("id", filter=Q(won=True)),
            played=Count("id"),
            best_time_ms=Min("time_ms", filter=Q(won=True)),
            best_score=Max("score", filter=Q(won=True)),
        )
        .filter(wins__gt=0)
        .order_by("-wins", "best_time_ms", "player_id")[:100]
    )
    list(
        qs.filter(won=True, player_id__in=[r["player_id"] for r in rows]).values_list(
            "player_id", "date"
        )
    )
    return rows


def old_admin() -> Any:
    """The session list's admin as it was, on a site of its own."""
    from django.contrib import admin

    from games.admin.registry import GameSessionAdmin
    from games.models import GameSession

    class Before(GameSessionAdmin):
        search_fields = ["id", "player__display_name", "deal__public_id"]
        date_hierarchy = "created_at"
        show_full_result_count = True
        paginator = admin.ModelAdmin.paginator

        def get_search_results(self, request: Any, queryset: Any, term: str) -> Any:
            return admin.ModelAdmin.get_search_results(self, request, queryset, term)

    site = admin.AdminSite(name="before")
    site.register(GameSession, Before)
    return site


# -- the run -------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sessions",
        type=int,
        default=1_035_000,
        help="Klondike sessions of the big day (a million entries by default)",
    )
    ap.add_argument(
        "--small",
        type=int,
        default=10_350,
        help="Klondike sessions of the small day (ten thousand entries)",
    )
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--shared", action="store_true")
    ap.add_argument("--pg-options", default="")
    args = ap.parse_args()
    # A TERM (a timeout, a supervisor) stops the run as Ctrl-C does: the private servers go.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    private = []
    if args.shared:
        from close_day import ensure_fresh_database

        db = os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_boards_bench"
        )
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        ensure_fresh_database(db)
    else:
        from tests.reliability.stack import PrivatePostgres, PrivateRedis

        pg, rd = PrivatePostgres(), PrivateRedis()
        private = [rd, pg]
        pg.start(args.pg_options)
        pg.create_database()
        rd.start()
        db, redis_url = pg.url, rd.url
    try:
        return run(args, db, redis_url)
    finally:
        for service in private:
            service.close()


def run(args: argparse.Namespace, db: str, redis_url: str) -> int:
    env = {
        "DATABASE_URL": db,
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": "boardsbench",
        "CELERY_QUEUE": "boardsbench",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "DAILY_CERTIFY_ON_DEMAND": "0",
        "ALLOWED_HOSTS": "testserver",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DAILY_SECRET": os.environ.get("DAILY_SECRET") or secrets.token_urlsafe(50),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()
    import seed_day  # bench/seed_day.py, beside this file
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import include, path

    from games.daily.deals import ensure_daily, load_certifier, today
    from games.engine import DAILY_GAMES
    from games.models import Deal, GameSession
    from leaderboards import closing, index, pending, periods, ranking, stats

    urlpatterns[:] = [path("before/", old_admin().urls), path("", include("config.urls"))]
    settings.ROOT_URLCONF = __name__
    # The admin's pages name static files; without collectstatic, their plain names.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # A worker would take these; the bench times the request, not the task it asks for.
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from config.celery import app

    app.conf.task_always_eager = False
    app.conf.broker_url = redis_url

    certifier = load_certifier()
    big, small = today() - dt.timedelta(days=1), today() - dt.timedelta(days=2)
    game = "klondike"  # every session of both days: one board of each size
    rows: list[tuple[str, float | None, float, float]] = []

    def row(
        label: str,
        before: Callable[[], Any] | None,
        now: Callable[[], Any],
        repeat: int = args.repeat,
    ) -> None:
        b = timed(before, max(3, repeat // 3))[0] if before else None
        n, worst = timed(now, repeat)
        rows.append((label, b, n, worst))
        print(f"  {label}: {'' if b is None else f'{b:.1f} ms before, '}{n:.1f} ms now", flush=True)

    for day, n in ((big, args.sessions), (small, args.small)):
        for g in DAILY_GAMES:
            ensure_daily(g, day, certifier, budget=5)
        t = time.perf_counter()
        seed_day.seed(db, day, n, lambda s: None, games={game: 100})
        seeded = time.perf_counter() - t
        if day == big:
            # The day as it stands before midnight: wins scored (and indexed as the scoring
            # task indexes them), every other attempt still on the board unfinished.
            index.rebuild(game, day)
            deal = Deal.objects.get(game=game, date=day).pk
            row(
                f"live day board, first page, {n:,} sessions",
                lambda: old_day_board(game, big),
                lambda: ranking.board(game, big),
            )
            row(
                "  its count and order of unfinished attempts (a task)",
                None,
                lambda deal=deal: pending.refresh(game, big, deal),
                3,
            )
        t = time.perf_counter()
        closing.close(day)
        print(
            f"{day}: {n} sessions seeded in {seeded:.0f} s, closed in "
            f"{time.perf_counter() - t:.0f} s (load {load()})",
            flush=True,
        )
    from leaderboards.models import Entry

    sizes = {d: Entry.objects.filter(game=game, date=d).count() for d in (big, small)}
    entries = Entry.objects.count()
    print(f"{game} boards: {sizes[big]} and {sizes[small]} entries; {entries} entries in all\n")
    user = User.objects.create_superuser("bench", "bench@example.com", "x")
    client = Client()
    client.force_login(user)
    sample = GameSession.objects.filter(deal__date=big).order_by("id")[args.sessions // 2]
    name = sample.player.display_name
    prefix = str(sample.pk)[:8]

    for d, label in ((small, f"{sizes[small]:,}"), (big, f"{sizes[big]:,}")):
        row(
            f"day board, first page, {label} entries",
            lambda d=d: old_day_board(game, d),
            lambda d=d: ranking.board(game, d),
        )
        row(
            f"  the same over HTTP (whole request), {label}",
            None,
            lambda d=d: client.get(f"/api/leaderboards/{game}/{d}/"),
        )
    r = index.client()
    assert r is not None

    def lost() -> Any:
        r.delete(index.key(game, big), f"{index.key(game, big)}:wanted")
        return ranking.board(game, big)

    row(f"day board, index lost, {sizes[big]:,}", lambda: old_rebuild(game, big), lost, 5)
    index.rebuild(game, big)
    periods.refresh(game, None, None)
    row(
        f"all-time board ({entries:,} entries)",
        lambda: old_period_board(game),
        lambda: periods.board(game),
        args.repeat,
    )
    row(
        "  the same over HTTP (whole request)",
        None,
        lambda: client.get(f"/api/leaderboards/{game}/all-time/"),
    )
    row(
        "  its computation after a change (a task)",
        None,
        lambda: stats.period_board(game, None, None),
        3,
    )
    monday, sunday = periods.week(big)
    row(
        "week board",
        lambda: stats.period_board(game, monday, sunday),
        lambda: periods.board(game, monday, sunday),
    )
    for label, query in (
        ("admin session list", ""),
        ("admin search, id prefix", prefix),
        ("admin search, player name", name),
    ):
        q = f"?q={query}" if query else ""
        row(
            label,
            lambda q=q: client.get(f"/before/games/gamesession/{q}"),
            lambda q=q: client.get(f"/admin/games/gamesession/{q}"),
            6,
        )
    print(
        f"\n{'':48} {'before ms':>10} {'now ms':>8} {'slowest':>8} {'ratio':>7}   (load {load()})"
    )
    for label, before, now, worst in rows:
        ratio = f"{before / now:6.0f}x" if before else ""
        b = f"{before:10.1f}" if before is not None else " " * 10
        print(f"{label:48} {b} {now:8.1f} {worst:8.1f} {ratio:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
