"""Operators replay, re-validate and disqualify real sessions in the admin (docs/architecture.md, "Operators")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import AuditEntry, GameSession
from tests.conftest import store_moves


@pytest.fixture
def operator(db):
    user = get_user_model().objects.create_superuser("op", "op@example.com", "pw-op-123456")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def played(api, solve_freecell):
    """A won ranked FreeCell daily, played over HTTP."""
    c = api()
    s = c.start("freecell")
    solution = solve_freecell(s["deal_number"])
    for seq, token in enumerate(solution[:10]):
        assert c.move(s, seq, token).status_code == 200
    assert c.post(f"/api/sessions/{s['id']}/undo/").status_code == 200
    assert c.move(s, 11, solution[9]).status_code == 200
    for seq, token in enumerate(solution[10:], start=12):
        assert c.move(s, seq, token).status_code == 200
    return GameSession.objects.get(pk=s["id"])


def test_the_session_list_filters_by_day_game_status_and_ranked(operator, played):
    today = played.deal.date.isoformat()
    url = f"/admin/games/gamesession/?deal__date={today}&game=freecell&status=won&ranked__exact=1"
    r = operator.get(url)
    assert r.status_code == 200
    assert str(played.pk) in r.content.decode()
    r = operator.get("/admin/games/gamesession/?status=playing")
    assert str(played.pk) not in r.content.decode()


def test_the_session_page_shows_moves_with_server_times_and_timing_signals(operator, played):
    r = operator.get(f"/admin/games/gamesession/{played.pk}/change/")
    page = r.content.decode()
    assert r.status_code == 200
    assert f'title="{played.moves[0][1]}"' in page  # the raw time, kept for copying
    from games.admin.inspection import clock, since

    assert clock(played.moves[0][1]) in page  # shown as a time of day, to the ms
    start = int(played.created_at.timestamp() * 1000)
    assert since(played.moves[-1][1], start) in page
    assert "since the deal was shown" in page
    assert "fastest_gap_ms" in page
    assert "median_gap_ms" in page
    assert "undo_count: 1" in page


def test_the_replay_draws_the_table_step_by_step(operator, played):
    r = operator.get(f"/admin/games/gamesession/{played.pk}/replay/?step=0")
    page = r.content.decode()
    assert r.status_code == 200
    assert page.count('class="pile"') == 8  # FreeCell's eight columns
    assert page.count("step-row") == len(played.moves) + 1  # the deal, then every move
    last = operator.get(f"/admin/games/gamesession/{played.pk}/replay/").content.decode()
    assert "Foundations: C 13 D 13 H 13 S 13" in last


def test_revalidate_agrees_with_an_honest_session_and_flags_a_tampered_one(operator, played):
    r = operator.post(f"/admin/games/gamesession/{played.pk}/revalidate/")
    assert r.status_code == 302
    entry = AuditEntry.objects.get(session=played, action="revalidate")
    assert entry.reason == "match"
    assert entry.data["replayed_won"] is True

    GameSession.objects.filter(pk=played.pk).update(cards_up=50)
    operator.post(f"/admin/games/gamesession/{played.pk}/revalidate/")
    latest = AuditEntry.objects.filter(session=played, action="revalidate").first()
    assert latest.reason == "mismatch"
    assert latest.data["stored_cards_up"] == 50

    moves = played.moves
    moves[3][0] = "h1"  # never legal in FreeCell: foundation cards do not come back
    store_moves(played.pk, moves)
    operator.post(f"/admin/games/gamesession/{played.pk}/revalidate/")
    latest = AuditEntry.objects.filter(session=played, action="revalidate").first()
    assert latest.data["ok"] is False
    assert latest.data["error"]["index"] == 3


def test_disqualify_needs_a_reason_is_audited_and_drops_the_leaderboard_entry(
    api, operator, played
):
    board = f"/api/leaderboards/freecell/{played.deal.date.isoformat()}/"
    viewer = api()
    assert len(viewer.get(board).json()["entries"]) == 1

    url = f"/admin/games/gamesession/{played.pk}/disqualify/"
    assert operator.get(url).status_code == 200
    operator.post(url, {"reason": "   "})
    assert not GameSession.objects.get(pk=played.pk).disqualified

    r = operator.post(url, {"reason": "moves 40 ms apart all game"})
    assert r.status_code == 302
    played.refresh_from_db()
    assert played.disqualified
    assert played.disqualified_reason == "moves 40 ms apart all game"
    entry = AuditEntry.objects.get(session=played, action="disqualify")
    assert entry.actor.username == "op"
    assert entry.reason == "moves 40 ms apart all game"
    assert viewer.get(board).json()["entries"] == []


def test_a_player_without_staff_rights_cannot_open_the_inspection_pages(api, played):
    c = api()
    r = c.client.get(f"/admin/games/gamesession/{played.pk}/replay/")
    assert r.status_code == 302
    assert "/admin/login/" in r["Location"]
    assert dt.date.today()  # the fixture's daily is today's


def test_an_operator_adds_a_deal_with_a_long_seed_and_a_bad_one_is_refused(operator):
    from games.engine import new_game
    from games.engine.deals import V2_BASE
    from games.models import Deal

    seed = V2_BASE + 2**255 + 12345  # a version 2 seed: 78 digits
    form = {"game": "klondike", "seed": str(seed), "public_id": "opdeal1", "candidate": "0"}
    r = operator.post("/admin/games/deal/add/", form)
    assert r.status_code == 302, r.content[:2000]
    deal = Deal.objects.get(public_id="opdeal1")
    assert deal.seed == seed
    assert isinstance(deal.seed, int)
    assert str(seed) in operator.get(f"/admin/games/deal/{deal.pk}/change/").content.decode()
    assert new_game("klondike", deal.seed).layout() == new_game("klondike", seed).layout()
    for bad in ("2**64", str(V2_BASE - 1), "-4", str(V2_BASE + 2**256)):
        r = operator.post("/admin/games/deal/add/", {**form, "seed": bad, "public_id": "bad"})
        assert r.status_code == 200, bad
        assert b"errorlist" in r.content, bad
    assert not Deal.objects.filter(public_id="bad").exists()


def test_an_operators_rename_keeps_the_look_alike_key_true(operator, api):
    from games.accounts.names import name_key
    from games.models import Player

    c = api()
    player = Player.objects.get(pk=c.me["id"])
    form = {
        "display_name": "Quiet Heron 77",
        "created_at_0": "2026-01-01",
        "created_at_1": "00:00:00",
    }
    r = operator.post(f"/admin/games/player/{player.pk}/change/", form)
    assert r.status_code == 302, r.content[:1500]
    player.refresh_from_db()
    assert player.display_name == "Quiet Heron 77"
    assert player.name_key == name_key("Quiet Heron 77")


def test_times_read_as_a_clock_and_an_offset_from_the_deal():
    from games.admin.inspection import clock, since

    assert clock(1_764_590_400_123) == "2025-12-01 12:00:00.123"  # TIME_ZONE is UTC
    assert since(1_000_061_005, 1_000_000_000) == "+1:01.005"
    assert since(1_003_661_005, 1_000_000_000) == "+1:01:01.005"
    assert since(999_999_000, 1_000_000_000) == "-0:01.000"


def test_disqualifying_from_the_session_page_ends_the_review_everywhere(api, operator, played):
    """One operation wherever it is pressed: the session page's disqualification leaves
    the win neither pending in the queue nor "under review" for its player."""
    from leaderboards.tasks import score_session

    GameSession.objects.filter(pk=played.pk).update(
        review="pending", verified=False, review_reasons=["fast_gaps"]
    )
    score_session(str(played.pk))
    assert str(played.pk) in operator.get("/admin/games/winunderreview/").content.decode()
    r = operator.post(
        f"/admin/games/gamesession/{played.pk}/disqualify/",
        {"reason": "moves 40 ms apart all game"},
    )
    assert r.status_code == 302
    played.refresh_from_db()
    assert (played.review, played.verified, played.disqualified) == ("disqualified", False, True)
    assert (
        f"/winunderreview/{played.pk}/change/"
        not in operator.get("/admin/games/winunderreview/").content.decode()
    )
    from leaderboards.models import Entry

    assert Entry.objects.get(session=played).review == "disqualified"
    r = operator.post(
        f"/admin/games/gamesession/{played.pk}/disqualify/",
        {"reason": "the replay shows a person", "reinstate": "1"},
    )
    played.refresh_from_db()
    assert (played.review, played.verified, played.disqualified) == ("cleared", True, False)
    assert [
        a.action
        for a in AuditEntry.objects.filter(session=played).order_by("created_at")
        if a.action in ("disqualify", "reinstate")
    ] == ["disqualify", "reinstate"]
