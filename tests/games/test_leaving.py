"""A person can leave and take their data along (games/accounts/leaving.py): download every
game and statistic as JSON, delete the account or a guest's games whatever they are
playing, with closed boards kept as they were (the row nameless, no rank moving) and the
open data no longer naming them; the privacy and accessibility pages say what is kept and
what the site does.

What someone else could try: delete another person's account with a borrowed session (an
account needs its password, a guest its explicit confirmation); keep playing as a deleted
player from a second browser (the player row is nobody's any more: a new guest starts);
read a deleted player's name back from a closed day (the board, the export and the profile
no longer give it)."""

from __future__ import annotations

import datetime as dt
import json

from django.contrib.auth import get_user_model

from games.daily.deals import today
from games.models import Deal, GameSession, PendingEmail, Player
from leaderboards.models import Entry
from leaderboards.tasks import close_day
from tests.conftest import fc_solve

PASSWORD = "correct horse 42"


def _account(api, username: str):
    c = api()
    r = c.post(
        "/api/auth/signup/",
        {"username": username, "password": PASSWORD, "email": f"{username}@example.com"},
    )
    assert r.status_code == 201, r.content
    c.csrf = c.client.cookies["csrftoken"].value
    return c


def _win_freecell(c) -> str:
    s = c.start("freecell")
    for seq, token in enumerate(fc_solve(s["deal_number"])):
        assert c.move(s, seq, token).status_code == 200
    return s["id"]


def _closed_day_with_two_winners(api):
    leaver, other = _account(api, "leaver"), api()
    first, second = _win_freecell(leaver), _win_freecell(other)
    practice = leaver.start("klondike", "random")
    assert leaver.move(practice, 0, practice["legal_moves"][0]["move"]).status_code == 200
    yesterday = today() - dt.timedelta(days=1)
    Deal.objects.filter(date=today()).update(date=yesterday)
    Entry.objects.filter(date=today()).update(date=yesterday)
    close_day(yesterday.isoformat())
    return leaver, other, yesterday, first, second, practice["id"]


def _export(api, day: dt.date) -> str:
    r = api().get(f"/api/export/{day.isoformat()}/")
    assert r.status_code == 200
    return b"".join(r.streaming_content).decode()


def test_deleting_an_account_keeps_closed_ranks_and_names_nobody(api):
    leaver, other, day, first, second, practice = _closed_day_with_two_winners(api)
    me = leaver.get("/api/me/").json()
    ranks = {
        str(k): v for k, v in Entry.objects.filter(date=day).values_list("session_id", "final_rank")
    }
    name = me["display_name"]
    assert name in _export(api, day)
    second_browser = api()  # the same account signed in elsewhere
    assert (
        second_browser.post(
            "/api/auth/signin/", {"username": "leaver", "password": PASSWORD}
        ).status_code
        == 200
    )

    r = leaver.client.delete(
        "/api/me/",
        json.dumps({"password": "wrong"}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=leaver.csrf,
    )
    assert r.status_code == 400
    assert "password" in r.json()["reason"]
    assert get_user_model().objects.filter(username="leaver").exists()
    r = leaver.client.delete(
        "/api/me/",
        json.dumps({"password": PASSWORD}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=leaver.csrf,
    )
    assert r.status_code == 204

    assert not get_user_model().objects.filter(username="leaver").exists()
    assert not PendingEmail.objects.exists()
    assert not GameSession.objects.filter(pk=practice).exists()  # practice: gone
    assert GameSession.objects.filter(pk=first).exists()  # a ranked game of a closed day
    assert {
        str(k): v for k, v in Entry.objects.filter(date=day).values_list("session_id", "final_rank")
    } == ranks
    gone = Player.objects.get(pk=me["id"])
    assert gone.display_name == "Deleted player"
    assert gone.anonymous
    assert gone.deleted_at
    board = api().get(f"/api/leaderboards/freecell/{day.isoformat()}/").json()["entries"]
    shown = {e["player"]: e["rank"] for e in board}
    assert shown == {"Deleted player": ranks[first], other.me["display_name"]: ranks[second]}
    assert name not in json.dumps(board)
    assert first not in json.dumps(board)  # an anonymous row gives no session id
    text = _export(api, day)
    assert name not in text
    assert first not in text
    assert f'"player_id": {me["id"]}' not in text
    assert api().get(f"/api/players/{me['id']}/stats/").status_code == 404
    # Both browsers are new guests; nobody plays as the deleted player again.
    for browser in (leaver, second_browser):
        now = browser.get("/api/me/").json()
        assert now["guest"] is True
        assert now["id"] != me["id"]


def test_a_guest_deletes_its_games_with_a_confirmation_and_while_playing(api):
    c = api()
    s = c.start("klondike")  # a ranked attempt in play today: refused for nobody
    assert c.move(s, 0, s["legal_moves"][0]["move"]).status_code == 200
    random = c.start("freecell", "random")
    r = c.client.delete("/api/me/", "{}", content_type="application/json", HTTP_X_CSRFTOKEN=c.csrf)
    assert r.status_code == 400
    assert "confirm" in r.json()["reason"]
    r = c.client.delete(
        "/api/me/",
        json.dumps({"confirm": True}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=c.csrf,
    )
    assert r.status_code == 204
    assert r.cookies["ds_device"].value == ""
    assert not GameSession.objects.filter(pk=random["id"]).exists()
    assert GameSession.objects.get(pk=s["id"]).player.deleted_at is not None
    assert c.get("/api/me/").json()["id"] != c.me["id"]


def test_a_player_downloads_their_own_games_and_statistics(api):
    c = api()
    s = c.start("freecell", 617)
    assert c.move(s, 0, "8a").status_code == 200
    other = api()
    theirs = other.start("freecell", 618)
    r = c.get("/api/me/export/")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("application/json")
    assert r["Content-Disposition"].startswith("attachment;")
    data = json.loads(r.content)
    assert data["format"] == "daily-solitaire-player-data/1"
    assert data["player"]["id"] == c.me["id"]
    assert data["player"]["guest"] is True
    [game] = data["games"]
    assert game["session"] == s["id"]
    assert [m[0] for m in game["moves"]] == ["8a"]
    assert isinstance(game["moves"][0][1], int)
    assert len(game["fair_play_keys"]["address"]) == 64  # a keyed hash, not the address
    assert "127.0.0.1" not in r.content.decode()
    assert data["statistics"]["games"]["freecell"]["played"] == 1
    assert theirs["id"] not in r.content.decode()


def test_the_privacy_and_accessibility_pages_are_linked_from_every_page(client):
    for lang in ("en", "fr"):
        for path, words in (
            ("/privacy/", ("HMAC", "ds_device")),
            ("/accessibility/", ("axe-core", "WCAG")),
        ):
            page = client.get(path, HTTP_ACCEPT_LANGUAGE=lang)
            assert page.status_code == 200
            assert page["Content-Language"] == lang
            assert all(w in page.content.decode() for w in words), (path, lang)
    home = client.get("/").content.decode()
    assert 'href="/privacy/"' in home
    assert 'href="/accessibility/"' in home
    assert "365 days" in client.get("/privacy/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
