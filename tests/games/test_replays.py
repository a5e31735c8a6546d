"""Replays (games/daily/replays.py): a session step by step, as its player saw it.  Its player
may watch it at once; anyone else only a ranked daily session once its day is closed.

Why a replay gives nothing away: every step is the player's own view (face-down cards
stay face down, checked against the engine's full table below), and another player's
game opens only after the close, when the seed is public anyway.
"""

from __future__ import annotations

import datetime as dt

from games.daily.deals import today
from games.models import Deal, GameSession
from leaderboards.models import Entry
from leaderboards.tasks import close_day
from tests.security.leaks import assert_no_leak


def _play(c, game: str, n: int):
    s = c.start(game)
    for seq in range(n):
        legal = c.get(f"/api/sessions/{s['id']}/").json()["legal_moves"]
        assert c.move(s, seq, legal[-1]["move"]).status_code == 200  # the stock too
    return s


def test_the_owner_watches_at_once_what_they_saw_and_nothing_more(api):
    c = api()
    s = _play(c, "klondike", 8)
    r = c.get(f"/api/sessions/{s['id']}/replay/")
    assert r.status_code == 200
    body = r.json()
    assert len(body["steps"]) == 9
    assert body["steps"][0]["move"] is None
    session = GameSession.objects.select_related("deal").get(pk=s["id"])
    assert [st["move"] for st in body["steps"][1:]] == [m[0] for m in session.moves]
    last = c.get(f"/api/sessions/{s['id']}/").json()
    assert body["steps"][-1]["view"] == last["view"]
    # No step names a card that is still hidden at the end (nor the seed).
    from tests.security.leaks import hidden_cards

    hidden, seed = hidden_cards(s["id"])
    for step in body["steps"]:
        assert_no_leak(step, hidden, seed)


def test_another_player_watches_a_ranked_daily_only_once_its_day_is_closed(api):
    owner, other = api(), api()
    s = _play(owner, "whitehorse", 4)
    practice = owner.start("klondike", "random")
    assert other.get(f"/api/sessions/{s['id']}/replay/").status_code == 404
    assert other.get(f"/api/sessions/{practice['id']}/replay/").status_code == 404
    yesterday = today() - dt.timedelta(days=1)
    Deal.objects.filter(date=today()).update(date=yesterday)
    Entry.objects.filter(date=today()).update(date=yesterday)
    close_day(yesterday.isoformat())
    r = other.get(f"/api/sessions/{s['id']}/replay/")
    assert r.status_code == 200
    assert len(r.json()["steps"]) == 5
    assert r.json()["player"] == owner.me["display_name"]
    assert r.json()["ranked"]
    # Practice stays its player's own, closed day or not.
    assert other.get(f"/api/sessions/{practice['id']}/replay/").status_code == 404
    assert owner.get(f"/api/sessions/{practice['id']}/replay/").status_code == 200
    board = other.get(f"/api/leaderboards/whitehorse/{yesterday.isoformat()}/").json()
    assert board["closed"] is True
    for bad in ("nope", "00000000-0000-0000-0000-000000000000"):
        assert other.get(f"/api/sessions/{bad}/replay/").status_code == 404
