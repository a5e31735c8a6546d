"""Two clients submitting the same seq at once: PostgreSQL's row lock lets one through."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.engine import seen
from games.models import GameSession


@pytest.mark.django_db(transaction=True)
def test_two_clients_sending_the_same_seq_at_once_apply_exactly_one_move(api):
    assert connection.vendor == "postgresql"
    first = api()
    # A second browser tab of the same player: same cookies, its own connection.
    second = api()
    second.client.cookies = first.client.cookies
    second.csrf = first.csrf
    moves = ["8a", "8b"]
    barrier = threading.Barrier(len(moves))
    answers: list[int] = []

    def submit(client, s, move):
        from django.db import connections

        try:
            barrier.wait()
            answers.append(client.move(s, 0, move).status_code)
        finally:
            connections.close_all()

    for _round in range(3):
        s = first.start("freecell", 617)
        threads = [
            threading.Thread(target=submit, args=(cl, s, m))
            for cl, m in zip((first, second), moves, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409]
        stored = GameSession.objects.get(pk=s["id"])
        assert len(stored.moves) == 1
        assert stored.move_count == 1
        answers.clear()


@pytest.mark.django_db(transaction=True)
def test_a_table_kept_by_a_process_that_missed_a_move_never_stores_a_second_move_at_its_seq():
    """Another process stored move 2 while this one still keeps the table after move 1: a
    client replaying seq 1 here is checked on that old table, but the storing statement
    itself sees the row has moved on, so nothing is stored and the answer is a stale seq."""
    from games.errors import StaleSeq
    from games.models import Player
    from games.play import operations, tables

    player = Player.objects.create()
    s = operations.start_session(player, "freecell", 617).session
    operations.play_move(s.id, player, 0, "8a")
    stale = tables.peek(s.id, 1)
    assert stale is not None
    tables.clear()  # "the other process": it has no table and takes the locked path
    second = operations.play_move(s.id, player, 1, "8b")
    assert second.session.seq == 2
    legal_there = seen.move_objects(stale)[0]["move"]  # passes the check on the old table
    tables.keep(
        s.id, 1, stale, (player.pk, s.deal, s.ranked)
    )  # this process's old table comes back
    with pytest.raises(StaleSeq) as refused:
        operations.play_move(s.id, player, 1, legal_there)
    assert refused.value.current == 2
    stored = GameSession.objects.get(pk=s.id)
    assert [t for t, _ in stored.moves] == ["8a", "8b"]
    assert stored.seq == 2
