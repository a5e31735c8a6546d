"""Moves stored one row each (games/play/moves.py), games of any length, games stored
before the rows, and the copy of those into rows (``manage.py backfill_moves``).

A game's storage once was one JSON list rewritten whole by every move: its cost grew with
the game (bench/move_store.py).  Every promise made of a stored game must hold on the rows
as it did on the list: a move stored once whatever the connection does (the op id), the
replay equal to the stored result, and games stored in the list still playing on."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from games.engine import new_game, replay
from games.models import GameSession, Move, Player
from games.play import moves, operations


def _long_game(player: Player, length: int, seed: int = 617, op_at: int | None = None):
    """A FreeCell game of ``length`` random legal moves (and undos), played through the
    site's operations; the op ``"late"`` is sent with move ``op_at``."""
    s = operations.start_session(player, "freecell", seed).session
    g, rng = new_game("freecell", seed), random.Random(seed)
    for seq in range(length):
        legal = list(g.legal_moves())
        undo = bool(g.history) and (not legal or rng.random() < 0.05)
        token = "u" if undo else g.notation(rng.choice(legal))
        op = "late" if seq == op_at else None
        out = operations.play_move(s.pk, player, seq, token, op)
        assert out.session.seq == seq + 1
        g.undo() if undo else g.play(token)
    return GameSession.objects.select_related("deal").get(pk=s.pk), g


@pytest.mark.django_db(transaction=True)
def test_a_game_of_2000_moves_stores_a_row_a_move_and_replays_to_its_result():
    player = Player.objects.create(display_name="long")
    s, g = _long_game(player, 2000, op_at=1500)
    assert Move.objects.filter(session=s).count() == 2000 == s.seq
    assert s.legacy_moves == []  # nothing in the old list
    again = replay("freecell", 617, s.tokens)
    assert (again.cards_up, again.moves) == (s.cards_up, s.move_count) == (g.cards_up, g.moves)
    # A repeat of the operation stored at move 1500, sent with its own seq: answered as
    # a repeat, nothing stored twice.
    out = operations.play_move(s.pk, player, 1500, s.tokens[1500], "late")
    assert out.repeated
    assert out.session.seq == 2000
    assert Move.objects.filter(session=s).count() == 2000


@pytest.mark.django_db(transaction=True)
def test_a_game_stored_in_the_list_plays_on_in_rows_and_reads_whole():
    """A game the previous release stored (its moves in the list) goes on under this one:
    the new moves get rows, the old ones are read from the list at their index."""
    player = Player.objects.create(display_name="old")
    s = operations.start_session(player, "freecell", 617).session
    g, legacy = new_game("freecell", 617), []
    for i in range(30):
        token = g.notation(next(iter(g.legal_moves())))
        g.play(token)
        legacy.append([token, 1_700_000_000_000 + i] + (["old-op"] if i == 29 else []))
    GameSession.objects.filter(pk=s.pk).update(legacy_moves=legacy, seq=30)
    from games.play import tables

    tables.clear()  # another process: the table is rebuilt from what is stored
    repeat = operations.play_move(s.pk, player, 29, legacy[29][0], "old-op")
    assert repeat.repeated
    assert repeat.session.seq == 30  # its op found in the list
    token = g.notation(next(iter(g.legal_moves())))
    out = operations.play_move(s.pk, player, 30, token, "new-op")
    g.play(token)
    assert out.session.seq == 31
    stored = GameSession.objects.select_related("deal").get(pk=s.pk)
    assert [m[0] for m in stored.moves] == [m[0] for m in legacy] + [token]
    assert stored.moves[29][2] == "old-op"
    assert stored.moves[30][2] == "new-op"
    assert replay("freecell", 617, stored.tokens).cards_up == g.cards_up


@pytest.mark.django_db(transaction=True)
def test_dual_mode_writes_the_list_too_for_the_release_still_serving(settings):
    settings.MOVE_STORE = "dual"
    player = Player.objects.create(display_name="dual")
    s, _ = _long_game(player, 40, op_at=12)
    assert [m[0] for m in s.legacy_moves] == s.tokens
    assert s.legacy_moves[12][2] == "late"
    assert len(s.legacy_moves[11]) == 2
    assert Move.objects.filter(session=s).count() == 40


@pytest.mark.django_db(transaction=True)
def test_backfill_copies_long_lists_into_rows_and_clear_empties_them(settings):
    """The copy runs in batches while the site serves; a second run copies nothing."""
    settings.MOVE_STORE = "dual"
    player = Player.objects.create(display_name="copy")
    games = [_long_game(player, n, seed=seed)[0] for n, seed in ((2000, 617), (3, 11982))]
    expected = {s.pk: s.moves for s in games}
    Move.objects.all().delete()  # as the previous release left them: lists only
    for s in games:
        assert GameSession.objects.get(pk=s.pk).moves == expected[s.pk]  # read from lists
    settings.MOVE_STORE = "rows"
    out = StringIO()
    call_command("backfill_moves", "--batch", "1", stdout=out)
    assert "2003 moves copied" in out.getvalue()
    assert "2 sessions" in out.getvalue()
    assert Move.objects.count() == 2003
    out = StringIO()
    call_command("backfill_moves", "--clear", stdout=out)
    assert "0 moves copied" in out.getvalue()
    for s in games:
        stored = GameSession.objects.select_related("deal").get(pk=s.pk)
        assert stored.legacy_moves == []
        assert stored.moves == expected[s.pk]
        assert replay("freecell", stored.deal.seed, stored.tokens).cards_up == stored.cards_up


@pytest.mark.django_db(transaction=True)
def test_backfill_refuses_to_clear_while_an_older_release_may_read_the_lists(settings):
    from django.core.management.base import CommandError

    settings.MOVE_STORE = "dual"
    with pytest.raises(CommandError, match="MOVE_STORE is dual"):
        call_command("backfill_moves", "--clear", stdout=StringIO())


@pytest.mark.django_db(transaction=True)
def test_one_move_is_one_small_insert_and_the_list_is_never_read():
    """The statement that stores a common move touches the previous move's row and the
    session's counters; the legacy list is read only for a game that has no rows."""
    player = Player.objects.create(display_name="plan")
    s, g = _long_game(player, 5)
    from games.play import optimistic

    token = g.notation(next(iter(g.legal_moves())))
    pending = optimistic.check(s.pk, player, 5, token, "op-plan")
    assert isinstance(pending, optimistic.Pending)
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN (COSTS OFF) " + optimistic.sql(), optimistic.rows_param([pending.params])
        )
        plan = "\n".join(r[0] for r in cursor.fetchall())
    assert "Insert on games_move" in plan
    assert "games_move_pkey" in plan
    assert moves.op_at(s.pk, 4) is None
