"""Two clients submitting the same seq at once: PostgreSQL's row lock lets one through."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

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
        threads = [threading.Thread(target=submit, args=(cl, s, m))
                   for cl, m in zip((first, second), moves, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409]
        stored = GameSession.objects.get(pk=s["id"])
        assert len(stored.moves) == 1 and stored.move_count == 1
        answers.clear()
