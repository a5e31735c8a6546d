"""Resigning by one statement (games/play/locked.py, ``resign_at_once``) and what it leaves
to the locked path: a retry, a stale seq, a game over, another player's session.

The statement changes the row only while it is the player's, being played and at the seq
sent, so each of those cases changes nothing here and is answered as before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.errors import BadRequest, Refused, SessionNotFound, StaleSeq
from games.models import GameSession, Player
from games.play import operations

pytestmark = pytest.mark.django_db(transaction=True)  # autocommit, as a request runs it


def _started(game: str = "klondike") -> tuple[Player, GameSession]:
    player = Player.objects.create()
    return player, operations.start_session(player, game, "random").session


@pytest.mark.parametrize("seq", [None, 0])
def test_a_resign_is_one_statement_and_answers_the_row_as_stored(seq):
    player, session = _started()
    with CaptureQueriesContext(connection) as queries:
        outcome = operations.resign(session.pk, player, seq, "r1")
    assert len(queries) == 1, [q["sql"][:80] for q in queries]
    stored = GameSession.objects.select_related("deal").get(pk=session.pk)
    assert stored.status == outcome.session.status == GameSession.RESIGNED
    assert stored.finished_at == outcome.session.finished_at is not None
    assert outcome.session.deal.public_id == stored.deal.public_id
    assert outcome.op == "r1"
    assert not outcome.repeated
    assert outcome.game.cards_up == stored.cards_up


def test_a_resign_retried_is_answered_as_a_repeat_and_changes_nothing():
    player, session = _started()
    first = operations.resign(session.pk, player, 0, "r1")
    again = operations.resign(session.pk, player, 0, "r1")
    assert again.repeated
    assert again.session.finished_at == first.session.finished_at
    assert GameSession.objects.get(pk=session.pk).finished_at == first.session.finished_at


def test_a_stale_resign_is_refused_and_the_game_goes_on():
    player, session = _started()
    token = operations.get_session(session.pk, player).game.notation(
        next(iter(operations.get_session(session.pk, player).game.legal_moves()))
    )
    operations.play_move(session.pk, player, 0, token)
    with pytest.raises(StaleSeq):
        operations.resign(session.pk, player, 0)
    assert GameSession.objects.get(pk=session.pk).status == GameSession.PLAYING


def test_another_players_session_is_not_found_and_not_resigned():
    _, session = _started()
    with pytest.raises(SessionNotFound):
        operations.resign(session.pk, Player.objects.create(), None)
    assert GameSession.objects.get(pk=session.pk).status == GameSession.PLAYING


def test_a_won_game_is_refused():
    player, session = _started()
    GameSession.objects.filter(pk=session.pk).update(status=GameSession.WON)
    with pytest.raises(Refused) as refused:
        operations.resign(session.pk, player, None)
    assert refused.value.args[0].code == "game_won"
    assert GameSession.objects.get(pk=session.pk).status == GameSession.WON


@pytest.mark.parametrize("seq", [2**40, -1, True, "0"])
def test_a_seq_no_row_can_hold_goes_to_the_locked_path(seq):
    player, session = _started()
    with pytest.raises((StaleSeq, BadRequest)):
        operations.resign(session.pk, player, seq)
    assert GameSession.objects.get(pk=session.pk).status == GameSession.PLAYING
