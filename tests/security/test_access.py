"""Nobody reaches what is not theirs: another player's session, the admin without staff
rights, a socket on a session the browser does not own."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from config.asgi import application
from games.models import GameSession
from tests.reliability.stack import run_async

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_session_call_on_another_players_session_is_refused_and_changes_nothing(api):
    owner, other = api(), api()
    s = owner.start("klondike")
    owner.move(s, 0, s["legal_moves"][0]["move"])
    sid = s["id"]
    before = GameSession.objects.get(pk=sid)
    answers = [
        other.get(f"/api/sessions/{sid}/"),
        other.move(sid, 1, "s"),
        other.post(f"/api/sessions/{sid}/undo/", {"seq": 1}),
        other.post(f"/api/sessions/{sid}/hint/"),
        other.post(f"/api/sessions/{sid}/finish/", {"seq": 1}),
    ]
    for r in answers:
        assert r.status_code == 404, r.content
        body = r.json()
        assert body["error"] == "not_found"
        assert "view" not in body
        assert "seq" not in body
    after = GameSession.objects.get(pk=sid)
    assert (after.moves, after.seq, after.hint_count, after.undo_count) == (
        before.moves,
        before.seq,
        before.hint_count,
        before.undo_count,
    )


def test_a_session_id_that_is_not_a_uuid_is_a_plain_404(api):
    c = api()
    for sid in ["nope", "1", "' OR 1=1 --", "00000000-0000-0000-0000-000000000000"]:
        r = c.get(f"/api/sessions/{sid}/")
        assert r.status_code == 404
        assert r.json()["error"] == "not_found"


def test_admin_pages_refuse_visitors_and_signed_in_players_without_staff_rights(api):
    owner = api()
    s = owner.start("klondike")
    player = get_user_model().objects.create_user("plainplayer", password="pw-plain-12345")
    signed_in = Client()
    signed_in.force_login(player)
    pages = [
        "/admin/",
        "/admin/games/gamesession/",
        f"/admin/games/gamesession/{s['id']}/change/",
        f"/admin/games/gamesession/{s['id']}/replay/?step=0",
        "/admin/games/deal/",
        "/admin/games/player/",
    ]
    for browser in (Client(), signed_in):
        for page in pages:
            r = browser.get(page)
            assert r.status_code == 302, (page, r.status_code)
            assert r["Location"].startswith("/admin/login/")
    # A staff member does get in, so the refusals above are about rights, not broken pages.
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("opx", "o@x.example", "pw-op-1234"))
    assert staff.get(f"/admin/games/gamesession/{s['id']}/change/").status_code == 200


def test_a_socket_without_the_owners_cookie_is_closed_and_moves_nothing(api):
    owner, other = api(), api()
    s = owner.start("klondike")

    async def attempt(headers):
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=headers)
        ok, _ = await ws.connect()
        if not ok:
            return None, None
        first = await ws.receive_json_from()
        closed = await ws.receive_output()
        await ws.send_json_to({"type": "move", "seq": 0, "move": "s"})
        return first, closed

    no_cookie = [(b"origin", b"http://testserver")]
    for headers in (other.ws_headers(), no_cookie):
        first, closed = run_async(attempt(headers))
        assert first["type"] == "error"
        assert first["error"] == "forbidden"
        assert "view" not in first
        assert closed == {"type": "websocket.close", "code": 4403}
    assert GameSession.objects.get(pk=s["id"]).moves == []


def test_an_unknown_api_address_is_a_json_404_and_a_bad_host_a_json_400(client, settings):
    settings.DEBUG = True  # a local run: Django's debug pages must not answer the API
    r = client.get("/api/no-such-thing/")
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"
    settings.DEBUG = False
    r = client.get("/api/daily/", HTTP_HOST="evil.example")
    assert r.status_code == 400
    assert r.json()["error"] == "bad_request"
