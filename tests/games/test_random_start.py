"""A random deal's start: the deal and the session by one statement (games/play/fresh.py,
``insert_with_deal``), and what that statement leaves to the ordinary path.

The statement inserts the session only when the seed's deal is no daily: a FreeCell number
can be one, and a daily needs the locked start's ranked checks (and is refused before its
day).  A merged guest is refused with nothing stored (tests/games/test_guest_merge.py
races it against a sign-in)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.daily import deals as daily
from games.engine import GAMES
from games.errors import DealError
from games.models import Deal, GameSession, Player
from games.play import fresh, operations


def _seed_is(monkeypatch, game: str, seed: int) -> None:
    monkeypatch.setattr(GAMES[game], "random_seed", classmethod(lambda cls: seed))


@pytest.mark.django_db(transaction=True)  # autocommit, as a request runs it
@pytest.mark.parametrize("game", ["klondike", "freecell"])
def test_a_random_start_is_one_statement_and_reads_back_like_any_session(game):
    player = Player.objects.create()
    with CaptureQueriesContext(connection) as queries:
        outcome = operations.start_session(player, game, "random")
    assert len(queries) == 1, [q["sql"][:80] for q in queries]
    stored = GameSession.objects.select_related("deal").get(pk=outcome.session.pk)
    assert stored.player_id == player.pk
    assert not stored.ranked
    assert stored.game == game
    assert stored.deal_id == outcome.session.deal.pk
    assert stored.deal.date is None
    assert outcome.session.deal.public_id == stored.deal.public_id
    assert stored.created_at == outcome.session.created_at
    assert outcome.game.cards_up == operations.get_session(stored.pk, player).game.cards_up


@pytest.mark.django_db(transaction=True)
def test_a_freecell_number_that_has_a_deal_gets_a_session_on_that_deal(monkeypatch):
    there = Deal.objects.create(game="freecell", seed=1234)
    _seed_is(monkeypatch, "freecell", 1234)
    player = Player.objects.create()
    outcome = operations.start_session(player, "freecell", "random")
    assert outcome.session.deal.pk == there.pk
    assert Deal.objects.filter(game="freecell", seed=1234).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_random_number_that_is_todays_daily_takes_the_locked_start(monkeypatch):
    deal = daily.todays_deal("freecell")
    _seed_is(monkeypatch, "freecell", deal.seed)
    player = Player.objects.create()
    outcome = operations.start_session(player, "freecell", "random")
    # As before the one statement: the daily's first attempt is the ranked one.
    assert outcome.session.deal.pk == deal.pk
    assert outcome.session.ranked
    assert GameSession.objects.filter(player=player).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_random_number_that_is_a_daily_not_open_yet_is_refused_and_stores_nothing(monkeypatch):
    later = Deal.objects.create(
        game="freecell", seed=4321, date=daily.today() + dt.timedelta(days=3)
    )
    _seed_is(monkeypatch, "freecell", 4321)
    player = Player.objects.create()
    with pytest.raises(DealError, match="not available yet"):
        operations.start_session(player, "freecell", "random")
    assert not GameSession.objects.filter(player=player).exists()
    assert Deal.objects.filter(game="freecell", seed=4321).get().pk == later.pk


@pytest.mark.django_db(transaction=True)
def test_a_seed_another_request_is_inserting_starts_by_the_ordinary_path(monkeypatch):
    monkeypatch.setattr(fresh, "insert_with_deal", lambda session: (None, False))
    player = Player.objects.create()
    outcome = operations.start_session(player, "klondike", "random")
    assert GameSession.objects.get(pk=outcome.session.pk).deal_id == outcome.session.deal.pk
