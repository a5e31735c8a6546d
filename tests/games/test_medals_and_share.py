"""Par, medals and the result to share (games/daily/medals.py, games/daily/share.py, docs/rules.md).

What the share text could give away, and why it does not: it carries the game, the day,
the time, move counts, the par, the medal and five squares of cards-up counts, which the
board shows anyway; no card code and no position (checked below against every card code).
"""

from __future__ import annotations

import re

import pytest

from games.daily import medals
from games.models import Deal, GameSession
from tests.conftest import fc_solve

CARD = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])|10[CDHS]")


@pytest.mark.parametrize(
    ("moves", "par", "expected"),
    [
        (80, 84, "gold"),
        (84, 84, "gold"),
        (92, 84, "gold"),
        (93, 84, "silver"),
        (109, 84, "silver"),
        (110, 84, "bronze"),
        (500, 84, "bronze"),
        (90, None, None),
    ],
)
def test_medal_thresholds(moves, par, expected):
    assert medals.medal(True, moves, par) == expected
    assert medals.medal(False, moves, par) is None


def _win_freecell_daily(c, par_over: float):
    s = c.start("freecell")
    line = fc_solve(s["deal_number"])
    Deal.objects.filter(public_id=s["deal"]).update(par=max(1, round(len(line) / par_over)))
    for seq, token in enumerate(line):
        r = c.move(s, seq, token)
        assert r.status_code == 200
    return r.json(), line


def test_a_won_daily_shows_its_par_and_medal_and_the_board_too(api):
    c = api()
    state, line = _win_freecell_daily(c, 1.2)  # 20% over par: silver
    assert state["won"]
    assert state["par"]
    assert state["medal"] == "silver"
    daily = {d["game"]: d for d in c.get("/api/daily/").json()["deals"]}
    assert daily["freecell"]["par"] == state["par"]
    board = c.get(f"/api/leaderboards/freecell/{state['date']}/").json()
    assert board["par"] == state["par"]
    assert board["entries"][0]["medal"] == "silver"


def test_the_share_text_names_the_result_and_no_card(api):
    c = api()
    state, line = _win_freecell_daily(c, 1.0)
    text = c.get(f"/api/sessions/{state['id']}/share/").json()["text"]
    first, squares = text.split("\n")
    assert first.startswith(f"Daily Solitaire · FreeCell {state['date']} · ")
    assert f"{len(line)} moves (par {state['par']}) · gold" in first
    assert re.search(r" · \d+:\d\d · ", first)
    assert len(squares) == 5
    assert squares[-1] == "🟩"
    assert set(squares) <= set("⬛🟥🟨🟦🟩")
    assert not CARD.search(text), text
    assert str(state["deal_number"]) not in first  # the daily is named by its day


def test_an_unfinished_attempt_shares_its_cards_up(api):
    c = api()
    s = c.start("klondike", "random")
    for seq in range(6):
        legal = c.get(f"/api/sessions/{s['id']}/").json()["legal_moves"]
        assert c.move(s, seq, legal[0]["move"]).status_code == 200
    session = GameSession.objects.get(pk=s["id"])
    text = c.get(f"/api/sessions/{s['id']}/share/").json()["text"]
    assert text.startswith("Daily Solitaire · Klondike random deal · 6 moves · ")
    assert f"{session.cards_up}/52 cards up" in text
    assert not CARD.search(text)
    # Another player cannot read it.
    assert api().get(f"/api/sessions/{s['id']}/share/").status_code == 404
