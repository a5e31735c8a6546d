"""The midnight close at volume (leaderboards/closing.py): set-based, under a lock, with its
progress printed; a million sessions are bench/close_day.py's, these are the same rules on
a day small enough for a test, on the real PostgreSQL and Redis."""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from io import StringIO

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player
from leaderboards import closing, index
from leaderboards.models import DayClosed, Entry
from leaderboards.tasks import close_day, score_session


def _session(deal, name, **fields):
    now = timezone.now()
    values = {
        "ranked": True,
        "status": "playing",
        "cards_up": 10,
        "move_count": 30,
        "started_at": now,
        "moves": [["x", 0]] * 3,
    }
    values.update(fields)
    return GameSession.objects.create(
        player=Player.objects.create(display_name=name), deal=deal, game=deal.game, **values
    )


def _won(deal, name, time_ms, **fields):
    now = timezone.now()
    return _session(
        deal,
        name,
        status="won",
        time_ms=time_ms,
        move_count=90,
        cards_up=52,
        started_at=now - dt.timedelta(milliseconds=time_ms),
        finished_at=now,
        **fields,
    )


def _day(deal):
    """Wins (scored, one scored by nobody yet, one disqualified, two tied), unfinished
    attempts (open, resigned, never started), a practice game."""
    wins = [_won(deal, f"w{i}", 20_000 + 1000 * i) for i in range(5)]
    tied = [_won(deal, f"t{i}", 40_000) for i in range(2)]
    for s in wins + tied:
        score_session(str(s.pk))
    late = _won(deal, "late", 30_500)  # its scoring had not run at midnight
    cheat = _won(deal, "cheat", 1_000)
    score_session(str(cheat.pk))
    GameSession.objects.filter(pk=cheat.pk).update(disqualified=True)
    open_ = [_session(deal, f"o{i}", cards_up=20 - i) for i in range(3)]
    gone = _session(deal, "gone", status="resigned", cards_up=25, finished_at=timezone.now())
    shown = _session(deal, "shown", started_at=None, move_count=0, cards_up=0)
    practice = _session(deal, "practice", ranked=False)
    return {
        "wins": wins,
        "tied": tied,
        "late": late,
        "cheat": cheat,
        "open": open_,
        "gone": gone,
        "shown": shown,
        "practice": practice,
    }


def test_the_close_ranks_wins_then_unfinished_attempts_in_a_few_statements(db, past_midnight):
    deal = ensure_daily("freecell", today())
    s = _day(deal)
    day = deal.date
    past_midnight()
    statements: list[str] = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        assert close_day(day.isoformat())["freecell"] == 12
    ranks = dict(
        Entry.objects.filter(game="freecell", date=day).values_list("session_id", "final_rank")
    )
    tied = sorted(s["tied"], key=lambda x: str(x.pk))
    order = [*s["wins"][:5], s["late"], *tied, s["gone"], *s["open"]]
    assert [ranks[x.pk] for x in order] == list(range(1, 13))
    assert ranks[s["cheat"].pk] is None  # an entry, no rank
    assert s["shown"].pk not in ranks
    assert s["practice"].pk not in ranks
    assert GameSession.objects.get(pk=s["open"][0].pk).status == "resigned"
    assert DayClosed.objects.get(game="freecell", date=day).entries == 12
    # Set-based: the writes do not grow with the players (a late win is reviewed alone).
    writes = [
        q for q in statements if q.lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
    ]
    assert len(writes) < 40, len(writes)
    moves_read = [q for q in statements if '"games_gamesession"."moves"' in q]
    assert len(moves_read) == 1  # the late wins' batch, for their review; nobody else's


def test_closing_a_closed_day_again_leaves_it_alone_unless_forced(db, past_midnight):
    deal = ensure_daily("freecell", today())
    s = _day(deal)
    day = deal.date
    past_midnight()
    first = close_day(day.isoformat())
    stamps = dict(Entry.objects.values_list("session_id", "scored_at"))
    closed_at = DayClosed.objects.get(game="freecell", date=day).closed_at
    assert close_day(day.isoformat()) == first
    assert DayClosed.objects.get(game="freecell", date=day).closed_at == closed_at
    assert dict(Entry.objects.values_list("session_id", "scored_at")) == stamps
    # A correction: the cheat reinstated, the day closed again; only what moved is written.
    GameSession.objects.filter(pk=s["cheat"].pk).update(disqualified=False)
    changed: dict[str, int] = {}
    closing.close(day, ["freecell"], force=True, changed=changed)
    ranks = dict(Entry.objects.values_list("session_id", "final_rank"))
    assert ranks[s["cheat"].pk] == 1
    assert changed["freecell"] == 13  # the twelve moved down one, the cheat up
    closing.close(day, ["freecell"], force=True, changed=changed)
    assert changed["freecell"] == 0


def test_the_rank_index_is_rebuilt_in_batches_in_the_board_order(db, past_midnight, monkeypatch):
    deal = ensure_daily("freecell", today())
    s = _day(deal)
    day = deal.date
    past_midnight()
    monkeypatch.setattr(index, "BATCH", 3)
    close_day(day.isoformat())
    r = redis.Redis.from_url(settings.REDIS_URL)
    members = [m.decode() for m in r.zrange(index.key("freecell", day), 0, -1)]
    expected = [
        str(x)
        for x in Entry.objects.filter(game="freecell", date=day, final_rank__isnull=False)
        .order_by("final_rank")
        .values_list("session_id", flat=True)
    ]
    assert members == expected
    assert str(s["cheat"].pk) not in members


def test_an_entry_scored_while_the_index_is_rebuilt_is_kept(db, monkeypatch):
    """The rebuild reads PostgreSQL a batch at a time; a win scored meanwhile is added to
    the set being built (which exists from the rebuild's first moment), so the swap that
    ends the rebuild does not lose it, though the rebuild's reads never saw it."""
    deal = ensure_daily("freecell", today())
    first = _won(deal, "first", 10_000)
    score_session(str(first.pk))
    r = redis.Redis.from_url(settings.REDIS_URL)
    k, tmp, _ = index._keys("freecell", deal.date)
    r.delete(k)
    meanwhile = Entry(session_id=uuid.uuid4(), game="freecell", date=deal.date, sort_key=5)
    real = index._disqualified

    def scored_meanwhile(game, date):
        assert r.exists(tmp)
        assert not r.exists(k)
        index.add(meanwhile)  # as score_session does, its row committed after our reads
        return real(game, date)

    monkeypatch.setattr(index, "_disqualified", scored_meanwhile)
    assert index.rebuild("freecell", deal.date) == 2
    assert [m.decode() for m in r.zrange(k, 0, -1)] == [str(meanwhile.session_id), str(first.pk)]
    assert not r.exists(tmp)


@pytest.mark.django_db(transaction=True)
def test_a_second_close_of_the_same_day_waits_for_the_first_then_leaves_it(past_midnight):
    deal = ensure_daily("klondike", today())
    for i in range(4):
        _session(deal, f"p{i}", cards_up=i)
    day = deal.date
    past_midnight()
    results: dict[str, list[str]] = {"first": [], "second": []}
    holding = threading.Event()
    release = threading.Event()
    real_rank_wins = closing._rank_wins

    def slow_rank_wins(d):
        holding.set()
        release.wait(20)  # the first close holds its lock here
        return real_rank_wins(d)

    def run(name):
        try:
            closing.close(day, ["klondike"], progress=results[name].append)
        finally:
            connections.close_all()

    closing._rank_wins = slow_rank_wins  # type: ignore[assignment]
    try:
        first = threading.Thread(target=run, args=("first",))
        first.start()
        assert holding.wait(20)
        closing._rank_wins = real_rank_wins  # type: ignore[assignment]
        second = threading.Thread(target=run, args=("second",))
        second.start()
        second.join(1.5)
        assert second.is_alive()  # waiting on the first close's lock
        release.set()
        first.join(20)
        second.join(20)
    finally:
        closing._rank_wins = real_rank_wins  # type: ignore[assignment]
        release.set()
    assert any("unfinished attempts ranked" in line for line in results["first"])
    assert any("closed already (4 ranked)" in line for line in results["second"])
    assert Entry.objects.filter(date=day).count() == 4


def test_the_command_prints_each_step_as_it_goes(db, past_midnight):
    deal = ensure_daily("bakers-dozen", today())
    _day(deal)
    day = deal.date
    past_midnight()
    out = StringIO()
    call_command("close_day", day.isoformat(), "--game", "bakers-dozen", stdout=out)
    lines = out.getvalue().splitlines()
    steps = [
        "open attempts ended",
        "late wins reviewed",
        "wins ranked",
        "unfinished attempts ranked",
        "rank index rebuilt",
    ]
    found = [next(i for i, line in enumerate(lines) if step in line) for step in steps]
    assert found == sorted(found)
    assert all(" s)" in lines[i] for i in found)
    assert f"{day} bakers-dozen" in out.getvalue()
    assert "12 ranked" in out.getvalue()
    again = StringIO()
    call_command("close_day", day.isoformat(), "--game", "bakers-dozen", stdout=again)
    assert "closed already (12 ranked)" in again.getvalue()


def test_the_rebuild_command_shows_its_progress(db, monkeypatch):
    deal = ensure_daily("freecell", today())
    for i in range(7):
        score_session(str(_won(deal, f"w{i}", 10_000 + i).pk))
    r = redis.Redis.from_url(settings.REDIS_URL)
    r.delete(index.key("freecell", deal.date))
    out = StringIO()
    call_command("rebuild_rank_index", deal.date.isoformat(), "--game", "freecell", stdout=out)
    assert "freecell: 7 entries indexed" in out.getvalue()
    assert r.zcard(index.key("freecell", deal.date)) == 7
    bad = StringIO()
    with pytest.raises(Exception, match="not a day"):
        call_command("rebuild_rank_index", "yesterday", stdout=bad)
