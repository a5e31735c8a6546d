"""The tests' variant (tests/engine/variant.py), one declaration in the engine, is a game of
the HTTP API for as long as it is registered: sessions start on it, its rules answer the
moves, and a solved deal is won over the API."""

from __future__ import annotations

import json
import time

import pytest

from games.engine import new_game
from games.engine.solver import SOLVED, Budget, solve
from tests.engine.variant import registered


def test_the_api_knows_the_variant_only_while_it_is_registered(api) -> None:
    c = api()
    with registered() as cls:
        started = c.post("/api/sessions/", {"game": cls.key, "deal": "random"})
        assert started.status_code == 201, started.content
    after = c.post("/api/sessions/", {"game": cls.key, "deal": "random"})
    assert after.status_code == 400
    assert "unknown game" in after.json()["reason"]


def test_a_random_deal_of_the_variant_plays_by_its_rules(api) -> None:
    c = api()
    with registered() as cls:
        s = c.start(cls.key, "random")
        assert s["game"] == cls.key
        assert s["ranked"] is False
        assert s["score"] is None
        assert [p for p in s["view"]["piles"] if p.startswith("cell:")] == ["cell:0", "cell:1"]
        assert 1 <= s["deal_number"] <= 32000  # FreeCell's deal numbers, as FreeCell's are
        seq = 0
        for cell in ("cell:0", "cell:1"):
            move = next(m for m in s["legal_moves"] if m["to"] == cell)
            r = c.move(s, seq, move["move"])
            assert r.status_code == 200, r.content
            s, seq = r.json(), seq + 1
            assert s["seq"] == seq
            assert s["view"]["piles"][cell] == [move["card"]]
        assert not any(m["to"].startswith("cell:") for m in s["legal_moves"])
        refused = c.move(s, seq, "1c")
        assert refused.status_code == 422
        assert refused.json()["code"] == "no_cell"


@pytest.mark.parametrize("deal", [3])
def test_a_deal_of_the_variant_is_won_over_the_api(api, deal: int) -> None:
    c = api()
    with registered() as cls:
        line = solve(new_game(cls.key, deal), Budget(20, clock=time.process_time))
        assert line.status == SOLVED
        s = c.start(cls.key, deal)
        assert s["deal_number"] == deal
        for seq, token in enumerate(line.moves):
            r = c.move(s, seq, token)
            assert r.status_code == 200, (seq, token, r.content)
        end = r.json()
        assert end["won"] is True
        assert end["status"] == "won"
        assert end["cards_up"] == 52
        assert end["score"] is None
        assert end["time_ms"] is not None


def test_the_table_page_of_the_variant_takes_its_facts_from_the_class(api) -> None:
    c = api()
    with registered() as cls:
        page = c.get(f"/play/{cls.key}/?deal=random")
        assert page.status_code == 200
        html = page.content.decode()
    data = json.loads(
        html.split('id="page-data" type="application/json">')[1].split("</script>")[0]
    )
    meta = data["game"]
    assert (meta["key"], meta["cells"], meta["daily"], meta["has_score"]) == (
        cls.key,
        2,
        False,
        False,
    )
    assert meta["notation"] == {"columns": "12345678", "foundation_from": "h"}
    assert cls.title in html
    assert 'id="st-score"' not in html  # no score cell without a score
