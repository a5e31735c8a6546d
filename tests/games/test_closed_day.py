"""A closed day is closed: a ranked attempt is played on its day only.

The attack this closes: open the Klondike daily before midnight and make no move; after the
close reveals the day's seed (``GET /api/daily/<day>/``), deal it with the engine, solve it
knowing every card, and play the line on the attempt still open: a verified rank 1.  What
the attacker computes from the revealed seed is the whole deal, so no argument about what a
table shows can save the attempt: the only sound rule is that nothing can be done on it
once its day is over, by any route (HTTP, the socket's optimistic store, the locked path),
and that scoring takes no win stored after the day's end.

Midnight is crossed through the daily clock's shift (``past_midnight``: the calendar moves
on, the stored times stay real), which is what a real midnight does to every check here.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games.daily import days
from games.daily.deals import today
from games.models import AuditEntry, Deal, GameSession
from leaderboards.models import DayClosed, Entry
from leaderboards.tasks import close_day, score_session

OPERATIONS = ["moves", "undo", "finish", "resign", "hint"]


def _stock(state):
    return next(m["move"] for m in state["legal_moves"] if m["from"] == "stock")


def _refused_day_closed(r, seq):
    assert r.status_code == 409, r.content
    body = r.json()
    assert body["error"] == "day_closed"
    assert body["seq"] == seq
    assert "closed" in body["reason"]
    assert "today" in body["reason"]


@pytest.mark.parametrize("game", ["klondike", "klondike-draw3", "whitehorse"])
def test_an_attempt_opened_before_midnight_cannot_be_played_with_the_revealed_seed(
    api, game, past_midnight
):
    c = api()
    attempt = c.start(game)
    assert attempt["ranked"] is True
    assert attempt["seq"] == 0
    day = today()
    past_midnight()
    close_day(day.isoformat())
    revealed = c.get(f"/api/daily/{day.isoformat()}/").json()
    assert any(d["game"] == game and "seed" in d for d in revealed["deals"])

    sid = attempt["id"]
    _refused_day_closed(c.move(attempt, 0, _stock(attempt)), 0)
    for op in OPERATIONS[1:]:
        _refused_day_closed(c.post(f"/api/sessions/{sid}/{op}/", {"seq": 0}), 0)
    stored = GameSession.objects.get(pk=sid)
    assert (stored.seq, stored.status, stored.hint_count) == (0, "resigned", 0)
    assert stored.finished_at == days.day_end(day)
    assert not Entry.objects.filter(session_id=sid).exists()  # never started: on no board


def test_the_whole_attack_on_freecell_is_refused_and_the_closed_board_does_not_move(
    api, past_midnight, solve_freecell
):
    """A FreeCell line needs no revealed seed (its deal number is public), which makes the
    attack's last step easy to play here: every move of it is refused after the close."""
    winner, late = api(), api()
    won = winner.start("freecell")
    for seq, token in enumerate(solve_freecell(won["deal_number"])):
        assert winner.move(won, seq, token).status_code == 200
    attempt = late.start("freecell")
    first = attempt["legal_moves"][0]["move"]
    assert late.move(attempt, 0, first).status_code == 200
    day = today()
    past_midnight()
    close_day(day.isoformat())
    ranks = dict(
        Entry.objects.filter(date=day, game="freecell").values_list("session_id", "final_rank")
    )

    _refused_day_closed(late.post(f"/api/sessions/{attempt['id']}/undo/", {"seq": 1}), 1)
    for seq, token in enumerate(solve_freecell(attempt["deal_number"])):
        _refused_day_closed(late.move(attempt, 1 + seq, token), 1)
        if seq == 5:
            break
    assert (
        dict(
            Entry.objects.filter(date=day, game="freecell").values_list("session_id", "final_rank")
        )
        == ranks
    )
    board = api().get(f"/api/leaderboards/freecell/{day.isoformat()}/").json()["entries"]
    assert [(e["session"], e["rank"], e["won"]) for e in board] == [
        (won["id"], 1, True),
        (attempt["id"], 2, False),
    ]


def test_play_stops_at_midnight_even_before_the_close_runs(api, past_midnight):
    """The day ends at midnight, not when the close task gets to it."""
    c = api()
    attempt = c.start("klondike")
    assert c.move(attempt, 0, _stock(attempt)).status_code == 200
    past_midnight()
    state = c.get(f"/api/sessions/{attempt['id']}/").json()
    _refused_day_closed(c.move(attempt, 1, _stock(state)), 1)
    _refused_day_closed(c.post(f"/api/sessions/{attempt['id']}/resign/", {}), 1)
    assert GameSession.objects.get(pk=attempt["id"]).status == "playing"  # until the close


def test_practice_on_a_past_daily_still_plays(api, past_midnight):
    c = api()
    ranked = c.start("klondike")
    c.post(f"/api/sessions/{ranked['id']}/resign/", {})
    practice = c.start("klondike", ranked["deal"])
    assert practice["ranked"] is False
    past_midnight()
    assert c.move(practice, 0, _stock(practice)).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_socket_open_across_midnight_is_refused_on_its_kept_table(api, past_midnight):
    """The first move is stored by the optimistic statement on the table this process
    kept; after midnight the same socket's move must not take that path either."""
    c = api()
    attempt = c.start("klondike")
    sid = attempt["id"]

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/sessions/{sid}/", headers=c.ws_headers())
        assert (await ws.connect())[0]
        hello = await ws.receive_json_from(timeout=10)
        await ws.send_json_to({"type": "move", "seq": 0, "move": _stock(hello), "op": "a"})
        played = await ws.receive_json_from(timeout=10)
        past_midnight()
        await ws.send_json_to({"type": "move", "seq": 1, "move": _stock(played), "op": "b"})
        refused = await ws.receive_json_from(timeout=10)
        await ws.send_json_to({"type": "hint"})
        hint = await ws.receive_json_from(timeout=10)
        others = {}
        for kind in ("undo", "finish", "resign"):
            await ws.send_json_to({"type": kind, "seq": 1, "op": kind})
            others[kind] = await ws.receive_json_from(timeout=10)
        # The first move retried (its answer lost before midnight): answered as stored.
        await ws.send_json_to({"type": "move", "seq": 0, "move": _stock(hello), "op": "a"})
        retried = await ws.receive_json_from(timeout=10)
        await ws.disconnect()
        return played, refused, hint, others, retried

    played, refused, hint, others, retried = asyncio.run(scenario())
    assert played["type"] == "state"
    assert played["seq"] == 1
    assert refused["type"] == "error"
    assert refused["error"] == "day_closed"
    assert refused["op"] == "b"
    assert refused["seq"] == 1
    assert hint["type"] == "error"
    assert hint["error"] == "day_closed"
    for kind, answer in others.items():
        assert (answer["type"], answer["error"], answer["op"]) == ("error", "day_closed", kind)
    assert retried["type"] == "state"
    assert retried["seq"] == 1
    stored = GameSession.objects.get(pk=sid)
    assert (stored.seq, stored.status, stored.undo_count) == (1, "playing", 0)


def test_a_move_stored_before_midnight_and_retried_after_is_answered_as_stored(api, past_midnight):
    """Its answer was lost on the way: the retry changes nothing, so it gets the state as
    stored; a new move or a stale seq get the day's end."""
    c = api()
    attempt = c.start("klondike")
    token = _stock(attempt)
    first = c.post(
        f"/api/sessions/{attempt['id']}/moves/", {"seq": 0, "move": token, "op": "first"}
    )
    assert first.status_code == 200
    past_midnight()
    again = c.post(
        f"/api/sessions/{attempt['id']}/moves/", {"seq": 0, "move": token, "op": "first"}
    )
    assert again.status_code == 200
    assert again.json()["seq"] == 1
    assert again.json()["legal_moves"] == first.json()["legal_moves"]
    _refused_day_closed(
        c.post(f"/api/sessions/{attempt['id']}/moves/", {"seq": 0, "move": token, "op": "other"}), 1
    )
    _refused_day_closed(c.post(f"/api/sessions/{attempt['id']}/undo/", {"seq": 0}), 1)
    assert GameSession.objects.get(pk=attempt["id"]).seq == 1


def test_a_hint_the_pool_cannot_take_after_midnight_says_the_day_is_over(
    api, past_midnight, settings
):
    """No hint worker (or none free): the day's end is the answer, not "busy"."""
    c = api()
    attempt = c.start("klondike")
    past_midnight()
    settings.HINT_WORKERS = 0
    _refused_day_closed(c.post(f"/api/sessions/{attempt['id']}/hint/", {}), 0)
    other = api()
    practice = other.start("freecell", 617)  # practice has no day to end: the pool's word
    r = other.post(f"/api/sessions/{practice['id']}/hint/", {})
    assert (r.status_code, r.json()["error"]) == (503, "hints_off")


def test_scoring_takes_no_win_stored_after_the_days_end(api, past_midnight):
    c = api()
    attempt = c.start("freecell")
    day = today()
    late = days.day_end(day) + dt.timedelta(seconds=5)
    GameSession.objects.filter(pk=attempt["id"]).update(
        status="won", started_at=late, finished_at=late, time_ms=1000, move_count=80, cards_up=52
    )
    past_midnight()
    assert score_session(attempt["id"]) is None
    assert not Entry.objects.filter(session_id=attempt["id"]).exists()


def test_a_win_scored_after_the_close_leaves_the_closed_board_as_it_was(
    api, past_midnight, solve_freecell
):
    """The close entered the win (stored before midnight, its scoring still queued); the
    scoring task arriving later changes nothing."""
    c = api()
    s = c.start("freecell")
    seq = 0
    for seq, token in enumerate(solve_freecell(s["deal_number"])):
        assert c.move(s, seq, token).status_code == 200
    Entry.objects.filter(session_id=s["id"]).delete()  # as if the scoring had not run
    day = today()
    past_midnight()
    close_day(day.isoformat())
    entry = Entry.objects.get(session_id=s["id"])
    assert entry.won
    assert entry.final_rank == 1
    assert entry.verified is not None
    assert score_session(s["id"]) is None
    assert Entry.objects.get(session_id=s["id"]).scored_at == entry.scored_at


def test_a_disqualification_after_the_close_closes_the_day_again_and_is_audited(
    api, past_midnight, solve_freecell
):
    first, second = api(), api()
    wins = []
    for c in (first, second):
        s = c.start("freecell")
        for seq, token in enumerate(solve_freecell(s["deal_number"])):
            assert c.move(s, seq, token).status_code == 200
        wins.append(s["id"])
    day = today()
    past_midnight()
    close_day(day.isoformat())
    ranked = list(
        Entry.objects.filter(date=day).order_by("final_rank").values_list("session_id", flat=True)
    )
    top = GameSession.objects.select_related("deal").get(pk=ranked[0])
    # What a reader can compute from the ETag: it is a hash of the day's close times, entry
    # counts and reveal times, all public once the day is closed, and the export (with its
    # ETag) answers 404 before that; so it tells nothing the closed board does not.
    reader = api()
    exported = reader.get(f"/api/export/{day.isoformat()}/")
    assert exported.status_code == 200
    etag = exported["ETag"]
    assert exported["Cache-Control"] == "public, no-cache"
    again = reader.client.get(f"/api/export/{day.isoformat()}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    GameSession.objects.filter(pk=top.pk).update(disqualified=True, disqualified_reason="x")
    top.refresh_from_db()
    from games import signals

    signals.session_disqualified.send(GameSession, session=top)

    finals = dict(Entry.objects.filter(date=day).values_list("session_id", "final_rank"))
    assert finals == {ranked[0]: None, ranked[1]: 1}
    audit = AuditEntry.objects.get(session=top, action="day_reclosed")
    assert audit.data["ranks_changed"] == 2
    assert DayClosed.objects.get(game="freecell", date=day).entries == 1
    # A cache in front that kept the export asks again with its ETag: the day closed again,
    # so it gets the corrected board, not a 304.
    after = reader.client.get(f"/api/export/{day.isoformat()}/", HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    lines = [json.loads(line) for line in b"".join(after.streaming_content).splitlines()]
    ranks = {line["session"]: line["final_rank"] for line in lines if line["type"] == "session"}
    assert ranks[str(top.pk)] is None
    assert ranks[str(ranked[1])] == 1


def test_the_close_refuses_a_day_that_is_not_over(api):
    c = api()
    attempt = c.start("klondike")
    assert close_day(today().isoformat()) == {}
    assert GameSession.objects.get(pk=attempt["id"]).status == "playing"
    assert not DayClosed.objects.exists()
    assert Deal.objects.filter(revealed_at__isnull=False).count() == 0
    assert timezone.now() < days.day_end(today())
