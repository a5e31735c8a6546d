"""A committed daily is sealed from staff too (docs/deals.md, "Commit, then reveal").

What a member of staff could do before: with ``change_deal``, replace a future daily's
seed, salt and commitment in the admin, silently; with ``view_deal`` only, read today's
seed and certified line.  What they can compute now from what the admin shows them of an
unrevealed daily: its commitment, a SHA-256 over the seed and a 128-bit salt, which no
search over seeds inverts; its par and difficulty, which /fair/ shows everyone.  The seed,
salt and line need ``games.view_deal_secrets``, and each look leaves an audit entry with
who looked, so a leak has a name on it.  Changing a committed deal is refused by the
model's save, by the admin (read-only) and by PostgreSQL (a trigger), and a replacement is
a new deal with a new commitment, published before its day and audited.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import IntegrityError, connection, transaction
from django.test import Client

from games.daily.deals import ensure_daily, replace_daily, today
from games.engine.commitment import verify
from games.errors import DealError
from games.models import AuditEntry, Deal, SealedDeal


def staff(*codenames: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(
        f"staff-{'-'.join(codenames) or 'none'}", password="pw-staff-123456", is_staff=True
    )
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
    )
    client = Client()
    client.force_login(user)
    return client, user


@pytest.fixture
def todays(db) -> Deal:
    return ensure_daily("klondike", today())


def test_view_deal_alone_does_not_show_a_sealed_seed_salt_or_line(todays):
    Deal.objects.filter(pk=todays.pk).update(line=["s", "solver-line-mark"])  # to hide
    client, _ = staff("view_deal")
    page = client.get(f"/admin/games/deal/{todays.pk}/change/").content.decode()
    assert "sealed until its day is closed" in page
    assert todays.commitment in page
    assert str(todays.seed) not in page
    assert todays.salt not in page
    assert "solver-line-mark" not in page
    assert not AuditEntry.objects.filter(action="deal_secrets_viewed").exists()


def test_the_secrets_permission_shows_them_and_every_look_is_audited(todays):
    client, user = staff("view_deal", "view_deal_secrets")
    for _ in range(2):
        page = client.get(f"/admin/games/deal/{todays.pk}/change/").content.decode()
        assert str(todays.seed) in page
        assert todays.salt in page
    looks = AuditEntry.objects.filter(action="deal_secrets_viewed", actor=user)
    assert looks.count() == 2
    assert looks.first().data["deal"] == todays.pk


def test_once_revealed_the_seed_is_shown_to_any_staff_without_an_audit(todays):
    Deal.objects.filter(pk=todays.pk).update(revealed_at=dt.datetime.now(dt.UTC))
    client, _ = staff("view_deal")
    assert str(todays.seed) in client.get(f"/admin/games/deal/{todays.pk}/change/").content.decode()
    assert not AuditEntry.objects.filter(action="deal_secrets_viewed").exists()


def test_the_admin_cannot_change_or_delete_a_committed_deal(todays):
    client, _ = staff("view_deal", "change_deal", "delete_deal", "view_deal_secrets")
    page = client.get(f"/admin/games/deal/{todays.pk}/change/").content.decode()
    assert 'name="seed"' not in page
    assert 'name="_save"' not in page
    r = client.post(
        f"/admin/games/deal/{todays.pk}/change/",
        {
            "game": "klondike",
            "seed": "12345",
            "salt": "0" * 32,
            "commitment": "f" * 64,
            "public_id": todays.public_id,
            "candidate": "0",
        },
    )
    assert r.status_code == 403
    assert client.post(f"/admin/games/deal/{todays.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Deal.objects.get(pk=todays.pk).seed == todays.seed


def test_model_save_and_delete_refuse_to_change_a_committed_deal(todays):
    deal = Deal.objects.get(pk=todays.pk)
    deal.seed += 1
    with pytest.raises(SealedDeal, match="seed"):
        deal.save()
    deal = Deal.objects.get(pk=todays.pk)
    deal.par = 1
    with pytest.raises(SealedDeal, match="par"):
        deal.save()
    with pytest.raises(SealedDeal):
        Deal.objects.get(pk=todays.pk).delete()
    deal = Deal.objects.get(pk=todays.pk)
    deal.revealed_at = dt.datetime.now(dt.UTC)  # the reveal is the one change there is
    deal.save()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_postgresql_refuses_rewriting_a_committed_deal_by_any_query(todays):
    for change in ({"seed": todays.seed + 1}, {"salt": "0" * 32}, {"commitment": "f" * 64}):
        with pytest.raises(IntegrityError, match="committed"), transaction.atomic():
            Deal.objects.filter(pk=todays.pk).update(**change)
    Deal.objects.filter(pk=todays.pk).update(revealed_at=dt.datetime.now(dt.UTC))  # allowed
    # A deal with no commitment yet (a random deal) is still the daily code's to commit.
    random = Deal.objects.create(game="klondike", seed=98765)
    Deal.objects.filter(pk=random.pk).update(salt="1" * 32, commitment="e" * 64)


def test_a_future_daily_is_replaced_by_a_new_published_commitment_audited(db, api):
    day = today() + dt.timedelta(days=1)
    old = ensure_daily("klondike", day)
    operator = get_user_model().objects.create_user(
        "replacer", password="pw-r-12345678", is_staff=True
    )
    new = replace_daily("klondike", day, operator, "the seed was in a leaked log")
    assert new.commitment != old.commitment
    assert new.seed != old.seed
    assert new.candidate == old.candidate + 1
    assert verify("klondike", day, new.seed, new.salt, new.commitment)
    upcoming = api().get("/api/daily/upcoming/").json()["deals"]
    published = {(d["game"], d["date"]): d["commitment"] for d in upcoming}
    assert published[("klondike", day.isoformat())] == new.commitment
    entry = AuditEntry.objects.get(action="deal_replaced")
    assert entry.actor == operator
    assert entry.reason == "the seed was in a leaked log"
    assert entry.data["withdrawn"]["commitment"] == old.commitment
    assert entry.data["published"]["commitment"] == new.commitment
    with pytest.raises(DealError, match="reason"):
        replace_daily("klondike", day, operator, "  ")


def test_a_daily_whose_day_opened_is_never_replaced(todays):
    with pytest.raises(DealError, match="opened"):
        replace_daily("klondike", today(), None, "try")
    assert Deal.objects.get(pk=todays.pk).commitment == todays.commitment
    assert not AuditEntry.objects.filter(action="deal_replaced").exists()


def test_the_admin_replaces_a_future_daily_with_change_deal(db):
    day = today() + dt.timedelta(days=2)
    old = ensure_daily("whitehorse", day)
    viewer, _ = staff("view_deal")
    assert viewer.post(f"/admin/games/deal/{old.pk}/replace/", {"reason": "x"}).status_code == 403
    client, _ = staff("view_deal", "change_deal")
    page = client.get(f"/admin/games/deal/{old.pk}/change/").content.decode()
    assert "Replace before its day" in page
    r = client.post(f"/admin/games/deal/{old.pk}/replace/", {"reason": "rotated the secret"})
    assert r.status_code == 302
    new = Deal.objects.get(game="whitehorse", date=day)
    assert new.commitment != old.commitment
    assert not Deal.objects.filter(pk=old.pk).exists()
    assert AuditEntry.objects.filter(action="deal_replaced").count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_a_session_whose_deal_changed_under_it_gets_an_answer_not_a_500(api):
    """Only a database owner switching the seal off can do this now; the routes that
    replay a game still answer with what happened."""
    c = api()
    s = c.start("klondike")
    state, seq = s, 0
    # Turns of the stock, then a move off it (on any day's deal: turned until one shows).
    while seq < 3 or not any(m["from"] != "stock" for m in state["legal_moves"]):
        r = c.move(s, seq, "s")
        assert r.status_code == 200
        state, seq = r.json(), seq + 1
        assert seq < 60, "no move but the stock's on this deal"
    table = next(m["move"] for m in state["legal_moves"] if m["from"] != "stock")
    assert c.move(s, seq, table).status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_deal DISABLE TRIGGER games_deal_sealed")
        try:
            deal = Deal.objects.get(public_id=s["deal"])
            Deal.objects.filter(pk=deal.pk).update(seed=deal.seed + 7)
        finally:
            cursor.execute("ALTER TABLE games_deal ENABLE TRIGGER games_deal_sealed")
    for path in (f"/api/sessions/{s['id']}/replay/", f"/api/sessions/{s['id']}/share/"):
        r = c.get(path)
        assert r.status_code == 409, (path, r.content)
        assert r.json()["error"] == "record_broken", (path, r.content)


def test_the_replay_of_a_session_on_a_sealed_daily_hides_its_face_down_cards(api, todays):
    from games.engine import new_game

    c = api()
    s = c.start("klondike")
    assert c.move(s, 0, "s").status_code == 200
    layout = new_game("klondike", todays.seed).layout()
    hidden = {
        code
        for pile, down in zip(layout["tableau"], layout["face_down"], strict=True)
        for code in pile[:down]
    }

    def drawn(client: Client) -> str:
        page = client.get(f"/admin/games/gamesession/{s['id']}/replay/?step=0").content.decode()
        return page.split('<div class="table-drawn">', 1)[1].split("<h2>", 1)[0]

    viewer, _ = staff("view_gamesession", "view_deal")
    table = drawn(viewer)
    assert table.count(">??<") == len(hidden) == 21
    assert not [code for code in hidden if f">{code}<" in table]
    assert not AuditEntry.objects.filter(action="deal_secrets_viewed").exists()
    trusted, user = staff("view_gamesession", "view_deal", "view_deal_secrets")
    table = drawn(trusted)
    assert ">??<" not in table
    assert all(f">{code}<" in table for code in hidden)
    look = AuditEntry.objects.get(action="deal_secrets_viewed", actor=user)
    assert look.data["where"].startswith("replay of session")
