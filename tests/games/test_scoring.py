"""Scoring is a declared fact of each game (games/engine/scoring.py, docs/rules.md
"Scores"), stored with each session: Aisleriot's variants of Klondike score a point a card
up; a session stored before, under Windows' scoring, keeps its score, goes on being scored
that way, replays to it and re-validates."""

from __future__ import annotations

from typing import Any

import pytest

from games.admin.inspection import replay_steps, revalidate
from games.engine import replay
from games.engine.scoring import AISLERIOT, WINDOWS
from games.models import GameSession
from games.play import tables


def _play(c: Any, s: dict[str, Any], n: int) -> dict[str, Any]:
    """``n`` legal moves, a card's move whenever there is one (the stock otherwise)."""
    state = s
    for _ in range(n):
        moves = state["legal_moves"]
        m = next((m for m in moves if "stock" not in (m["from"], m["to"])), moves[0])
        r = c.move(s, state["seq"], m["move"])
        assert r.status_code == 200, r.content
        state = r.json()
    return state


@pytest.mark.parametrize("game", ["klondike-draw3", "klondike-3-passes", "klondike-1-pass"])
def test_aisleriots_variants_score_a_point_a_card_up(api: Any, game: str) -> None:
    c = api()
    s = c.start(game, "random")
    state = _play(c, s, 40)
    row = GameSession.objects.get(pk=s["id"])
    assert row.scoring == AISLERIOT == row.scored_by
    assert state["score"] == state["cards_up"] == row.score
    assert revalidate(row, None)["matches"]


def test_klondike_and_whitehorse_keep_windows_scoring(api: Any) -> None:
    for game in ("klondike", "whitehorse"):
        c = api()
        s = c.start(game, "random")
        state = _play(c, s, 30)
        row = GameSession.objects.get(pk=s["id"])
        assert row.scoring == WINDOWS
        assert state["score"] == replay(game, row.deal.seed, row.tokens, WINDOWS).score


def test_a_session_stored_before_keeps_windows_scoring_replays_and_revalidates(api: Any) -> None:
    c = api()
    s = c.start("klondike-draw3", "random")
    _play(c, s, 30)
    row = GameSession.objects.get(pk=s["id"])
    old = replay(row.game, row.deal.seed, row.tokens, WINDOWS).score
    assert old != row.cards_up, "the moves should score apart under the two schemes"
    # The row as the release before stored it: no scheme recorded, Windows' score.
    GameSession.objects.filter(pk=row.pk).update(scoring="", score=old)
    tables.clear()  # that release's process kept no table of it here
    row.refresh_from_db()
    assert row.scored_by == WINDOWS
    assert revalidate(row, None)["matches"]
    steps, _ = replay_steps(row)
    assert steps[-1].score == old
    # Played on after the change: still Windows' scoring, stored and re-validated.
    r = c.get(f"/api/sessions/{s['id']}/")
    state = _play(c, r.json(), 10)
    row.refresh_from_db()
    assert state["score"] == row.score == replay(row.game, row.deal.seed, row.tokens, WINDOWS).score
    assert row.scoring == ""
    assert revalidate(row, None)["matches"]
    replayed = c.get(f"/api/sessions/{s['id']}/replay/").json()["steps"]
    assert replayed[-1]["score"] == row.score


def test_a_changed_score_is_still_caught(api: Any) -> None:
    c = api()
    # A random deal whose thirty moves give a Windows score other than the cards up (on a
    # few deals both are 0, and the change would change nothing).
    for _ in range(10):
        s = c.start("klondike-draw3", "random")
        _play(c, s, 30)
        row = GameSession.objects.get(pk=s["id"])
        windows = replay(row.game, row.deal.seed, row.tokens, WINDOWS).score
        if windows != row.cards_up:
            break
        c.post(f"/api/sessions/{s['id']}/resign/", {})
    assert windows != row.cards_up
    # A new session's Windows score is not its score: re-validation says so.
    GameSession.objects.filter(pk=row.pk).update(score=windows)
    row.refresh_from_db()
    assert not revalidate(row, None)["matches"]
