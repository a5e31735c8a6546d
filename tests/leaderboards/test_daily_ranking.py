"""The daily ranking from PostgreSQL: wins first in each game's order, then the rest."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player


def _session(deal, name, won, score=None, time_ms=None, moves=10, cards_up=0, **kw):
    player = Player.objects.create(display_name=name)
    now = timezone.now()
    return GameSession.objects.create(
        player=player,
        deal=deal,
        game=deal.game,
        ranked=kw.pop("ranked", True),
        status="won" if won else "playing",
        score=score,
        time_ms=time_ms,
        move_count=moves,
        cards_up=52 if won else cards_up,
        started_at=now,
        finished_at=now + dt.timedelta(milliseconds=time_ms or 0) if won else None,
        moves=[["x", 0]],
        **kw,
    )


def test_freecell_ranks_wins_by_time_then_moves_and_unfinished_by_cards_up(api):
    deal = ensure_daily("freecell", today())
    _session(deal, "slow", True, time_ms=90_000, moves=80)
    _session(deal, "quick", True, time_ms=60_000, moves=100)
    _session(deal, "tied", True, time_ms=60_000, moves=90)
    _session(deal, "stuck", False, cards_up=30)
    _session(deal, "barely", False, cards_up=3)
    _session(deal, "practice", True, time_ms=1, ranked=False)
    _session(deal, "cheat", True, time_ms=2, disqualified=True)
    board = api().get(f"/api/leaderboards/freecell/{today().isoformat()}/").json()
    assert [e["player"] for e in board["entries"]] == ["tied", "quick", "slow", "stuck", "barely"]
    assert [e["rank"] for e in board["entries"]] == [1, 2, 3, 4, 5]
    assert board["entries"][3]["won"] is False
    assert board["entries"][3]["time_ms"] is None


def test_klondike_ranks_wins_by_score_then_time(api):
    deal = ensure_daily("klondike", today())
    _session(deal, "fast low", True, score=500, time_ms=10_000)
    _session(deal, "slow high", True, score=700, time_ms=99_000)
    _session(deal, "unfinished", False, score=900, cards_up=40)
    board = api().get(f"/api/leaderboards/klondike/{today().isoformat()}/").json()
    assert [e["player"] for e in board["entries"]] == ["slow high", "fast low", "unfinished"]


def test_a_bad_game_or_date_is_a_clear_400(api):
    c = api()
    assert c.get("/api/leaderboards/chess/2026-01-01/").status_code == 400
    r = c.get("/api/leaderboards/klondike/yesterday/")
    assert r.status_code == 400
    assert "YYYY-MM-DD" in r.json()["reason"]
