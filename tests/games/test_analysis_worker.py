"""The analysis of where a game was lost runs in a real Celery worker: the request that
asks for it answers pending at once, never waiting on the solver, and the worker's answer
is then read from the session."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from games.engine.record import replay
from tests.games.test_analysis import losing_line

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_real_worker_finds_the_turning_point(api, real_worker):
    with override_settings(ANALYSIS_QUEUE=real_worker):
        c = api()
        s = c.start("freecell")
        moves = losing_line(s["deal_number"])
        for seq, token in enumerate(moves):
            assert c.move(s, seq, token).status_code == 200
        assert c.post(f"/api/sessions/{s['id']}/resign/", {}).status_code == 200
        # Pending at first: the request queued the search and did not wait for it.
        first = c.get(f"/api/sessions/{s['id']}/analysis/").json()
        assert first["status"] == "pending"
        assert "turning_point" not in first
        deadline = time.monotonic() + 60
        r = first
        while r["status"] == "pending" and time.monotonic() < deadline:
            time.sleep(0.3)
            r = c.get(f"/api/sessions/{s['id']}/analysis/").json()
    assert r["status"] == "done", r
    tp = r["turning_point"]
    assert tp is not None
    assert replay("freecell", s["deal_number"], moves[:tp] + r["winning_line"]).won
