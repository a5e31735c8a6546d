"""One ranked attempt per person per daily, and no second look at it while it is open.

The attack this closes: with a ranked Klondike daily open, start the same deal again as
practice, turn the whole stock there, and then play the ranked attempt knowing every card.
What a player can compute from a practice table of the same deal is the ranked table's
hidden cards, so the only sound rule is that the practice table does not exist while the
ranked attempt is open, by any route that names the deal: ``daily``, its public id, or the
page's "replay this deal" link (which sends the public id).
"""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.daily.deals import today
from games.models import GameSession
from leaderboards.tasks import close_day

DAILIES = ["klondike", "klondike-draw3", "whitehorse", "freecell", "bakers-dozen"]


def _stock_move(state):
    return next((m["move"] for m in state["legal_moves"] if m["from"] == "stock"), None)


@pytest.mark.parametrize("game", DAILIES)
def test_a_ranked_attempt_cannot_be_scouted_by_any_route(api, game):
    c = api()
    ranked = c.start(game)
    assert ranked["ranked"] is True
    for spec in ("daily", ranked["deal"]):
        r = c.post("/api/sessions/", {"game": game, "deal": spec})
        assert r.status_code == 409, r.content
        body = r.json()
        assert body["error"] == "ranked_attempt_open"
        assert body["session"] == ranked["id"]
        assert "resign" in body["reason"]
    assert GameSession.objects.filter(player_id=c.me["id"]).count() == 1


def test_the_scouting_line_of_play_is_refused_and_resigning_opens_practice(api):
    """Finding 2 as it was played: ranked attempt open, practice of the same deal, turn
    the stock.  The practice table is refused; after resigning, practice is allowed and the
    resigned attempt stays on the board as unfinished, below any win."""
    c = api()
    ranked = c.start("klondike")
    stock = _stock_move(ranked)
    assert c.move(ranked, 0, stock).status_code == 200
    assert c.post("/api/sessions/", {"game": "klondike", "deal": "daily"}).status_code == 409

    r = c.post(f"/api/sessions/{ranked['id']}/resign/", {"seq": 1, "op": "resign-1"})
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "resigned"
    assert body["ranked"] is True
    assert body["op"] == "resign-1"
    assert body["can_undo"] is False
    refused = c.move(ranked, 1, stock)
    assert refused.status_code == 422
    assert refused.json()["code"] == "game_resigned"
    assert GameSession.objects.get(pk=ranked["id"]).seq == 1

    practice = c.start("klondike")
    assert practice["ranked"] is False
    assert practice["deal"] == ranked["deal"]
    board = c.get(f"/api/leaderboards/klondike/{today().isoformat()}/").json()["entries"]
    assert [(e["session"], e["won"]) for e in board] == [(ranked["id"], False)]


def test_resigning_twice_answers_the_state_and_a_won_game_cannot_be_resigned(api, solve_freecell):
    c = api()
    s = c.start("freecell")
    first = c.post(f"/api/sessions/{s['id']}/resign/", {})
    again = c.post(f"/api/sessions/{s['id']}/resign/", {})
    assert first.status_code == again.status_code == 200
    assert again.json()["status"] == "resigned"
    assert again.json()["repeated"] is True

    won = c.start("freecell", 617)
    for seq, token in enumerate(solve_freecell(617)):
        assert c.move(won, seq, token).status_code == 200
    r = c.post(f"/api/sessions/{won['id']}/resign/", {})
    assert r.status_code == 422
    assert r.json()["code"] == "game_won"
    assert GameSession.objects.get(pk=won["id"]).status == "won"


def test_a_stale_resign_is_refused_and_changes_nothing(api):
    c = api()
    s = c.start("klondike")
    c.move(s, 0, _stock_move(s))
    r = c.post(f"/api/sessions/{s['id']}/resign/", {"seq": 0})
    assert r.status_code == 409
    assert r.json()["seq"] == 1
    assert GameSession.objects.get(pk=s["id"]).status == "playing"


def test_a_resigned_ranked_attempt_closes_as_unfinished_by_cards_up(api, past_midnight):
    a, b = api(), api()
    sa, sb = a.start("klondike"), b.start("klondike")
    for c, s in ((a, sa), (b, sb)):
        assert c.move(s, 0, _stock_move(s)).status_code == 200
    a.post(f"/api/sessions/{sa['id']}/resign/", {})
    day = today()
    past_midnight()
    close_day(day.isoformat())
    ranks = dict(GameSession.objects.filter(ranked=True).values_list("pk", "entry__final_rank"))
    assert sorted(ranks.values()) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_resign_over_the_socket(api):
    c = api()
    s = c.start("bakers-dozen")
    move = s["legal_moves"][0]["move"]

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{s['id']}/", headers=c.ws_headers())
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)  # the greeting
        await ws.send_json_to({"type": "resign", "seq": 0, "op": "r1"})
        answer = await ws.receive_json_from(timeout=10)
        await ws.send_json_to({"type": "move", "seq": 0, "move": move, "op": "m1"})
        refused = await ws.receive_json_from(timeout=10)
        await ws.disconnect()
        return answer, refused

    answer, refused = asyncio.run(scenario())
    assert answer["type"] == "state"
    assert answer["status"] == "resigned"
    assert answer["op"] == "r1"
    assert refused["error"] == "illegal_move"
    assert refused["code"] == "game_resigned"
    assert refused["op"] == "m1"
    stored = GameSession.objects.get(pk=s["id"])
    assert stored.status == "resigned"
    assert stored.seq == 0


@pytest.mark.django_db(transaction=True)
def test_a_start_waits_for_the_players_row_so_two_starts_cannot_both_be_first():
    """Two starts of one daily at once must not both find "no earlier attempt" and both be
    ranked: each start locks the player's row first (games/play/operations.py).  Here one
    connection holds that lock; a start on another must wait for it, and once it goes on
    it finds the attempt the holder made.  Without the lock the start looks for earlier
    attempts before the holder commits and stores a second ranked one (checked: it does)."""
    import threading

    from django.db import connection, connections, transaction

    from games.daily import deals as daily
    from games.errors import RankedAttemptOpen
    from games.models import Player
    from games.play import operations

    player = Player.objects.create(display_name="Twice")
    deal = daily.todays_deal("freecell")
    locked, release = threading.Event(), threading.Event()
    results: dict[str, object] = {}

    def holder():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT id FROM games_player WHERE id = %s FOR UPDATE", [player.pk]
                    )
                locked.set()
                release.wait(10)
                # The holder's own first attempt, committed as its lock goes.
                GameSession.objects.create(player=player, deal=deal, game=deal.game, ranked=True)
        finally:
            connections.close_all()

    def starter():
        try:
            results["outcome"] = operations.start_session(player, "freecell", "daily")
        except Exception as exc:  # the 409 of an open ranked attempt
            results["error"] = exc
        finally:
            connections.close_all()

    a = threading.Thread(target=holder)
    a.start()
    assert locked.wait(10)
    b = threading.Thread(target=starter)
    b.start()
    b.join(0.5)
    waited = b.is_alive()
    release.set()
    a.join(10)
    b.join(10)
    assert waited, "the start did not wait for the player's row"
    assert isinstance(results.get("error"), RankedAttemptOpen), results
    assert GameSession.objects.filter(player=player, ranked=True).count() == 1


@pytest.mark.parametrize("game", ["klondike", "freecell"])
def test_a_first_visits_start_makes_the_guest_and_its_one_ranked_attempt(db, game):
    """The table's first request on a first visit makes the guest and starts the daily in
    one (frontend/start.js): that first attempt is ranked, the only one, and the same
    browser's next start of the deal, by either route, is refused as any other's is."""
    import json

    from django.test import Client

    from games.models import Player

    c = Client(enforce_csrf_checks=True)
    assert c.get(f"/play/{game}/").status_code == 200  # the CSRF cookie; no guest yet
    players = Player.objects.count()
    csrf = c.cookies["csrftoken"].value

    def start(spec):
        return c.post(
            "/api/sessions/",
            json.dumps({"game": game, "deal": spec}),
            content_type="application/json",
            HTTP_X_CSRFTOKEN=csrf,
        )

    r = start("daily")
    assert r.status_code == 201, r.content
    first = r.json()
    assert first["ranked"] is True
    assert Player.objects.count() == players + 1
    row = GameSession.objects.get(pk=first["id"])
    assert row.ranked is True
    assert row.deal.date == today()
    for spec in ("daily", first["deal"]):
        again = start(spec)
        assert again.status_code == 409, again.content
        assert again.json()["session"] == first["id"]
    assert GameSession.objects.filter(player=row.player).count() == 1
    assert Player.objects.count() == players + 1
