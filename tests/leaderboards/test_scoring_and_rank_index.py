"""Scoring tasks, the Redis rank index and day close: idempotent and rebuildable."""

from __future__ import annotations

import datetime as dt

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player
from leaderboards import index, ranking
from leaderboards.models import DayClosed, Entry
from leaderboards.tasks import close_day, rebuild_rank_index, score_session


def _won(deal, name, time_ms, moves=100, score=None):
    now = timezone.now()
    return GameSession.objects.create(
        player=Player.objects.create(display_name=name),
        deal=deal,
        game=deal.game,
        ranked=True,
        status="won",
        score=score,
        time_ms=time_ms,
        move_count=moves,
        cards_up=52,
        started_at=now - dt.timedelta(milliseconds=time_ms),
        finished_at=now,
        moves=[["x", 0]],
    )


def _playing(deal, name, cards_up):
    return GameSession.objects.create(
        player=Player.objects.create(display_name=name),
        deal=deal,
        game=deal.game,
        ranked=True,
        cards_up=cards_up,
        move_count=20,
        started_at=timezone.now(),
        moves=[["x", 0]],
    )


@pytest.fixture
def board(db):
    deal = ensure_daily("freecell", today())
    sessions = [
        _won(deal, f"p{i}", time_ms=10_000 + 1000 * ((i * 7) % 10), moves=90 + i) for i in range(10)
    ]
    for s in sessions:
        score_session(str(s.pk))
    return deal, sessions


def test_scoring_twice_leaves_one_entry_with_the_same_values(board):
    deal, sessions = board
    before = Entry.objects.get(session=sessions[3])
    score_session(str(sessions[3].pk))
    score_session(str(sessions[3].pk))
    assert Entry.objects.filter(session=sessions[3]).count() == 1
    after = Entry.objects.get(session=sessions[3])
    assert (after.sort_key, after.time_ms, after.moves) == (
        before.sort_key,
        before.time_ms,
        before.moves,
    )


def test_the_redis_index_agrees_with_postgresql_and_survives_a_flush(board):
    deal, sessions = board
    r = redis.Redis.from_url(settings.REDIS_URL)
    assert r.zcard(index.key("freecell", deal.date)) == 10
    expected = [
        str(s)
        for s in Entry.objects.filter(game="freecell", date=deal.date)
        .order_by("sort_key", "session_id")
        .values_list("session_id", flat=True)
    ]
    ranks = {sid: index.rank("freecell", deal.date, sid) for sid in expected}
    assert [ranks[sid] for sid in expected] == list(range(1, 11))

    r.delete(index.key("freecell", deal.date))
    assert rebuild_rank_index("freecell", deal.date.isoformat()) == {"freecell": 10}
    assert {sid: index.rank("freecell", deal.date, sid) for sid in expected} == ranks

    r.delete(index.key("freecell", deal.date))  # lost again: the next lookup rebuilds it
    assert index.rank("freecell", deal.date, expected[4]) == 5
    around = index.around("freecell", deal.date, expected[4], width=2)
    assert around == [(sid, n) for n, sid in enumerate(expected[2:7], start=3)]


def test_a_disqualified_session_leaves_the_index_on_rebuild(board):
    deal, sessions = board
    first = Entry.objects.order_by("sort_key").first().session
    GameSession.objects.filter(pk=first.pk).update(disqualified=True)
    rebuild_rank_index("freecell", deal.date.isoformat())
    assert index.rank("freecell", deal.date, first.pk) is None
    names = [e["player"] for e in ranking.entries("freecell", deal.date)]
    assert len(names) == 9
    assert first.player.display_name not in names


def test_closing_a_day_ranks_unfinished_attempts_below_wins_and_is_idempotent(board, past_midnight):
    deal, sessions = board
    _playing(deal, "almost", 40)
    _playing(deal, "barely", 4)
    past_midnight()
    first = close_day(deal.date.isoformat())
    ranks = list(
        Entry.objects.filter(date=deal.date)
        .order_by("final_rank")
        .values_list("player__display_name", "final_rank", "won")
    )
    assert ranks[-2:] == [("almost", 11, False), ("barely", 12, False)]
    assert all(won for _, _, won in ranks[:10])
    assert close_day(deal.date.isoformat()) == first
    assert Entry.objects.filter(date=deal.date).count() == 12
    assert DayClosed.objects.get(game="freecell", date=deal.date).entries == 12
