"""Boards at volume (leaderboards/ranking.py, index.py, pending.py, periods.py): what a
request costs does not grow with the day.  The figures at a million entries are
bench/boards.py's; these tests pin what makes them possible: no count of a day's rows in a
request, no rebuild of the rank index in a request, no grouping of every entry per request."""

from __future__ import annotations

import datetime as dt
import time
import uuid

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player
from leaderboards import index
from leaderboards.models import Entry
from leaderboards.tasks import close_day, score_session


def _session(deal, name, **fields):
    values = {
        "ranked": True,
        "status": "playing",
        "cards_up": 10,
        "move_count": 30,
        "started_at": timezone.now(),
        "moves": [["x", 0]],
    }
    values.update(fields)
    return GameSession.objects.create(
        player=Player.objects.create(display_name=name), deal=deal, game=deal.game, **values
    )


def _win(deal, name, time_ms):
    now = timezone.now()
    s = _session(
        deal,
        name,
        status="won",
        time_ms=time_ms,
        move_count=90,
        cards_up=52,
        started_at=now - dt.timedelta(milliseconds=time_ms),
        finished_at=now,
    )
    score_session(str(s.pk))
    return s


class Statements:
    """The SQL one block of code sends."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        self.sql.append(sql)
        return execute(sql, params, many, context)

    def __enter__(self) -> Statements:
        self._wrap = connection.execute_wrapper(self)
        self._wrap.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._wrap.__exit__(*exc)

    def counting(self) -> list[str]:
        return [q for q in self.sql if "COUNT(" in q.upper()]


def _closed_day(past_midnight, wins=6, playing=3):
    deal = ensure_daily("freecell", today())
    for i in range(wins):
        _win(deal, f"w{i}", 10_000 + 1000 * i)
    for i in range(playing):
        _session(deal, f"p{i}", cards_up=i)
    day = deal.date
    past_midnight()
    close_day(day.isoformat())
    return deal, day


def test_a_closed_board_is_counted_and_paged_by_the_rank_index(api, past_midnight):
    deal, day = _closed_day(past_midnight)
    c = api()
    with Statements() as seen:
        board = c.get(f"/api/leaderboards/freecell/{day}/?offset=2&limit=4").json()
    assert board["total"] == 9
    assert [e["rank"] for e in board["entries"]] == [3, 4, 5, 6]
    finals = dict(Entry.objects.values_list("session_id", "final_rank"))
    assert all(finals[uuid.UUID(e["session"])] == e["rank"] for e in board["entries"])
    assert seen.counting() == []  # the index's size, no COUNT of the day's rows


def test_a_live_board_counts_its_unfinished_attempts_in_a_task_not_per_request(api, settings):
    settings.BOARD_COUNT_SECONDS = 60
    deal = ensure_daily("bakers-dozen", today())
    for i in range(3):
        _session(deal, f"p{i}", cards_up=5 + i)
    _win(deal, "winner", 50_000)  # its scoring pushes the board: the first count
    c = api()
    url = f"/api/leaderboards/bakers-dozen/{deal.date}/"
    first = c.get(url).json()
    assert first["total"] == 4
    assert [e["status"] for e in first["entries"]] == ["won", "playing", "playing", "playing"]
    _session(deal, "newcomer", cards_up=50)
    with Statements() as seen:
        second = c.get(url).json()
    assert seen.counting() == []
    # Counted again within BOARD_COUNT_SECONDS: the newcomer is not on the board yet.
    assert second["total"] == 4
    assert "newcomer" not in [e["player"] for e in second["entries"]]
    redis.Redis.from_url(settings.REDIS_URL).delete(
        f"{settings.REDIS_KEY_PREFIX}:pending:bakers-dozen:{deal.date}:fresh"
    )
    third = c.get(url).json()
    assert third["total"] == 5
    assert third["entries"][1]["player"] == "newcomer"


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_lost_index_is_rebuilt_by_a_worker_while_the_board_answers_from_postgresql(
    api, past_midnight, real_worker
):
    with override_settings(CELERY_CLOSE_QUEUE=real_worker):
        deal, day = _closed_day(past_midnight, wins=5, playing=2)
        r = redis.Redis.from_url(settings.REDIS_URL)
        whole = [
            str(s)
            for s in Entry.objects.filter(final_rank__isnull=False)
            .order_by("final_rank")
            .values_list("session_id", flat=True)
        ]
        r.delete(index.key("freecell", day))
        c = api()
        with Statements() as seen:
            board = c.get(f"/api/leaderboards/freecell/{day}/?offset=1&limit=5").json()
        assert board["total"] == 7
        assert [e["session"] for e in board["entries"]] == whole[1:6]
        assert [e["rank"] for e in board["entries"]] == [2, 3, 4, 5, 6]
        # Nothing of the rebuild ran in the request (its read of the day's entries in
        # batches): a worker does it, and the index is back soon after.
        assert not [q for q in seen.sql if "::text" in q and "ORDER BY sort_key" in q]
        deadline = time.monotonic() + 30
        while not r.exists(index.key("freecell", day)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [m.decode() for m in r.zrange(index.key("freecell", day), 0, -1)] == whole


def test_the_all_time_board_is_kept_and_follows_wins(api, settings):
    settings.PERIOD_BOARD_SECONDS = 60
    deal = ensure_daily("freecell", today())
    _win(deal, "first", 30_000)
    c = api()
    url = "/api/leaderboards/freecell/all-time/"
    assert [e["player"] for e in c.get(url).json()["entries"]] == ["first"]
    with Statements() as seen:
        again = c.get(url).json()["entries"]
    assert [e["player"] for e in again] == ["first"]
    assert not [q for q in seen.sql if "GROUP BY" in q.upper()]  # answered as kept
    _win(deal, "second", 20_000)  # a win marks the board stale: computed again at once
    assert [e["player"] for e in c.get(url).json()["entries"]] == ["second", "first"]
    _win(deal, "third", 10_000)  # stale again, but computed a moment ago: kept a minute
    with Statements() as seen:
        stale = c.get(url).json()["entries"]
    assert [e["player"] for e in stale] == ["second", "first"]
    assert not [q for q in seen.sql if "GROUP BY" in q.upper()]
    settings.PERIOD_BOARD_SECONDS = 0
    assert [e["player"] for e in c.get(url).json()["entries"]][0] == "third"
