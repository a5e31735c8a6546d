"""The admin's session list at volume (games/admin/volume.py): what one page costs does not
grow with the sessions table.  bench/boards.py times it at a million sessions; here, on a
few, the statements it sends: no count of the whole table or of every match, no date
hierarchy, and searches answered by indexes (a range of ids, players by the look-alike
key of their names, a deal by its id) instead of a text search of every session."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.accounts.names import name_key
from games.admin.volume import CappedPaginator
from games.daily.deals import ensure_daily, today
from games.models import GameSession, Player

URL = "/admin/games/gamesession/"


@pytest.fixture
def operator(db):
    user = get_user_model().objects.create_superuser("op", "op@example.com", "pw-op-123456")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def sessions(db):
    deal = ensure_daily("klondike", today())
    out = []
    for name in ("Ada_L.", "Adam", "Bob", "Carol", "Dave"):
        player = Player.objects.create(display_name=name, name_key=name_key(name))
        out.append(
            GameSession.objects.create(player=player, deal=deal, game="klondike", ranked=True)
        )
    return deal, out


def _listed(response) -> set[str]:
    return set(
        re.findall(r"/admin/games/gamesession/([0-9a-f-]{36})/change/", response.content.decode())
    )


def test_the_list_counts_no_more_than_its_cap_and_has_no_date_hierarchy(
    operator, sessions, monkeypatch
):
    monkeypatch.setattr(CappedPaginator, "CAP", 3)
    with CaptureQueriesContext(connection) as seen:
        r = operator.get(URL)
    assert r.status_code == 200
    assert r.context["cl"].result_count == 4  # the cap and one: "more than 3"
    assert r.context["cl"].date_hierarchy is None
    counts = [
        q["sql"]
        for q in seen.captured_queries
        if "COUNT(" in q["sql"].upper() and "games_gamesession" in q["sql"]
    ]
    assert counts, counts
    assert all("LIMIT 4" in q for q in counts), counts


def test_a_search_by_the_first_characters_of_an_id_walks_the_primary_key(operator, sessions):
    _, made = sessions
    target = str(made[2].pk)
    for term in (target[:8], target[:13], target.replace("-", "")[:10].upper(), target):
        with CaptureQueriesContext(connection) as seen:
            r = operator.get(URL, {"q": term})
        assert target in _listed(r), term
        listing = [
            q["sql"]
            for q in seen.captured_queries
            if q["sql"].startswith('SELECT "games_gamesession"')
        ]
        assert listing, term
        assert not [q for q in listing if "LIKE" in q or "::text" in q], term


def test_a_search_by_name_finds_the_names_that_read_alike(operator, sessions):
    _, made = sessions
    found = _listed(operator.get(URL, {"q": "ada l"}))
    assert found == {str(made[0].pk)}  # "Ada_L.", not "Adam"
    assert _listed(operator.get(URL, {"q": "ada"})) == {str(made[0].pk), str(made[1].pk)}
    assert _listed(operator.get(URL, {"q": "nobody here"})) == set()


def test_a_search_by_deal_id_lists_that_deals_sessions(operator, sessions):
    deal, made = sessions
    assert _listed(operator.get(URL, {"q": deal.public_id})) == {str(s.pk) for s in made}
