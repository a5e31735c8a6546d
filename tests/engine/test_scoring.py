"""Each game declares its scoring (games/engine/scoring.py, docs/rules.md "Scores"), and a
table can be scored by another scheme (a stored game replayed as it was scored)."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GAMES, new_game, replay
from games.engine.scoring import AISLERIOT, NONE, SCORERS, WINDOWS

from .test_properties import play_randomly, seeds

ROOT = Path(__file__).resolve().parents[2]


def scores_table() -> dict[str, str]:
    """Each game's scheme as docs/rules.md's Scores table gives it (the rule texts'): a row
    names its games' keys in its first cell and the scheme in its second."""
    out = {}
    text = (ROOT / "docs" / "rules.md").read_text()
    table = text[text.index("## Scores") :].split("\n\n")[2]
    for row in table.splitlines()[2:]:
        cells = row.split("|")
        scheme = re.findall(r"`([a-z-]+)`", cells[2])[0]
        for key in re.findall(r"`([a-z0-9-]+)`", cells[1]):
            out[key] = scheme
    return out


DECLARED = scores_table()


def test_each_game_declares_the_scoring_of_its_rule_text() -> None:
    assert {key: cls.scoring for key, cls in GAMES.items()} == DECLARED
    assert all(cls.has_score == (cls.scoring != NONE) for cls in GAMES.values())


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(k for k, s in DECLARED.items() if s == AISLERIOT)), seeds, st.data())
def test_aisleriots_score_is_the_cards_up_after_every_move_and_undo(key, seed, data):
    g = new_game(key, seed)
    for _ in play_randomly(g, data, 60):
        assert g.score == g.cards_up <= 52
    while g.history:
        g.undo()
        assert g.score == g.cards_up


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(GAMES)), seeds, st.data())
def test_a_table_scored_by_another_scheme_keeps_it_through_copies_and_pickles(key, seed, data):
    scheme = data.draw(st.sampled_from(sorted(SCORERS)))
    g = new_game(key, seed, scheme)
    for _ in play_randomly(g, data, 30):
        pass
    tokens = [g.notation(m) for m, *_ in g.history]
    again = replay(key, seed, tokens, scheme)
    assert again.score == g.score
    assert again.has_score == (scheme != NONE)
    for other in (g.copy(), pickle.loads(pickle.dumps(g))):
        assert other.scoring == scheme
        moves = list(other.legal_moves())
        if moves:
            mine = g.copy()
            mine.apply(moves[0])
            other.apply(moves[0])
            assert other.score == mine.score


def test_the_same_moves_score_by_each_scheme() -> None:
    cls = GAMES["klondike-draw3"]
    tables = {}
    for scheme in (AISLERIOT, WINDOWS):
        g = cls.setup([["AH"], ["2H"], ["3S"]], down=[0, 0, 0])
        g.score_under(scheme)
        for token in ("1h", "2h", "fh3"):  # two cards up, one back down
            g.play(token)
        tables[scheme] = g
    assert tables[AISLERIOT].score == 1  # a point a card up
    assert tables[WINDOWS].score == 10 + 10 - 15  # +10 a card up, -15 a card back down


def test_an_unknown_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown scoring 'vegas'"):
        new_game("klondike", 1, "vegas")
