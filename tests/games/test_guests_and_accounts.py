"""Guests play at once; an account keeps everything the guest played (docs/rules.md, "Players and accounts")."""

from __future__ import annotations

import pytest

from games.models import GameSession, Player


def test_a_first_visit_is_a_guest_with_a_generated_name(api):
    c = api()
    assert c.me["guest"] is True
    assert 3 <= len(c.me["display_name"]) <= 24
    assert c.get("/api/me/").json()["id"] == c.me["id"]
    assert Player.objects.count() == 1


def test_a_guest_signing_up_keeps_its_games_and_its_ranked_daily(api):
    c = api()
    s = c.start("klondike")
    c.move(s, 0, s["legal_moves"][0]["move"])
    r = c.post("/api/auth/signup/", {"username": "ada", "password": "correct horse 42"})
    assert r.status_code == 201, r.content
    assert r.json()["guest"] is False
    assert r.json()["id"] == c.me["id"]
    c.csrf = c.client.cookies["csrftoken"].value  # login rotates the CSRF token
    again = c.get(f"/api/sessions/{s['id']}/")
    assert again.status_code == 200
    assert again.json()["seq"] == 1
    assert again.json()["ranked"]
    assert c.post(f"/api/sessions/{s['id']}/resign/", {}).status_code == 200
    assert c.start("klondike")["ranked"] is False


def test_signing_in_on_another_device_brings_the_games_along(api):
    home = api()
    s = home.start("freecell")
    home.post("/api/auth/signup/", {"username": "grace", "password": "correct horse 42"})
    phone = api()
    phone_game = phone.start("bakers-dozen")
    r = phone.post("/api/auth/signin/", {"username": "grace", "password": "correct horse 42"})
    assert r.status_code == 200
    assert r.json()["id"] == home.me["id"]
    phone.csrf = phone.client.cookies["csrftoken"].value
    assert phone.get(f"/api/sessions/{s['id']}/").status_code == 200
    assert phone.get(f"/api/sessions/{phone_game['id']}/").status_code == 200
    assert GameSession.objects.filter(player_id=home.me["id"]).count() == 2
    # The guest's row stays, pointing at the account, so a stale request is answered.
    assert Player.objects.get(pk=phone.me["id"]).merged_into_id == home.me["id"]


def test_merging_a_guest_never_leaves_two_ranked_attempts_at_one_daily(api):
    home = api()
    home.start("klondike")
    home.post("/api/auth/signup/", {"username": "linus", "password": "correct horse 42"})
    phone = api()
    phone.start("klondike")
    phone.post("/api/auth/signin/", {"username": "linus", "password": "correct horse 42"})
    ranked = GameSession.objects.filter(player_id=home.me["id"], ranked=True)
    assert ranked.count() == 1


def test_a_wrong_password_or_taken_username_is_refused(api):
    a = api()
    a.post("/api/auth/signup/", {"username": "alan", "password": "correct horse 42"})
    b = api()
    taken = b.post("/api/auth/signup/", {"username": "ALAN", "password": "correct horse 42"})
    assert taken.status_code == 400
    assert "taken" in taken.json()["reason"]
    wrong = b.post("/api/auth/signin/", {"username": "alan", "password": "nope nope 1"})
    assert wrong.status_code == 400
    assert b.get("/api/me/").json()["guest"] is True


def test_signing_out_starts_a_fresh_guest(api):
    c = api()
    c.post("/api/auth/signup/", {"username": "edsger", "password": "correct horse 42"})
    c.csrf = c.client.cookies["csrftoken"].value
    assert c.post("/api/auth/signout/").status_code == 204
    me = c.get("/api/me/").json()
    assert me["guest"] is True
    assert me["id"] != c.me["id"]


@pytest.mark.parametrize("name", ["Ada L.", "tile_9-x", "Zoë Ørsted"])
def test_a_player_may_rename_itself(api, name):
    c = api()
    r = c.patch("/api/me/", {"display_name": name})
    assert r.status_code == 200
    assert r.json()["display_name"] == name
    assert Player.objects.get(pk=c.me["id"]).display_name == name


@pytest.mark.parametrize(
    "name", ["ab", "x" * 25, "<script>", "a&b c", "  ", "_-.", ["abc"], "party 🎉", None]
)
def test_a_bad_display_name_is_refused_and_nothing_changes(api, name):
    c = api()
    r = c.patch("/api/me/", {"display_name": name})
    assert r.status_code == 400
    assert r.json()["reason"]
    assert Player.objects.get(pk=c.me["id"]).display_name == c.me["display_name"]


def test_a_new_guest_never_takes_a_name_in_use_and_is_stored_by_one_statement(api, monkeypatch):
    """A first visit's guest is one INSERT that does nothing on a name already taken
    (games/accounts/players.py, _new_guest); then another name is drawn.  The player
    holding the name is left as it was."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.accounts import players

    first = api()
    taken = first.me["display_name"]
    names = iter([taken, "Zebra Quince 998"])
    monkeypatch.setattr(players, "generated_name", lambda digits: next(names))
    with CaptureQueriesContext(connection) as queries:
        second = api()
    made = [q["sql"] for q in queries.captured_queries if "games_player" in q["sql"]]
    assert len(made) == 2, made  # the taken name's INSERT, which did nothing, then this one
    assert all(q.lstrip().upper().startswith("INSERT") for q in made), made
    assert second.me["display_name"] == "Zebra Quince 998"
    assert second.me["id"] != first.me["id"]
    assert Player.objects.get(pk=first.me["id"]).display_name == taken
    assert Player.objects.count() == 2
