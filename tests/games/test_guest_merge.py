"""A guest signing in to an account: everything comes along, and a person still has one
ranked attempt per daily (games/merge.py).

What a player could gain from the merge is a second ranked attempt, or the better of two
(keep a spare guest attempt aside, play the account's, then finish the spare knowing every
card and sign in).  The rule that takes both away is fixed before either result is known:
the attempt whose first move came first stays ranked, the other becomes practice.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.test import Client

from games.daily.deals import ensure_daily, today
from games.models import AuditEntry, GameSession, Player
from leaderboards.models import Entry
from leaderboards.tasks import close_day, score_session
from tests.conftest import time_on

PASSWORD = "correct horse 42"


def account(api, username: str):
    c = api()
    assert (
        c.post("/api/auth/signup/", {"username": username, "password": PASSWORD}).status_code == 201
    )
    c.csrf = c.client.cookies["csrftoken"].value
    return c


def sign_in(c, username: str) -> Any:
    r = c.post("/api/auth/signin/", {"username": username, "password": PASSWORD})
    c.csrf = c.client.cookies["csrftoken"].value
    return r


def win_freecell_daily(c, solve) -> dict[str, Any]:
    s = c.start("freecell")
    for seq, token in enumerate(solve(s["deal_number"])):
        r = c.move(s, seq, token)
        assert r.status_code == 200, r.content
    assert r.json()["won"]
    return s


def past_win(player_id: int, game: str, day: dt.date) -> GameSession:
    """A ranked daily won on an earlier day, scored as the worker scores it."""
    now = time_on(day)
    s = GameSession.objects.create(
        player_id=player_id,
        deal=ensure_daily(game, day),
        game=game,
        ranked=True,
        status="won",
        time_ms=90_000,
        move_count=80,
        cards_up=52,
        started_at=now,
        finished_at=now,
        moves=[["x", 0]],
    )
    score_session(str(s.pk))
    return s


def boards(c, game: str) -> dict[str, Any]:
    day = today().isoformat()
    return {
        "day": c.get(f"/api/leaderboards/{game}/{day}/").json()["entries"],
        "week": c.get(f"/api/leaderboards/{game}/week/{day}/").json()["entries"],
        "all": c.get(f"/api/leaderboards/{game}/all-time/").json()["entries"],
    }


def test_a_guest_win_signed_in_stays_on_every_board_under_the_account(api, solve_freecell):
    acct = account(api, "ada")
    name = acct.me["display_name"]
    guest = api()
    s = win_freecell_daily(guest, solve_freecell)
    past_win(guest.me["id"], "freecell", today() - dt.timedelta(days=1))
    assert sign_in(guest, "ada").status_code == 200

    b = boards(guest, "freecell")
    assert [(e["player"], e["session"], e["won"]) for e in b["day"]] == [(name, s["id"], True)]
    yesterday = today() - dt.timedelta(days=1)
    this_week = 2 if yesterday.isocalendar()[:2] == today().isocalendar()[:2] else 1
    assert [(e["player"], e["wins"]) for e in b["week"]] == [(name, this_week)]
    assert [(e["player"], e["wins"]) for e in b["all"]] == [(name, 2)]
    assert Entry.objects.filter(player_id=guest.me["id"]).count() == 0
    stats = guest.get("/api/me/stats/").json()
    assert stats["games"]["freecell"]["won"] == 2


def test_when_the_guest_started_first_its_win_is_the_ranked_attempt(
    api, solve_freecell, past_midnight
):
    acct = account(api, "grace")
    guest = api()
    s = win_freecell_daily(guest, solve_freecell)
    mine = acct.start("freecell")
    assert mine["ranked"] is True
    acct.move(mine, 0, mine["legal_moves"][0]["move"])
    assert sign_in(guest, "grace").status_code == 200

    ranked = GameSession.objects.filter(player_id=acct.me["id"], ranked=True, deal__date=today())
    assert [str(p) for p in ranked.values_list("pk", flat=True)] == [s["id"]]
    b = boards(acct, "freecell")
    assert [e["session"] for e in b["day"]] == [s["id"]]
    assert [(e["player"], e["wins"]) for e in b["all"]] == [(acct.me["display_name"], 1)]
    day = today()
    past_midnight()
    close_day(day.isoformat())
    finals = dict(
        Entry.objects.filter(date=day, game="freecell").values_list("session_id", "final_rank")
    )
    assert {str(k): v for k, v in finals.items()} == {s["id"]: 1}


def test_a_spare_guest_attempt_finished_later_cannot_replace_the_accounts(api, solve_freecell):
    """Finding 3's best of two: a guest attempt opened early but left untouched, the
    account's attempt played, then the spare won knowing every card, then sign-in."""
    acct = account(api, "linus")
    guest = api()
    spare = guest.start("freecell")  # opened, not played
    mine = acct.start("freecell")
    acct.move(mine, 0, mine["legal_moves"][0]["move"])  # the account's attempt starts first
    for seq, token in enumerate(solve_freecell(spare["deal_number"])):
        assert guest.move(spare, seq, token).status_code == 200
    past_win(guest.me["id"], "freecell", today() - dt.timedelta(days=3))
    assert sign_in(guest, "linus").status_code == 200

    ranked = list(
        GameSession.objects.filter(
            player_id=acct.me["id"], ranked=True, deal__date=today()
        ).values_list("pk", flat=True)
    )
    assert [str(p) for p in ranked] == [mine["id"]]
    assert not Entry.objects.filter(session_id=spare["id"]).exists()
    b = boards(acct, "freecell")
    assert [(e["session"], e["won"]) for e in b["day"]] == [(mine["id"], False)]
    assert [e["wins"] for e in b["all"]] == [1]  # the other day's win is still there
    assert AuditEntry.objects.filter(session_id=spare["id"], action="merge_demoted").exists()


def test_merging_into_a_closed_day_gives_no_final_rank_to_practice(
    api, solve_freecell, django_capture_on_commit_callbacks, past_midnight
):
    acct = account(api, "edsger")
    mine = acct.start("freecell")
    acct.move(mine, 0, mine["legal_moves"][0]["move"])
    guest = api()
    theirs = win_freecell_daily(guest, solve_freecell)
    day = today()
    past_midnight()
    close_day(day.isoformat())
    assert Entry.objects.filter(date=day, final_rank__isnull=False).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert sign_in(guest, "edsger").status_code == 200

    entries = list(Entry.objects.filter(date=day, game="freecell"))
    assert [(str(e.session_id), e.final_rank) for e in entries] == [(mine["id"], 1)]
    assert GameSession.objects.get(pk=theirs["id"]).ranked is False
    # The closed board changed without an operator: audited as a late correction.
    reclosed = AuditEntry.objects.get(session_id=theirs["id"], action="day_reclosed")
    assert reclosed.reason == f"freecell {day}: final ranks written again"
    assert reclosed.data == {"ranks_changed": 1}


def _clone(c) -> Client:
    """A second connection from the same browser (same cookies)."""
    other = Client(enforce_csrf_checks=True)
    for key, morsel in c.client.cookies.items():
        other.cookies[key] = morsel.value
    return other


def _race(*calls) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i, fn):
        from django.db import connections

        barrier.wait()
        try:
            out[i] = fn()
        finally:
            connections.close_all()  # back to the pool: the test client does not do it

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def _post(client: Client, csrf: str, path: str, data: dict[str, Any]) -> Any:
    import json

    return client.post(
        path, json.dumps(data), content_type="application/json", HTTP_X_CSRFTOKEN=csrf
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(4))
def test_sign_in_racing_the_accounts_own_start_leaves_one_ranked_attempt(api, round_):
    username = f"race{round_}"
    acct = account(api, username)
    guest = api()
    g = guest.start("freecell")
    guest.move(g, 0, g["legal_moves"][0]["move"])
    a_client, g_client = _clone(acct), _clone(guest)
    start, signin = _race(
        lambda: _post(a_client, acct.csrf, "/api/sessions/", {"game": "freecell"}),
        lambda: _post(
            g_client, guest.csrf, "/api/auth/signin/", {"username": username, "password": PASSWORD}
        ),
    )
    assert signin.status_code == 200, signin.content
    assert start.status_code in {201, 409}, start.content
    ranked = GameSession.objects.filter(player_id=acct.me["id"], ranked=True, deal__date=today())
    assert [str(p) for p in ranked.values_list("pk", flat=True)] == [g["id"]]
    player = Player.objects.get(pk=guest.me["id"])
    assert player.merged_into_id == acct.me["id"]
    assert player.name_key is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(4))
def test_sign_in_racing_the_guests_own_start_never_fails(api, round_):
    username = f"self{round_}"
    acct = account(api, username)
    guest = api()
    one, two = _clone(guest), _clone(guest)
    start, signin = _race(
        lambda: _post(one, guest.csrf, "/api/sessions/", {"game": "bakers-dozen"}),
        lambda: _post(
            two, guest.csrf, "/api/auth/signin/", {"username": username, "password": PASSWORD}
        ),
    )
    assert signin.status_code == 200, signin.content
    assert start.status_code in {201, 409}, start.content
    if start.status_code == 409:
        assert start.json()["error"] == "player_merged"
        assert start.json()["reason"]
    assert GameSession.objects.filter(player_id=guest.me["id"]).count() == 0
    ranked = GameSession.objects.filter(player_id=acct.me["id"], ranked=True)
    assert ranked.count() <= 1


# A deal that is not a daily starts by one statement (games/play/fresh.py): the INSERT takes
# its row from the guest's row locked FOR UPDATE and still unmerged, so it waits for a merge
# under way and then inserts nothing.  A session left on the merged guest would be lost to
# the account.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(4))
def test_sign_in_racing_a_random_start_leaves_nothing_on_the_guest(api, round_):
    username = f"rand{round_}"
    account(api, username)
    guest = api()
    one, two = _clone(guest), _clone(guest)
    start, signin = _race(
        lambda: _post(one, guest.csrf, "/api/sessions/", {"game": "klondike", "deal": "random"}),
        lambda: _post(
            two, guest.csrf, "/api/auth/signin/", {"username": username, "password": PASSWORD}
        ),
    )
    assert signin.status_code == 200, signin.content
    assert start.status_code in {201, 409}, start.content
    if start.status_code == 409:
        assert start.json()["error"] == "player_merged"
    assert GameSession.objects.filter(player_id=guest.me["id"]).count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_merged_guest_starting_a_random_deal_is_refused_and_nothing_is_stored(api):
    username = "merged-rand"
    account(api, username)
    guest = api()
    stale = _clone(guest)  # still carries the guest's session once it is merged
    before = GameSession.objects.count()
    Player.objects.filter(pk=guest.me["id"]).update(
        merged_into_id=Player.objects.exclude(pk=guest.me["id"]).latest("pk").pk
    )
    r = _post(stale, guest.csrf, "/api/sessions/", {"game": "freecell", "deal": "random"})
    assert r.status_code == 409, r.content
    assert r.json()["error"] == "player_merged", r.content
    assert GameSession.objects.count() == before


def _stock_all(c, s) -> int:
    """Turn the whole stock of a Klondike attempt (a scout's look at every card)."""
    seq = 0
    state = s
    for _ in range(30):
        move = next((m["move"] for m in state["legal_moves"] if m["from"] == "stock"), None)
        if move is None:
            break
        r = c.move(s, seq, move)
        assert r.status_code == 200, r.content
        state, seq = r.json(), seq + 1
    return seq


def test_a_scout_then_a_merge_puts_the_accounts_win_under_review_linked(api, solve_freecell):
    """Finding 3 as played: the account's ranked attempt opened, a guest in another browser
    (the same person) opens its own and looks at the deal, then signs in to the account.
    The merge demoted the guest's attempt and the account's win was verified with no link:
    after the merge they were one player, and the link ignored one's own attempts."""
    acct = account(api, "scout")
    mine = acct.start("freecell")
    acct.move(mine, 0, mine["legal_moves"][0]["move"])
    guest = api()
    spare = guest.start("freecell")
    guest.move(spare, 0, spare["legal_moves"][0]["move"])
    assert sign_in(guest, "scout").status_code == 200
    acct.move(mine, 1, "u")  # back to the deal, then the line
    for seq, token in enumerate(solve_freecell(mine["deal_number"]), start=2):
        assert acct.move(mine, seq, token).status_code == 200
    s = GameSession.objects.get(pk=mine["id"])
    assert s.status == "won"
    assert "linked" in s.review_reasons
    assert s.review == "pending"
    assert [(x["session"], x["same"]) for x in s.signals["linked"]] == [(spare["id"], "merged")]
    assert Entry.objects.get(session=s).review == "pending"


def test_a_win_before_the_merge_is_reviewed_again_when_a_scout_joins_it(
    api, solve_freecell, django_capture_on_commit_callbacks
):
    acct = account(api, "before")
    mine = acct.start("klondike")
    acct.move(mine, 0, mine["legal_moves"][0]["move"])  # the account's attempt starts first
    guest = api()
    spare = guest.start("klondike")
    # Another address and browser: the link by address or device cannot see this scout.
    GameSession.objects.filter(pk=spare["id"]).update(client_key="elsewhere", device_key="")
    _stock_all(guest, spare)
    won = win_freecell_daily(acct, solve_freecell)  # the account's FreeCell: not linked
    GameSession.objects.filter(pk=mine["id"]).update(status="won", finished_at=time_on(today()))
    score_session(mine["id"])
    assert GameSession.objects.get(pk=mine["id"]).signals["linked"] == []
    with django_capture_on_commit_callbacks(execute=True):
        assert sign_in(guest, "before").status_code == 200
    s = GameSession.objects.get(pk=mine["id"])
    assert "linked" in s.review_reasons
    assert s.review == "pending"
    assert s.verified is False
    assert [x["session"] for x in s.signals["linked"]] == [spare["id"]]
    assert Entry.objects.get(session=s).review == "pending"
    assert "linked" not in GameSession.objects.get(pk=won["id"]).review_reasons
