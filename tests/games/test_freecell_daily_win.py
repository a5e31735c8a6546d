"""A FreeCell daily won over HTTP with a public solver's moves."""

from __future__ import annotations

from games.daily.deals import today
from games.models import GameSession


def test_a_freecell_daily_won_over_http_has_server_time_and_a_second_try_is_practice(
    api, solve_freecell
):
    c = api()
    s = c.start("freecell")
    assert s["ranked"] is True
    solution = solve_freecell(s["deal_number"])
    for seq, token in enumerate(solution):
        r = c.move(s, seq, token)
        assert r.status_code == 200, (seq, token, r.content)
    body = r.json()
    assert body["won"] is True
    assert body["status"] == "won"
    assert body["cards_up"] == 52
    assert body["score"] is None
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.time_ms is not None
    assert stored.time_ms == body["time_ms"]
    # The ranked clock runs from the deal being shown, not from the first move.
    ms = lambda t: int(t.timestamp() * 1000)  # noqa: E731  (server times, as stored)
    assert stored.time_ms == ms(stored.finished_at) - ms(stored.created_at)
    assert stored.active_ms is not None
    assert stored.active_ms <= stored.time_ms
    assert stored.moves[-1][1] - stored.moves[0][1] <= stored.time_ms + 1

    # A won game takes no further moves.
    assert c.move(s, len(solution), "1a").status_code == 422

    second = c.start("freecell")
    assert second["ranked"] is False
    assert second["deal"] == s["deal"]

    board = c.get(f"/api/leaderboards/freecell/{today().isoformat()}/").json()
    assert [e["player"] for e in board["entries"]] == [c.me["display_name"]]
    top = board["entries"][0]
    assert top["rank"] == 1
    assert top["won"] is True
    assert top["time_ms"] == stored.time_ms
    assert top["moves"] == len(solution)


def test_finish_sends_the_remaining_cards_up_as_stored_moves(api, solve_freecell):
    c = api()
    s = c.start("freecell", 617)
    solution = solve_freecell(617)
    seq = 0
    for token in solution:
        s = c.move(s, seq, token).json()
        seq += 1
        if s["can_finish"]:
            break
    assert s["can_finish"]
    assert not s["won"]
    r = c.post(f"/api/sessions/{s['id']}/finish/", {"seq": seq})
    assert r.status_code == 200
    body = r.json()
    assert body["won"] is True
    assert body["seq"] > seq
    assert len(GameSession.objects.get(pk=s["id"]).moves) == body["seq"]


def test_a_bakers_dozen_win_scores_its_cards_the_win_bonus_and_the_time_bonus(api):
    from games.engine.solver import SOLVED, solve_deal
    from games.models import Deal

    deal = Deal.objects.create(game="bakers-dozen", seed=42)  # the solver wins it at once
    c = api()
    s = c.start("bakers-dozen", deal.public_id)
    solution = solve_deal("bakers-dozen", 42, 20.0)
    assert solution.status == SOLVED
    seq = 0
    for token in solution.moves:
        r = c.move(s, seq, token)
        assert r.status_code == 200, (token, r.content)
        seq += 1
    body = r.json()
    assert body["won"]
    assert body["time_ms"] is not None
    # docs/rules.md, Scores: 5 a card, +500 for the win, and max(0, 1200 - seconds taken).
    assert body["score"] == 5 * 52 + 500 + max(0, 1200 - body["time_ms"] // 1000)
