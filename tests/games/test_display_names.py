"""Display names cannot impersonate: no copy of another player's name (in any case, with
other separators, or in look-alike letters), no invisible characters, no staff names."""

from __future__ import annotations

import importlib
import threading
import time

import psycopg
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test import Client

from games.accounts import names, players
from games.accounts.names import name_key
from games.errors import PlayerError
from games.models import Player

CYRILLIC_O = "\u041e"  # "О"
CYRILLIC_A = "\u0410"  # "А"


def _rename(client, name):
    return client.patch("/api/me/", {"display_name": name})


def _refused(r, client, word):
    assert r.status_code == 400, r.content
    assert r.json()["error"] == "refused", r.json()
    assert word in r.json()["reason"], r.json()
    assert Player.objects.get(pk=client.me["id"]).display_name == client.me["display_name"]


def test_a_copy_of_the_board_leaders_generated_name_is_refused(api):
    leader, copier = api(), api()
    r = _rename(copier, leader.me["display_name"])
    _refused(r, copier, "taken")
    assert "pick another" in r.json()["reason"]


@pytest.mark.parametrize(
    "copy",
    [
        "Grace Hopper",
        "grace hopper",
        "GRACE HOPPER",
        "Grace_Hopper",
        "grace.hopper",
        "Grace-Hopper",
        "GraceHopper",
        "  Grace   Hopper ",
        f"Grace H{CYRILLIC_O.lower()}pper",  # Cyrillic о
        "Grace Ho\u0440\u0440er",  # Cyrillic р р
        "Grace Hoppe\u0433",  # Cyrillic г reads as r
        "Ｇｒａｃｅ Ｈｏｐｐｅｒ",  # full-width
        "Grace HoPPer",
    ],
)
def test_names_that_read_as_another_players_are_refused(api, copy):
    grace, copier = api(), api()
    assert _rename(grace, "Grace Hopper").status_code == 200
    _refused(_rename(copier, copy), copier, "taken")


def test_a_cyrillic_look_alike_of_a_generated_name_is_refused(api):
    first, copier = api(), api()
    assert _rename(first, "Brisk Otter 001").status_code == 200
    _refused(_rename(copier, f"Brisk {CYRILLIC_O}tter 001"), copier, "taken")
    _refused(_rename(copier, "Brisk Otter OO1"), copier, "taken")  # letters O for zeros


@pytest.mark.parametrize(
    "pair",
    [
        ("Philip", "PhiIip"),  # a capital I for the small l
        ("KIM", "\u039a\u0399\u039c"),  # Greek capitals kappa, iota, mu
        ("Bob", "B\u043eb"),
        ("Martin", "Rnartin"),  # "rn" reads as "m"
    ],
)
def test_look_alikes_across_scripts_and_letters_are_one_name(api, pair):
    first, copier = api(), api()
    assert _rename(first, pair[0]).status_code == 200
    _refused(_rename(copier, pair[1]), copier, "taken")
    assert name_key(pair[0]) == name_key(pair[1])


def test_renaming_to_a_variant_of_ones_own_name_is_fine(api):
    c = api()
    assert _rename(c, "Ada L.").status_code == 200
    r = _rename(c, "ADA_L")
    assert r.status_code == 200
    assert r.json()["display_name"] == "ADA_L"
    assert Player.objects.get(pk=c.me["id"]).name_key == name_key("ada l")


def test_a_freed_name_can_be_taken(api):
    a, b = api(), api()
    assert _rename(a, "Joan Clarke").status_code == 200
    assert _rename(a, "Joan C").status_code == 200
    assert _rename(b, "joan clarke").status_code == 200


@pytest.mark.parametrize(
    "name",
    [
        "\u3164\u3164\u3164",  # Hangul fillers: letters to \w, shown as nothing
        "\u3164A\u3164",
        "\u115f\u1160\u1160",
        "\uffa0\uffa0\uffa0",
        "Ada\u200bLovelace",  # zero-width space
        "Ada\u200dLove",  # zero-width joiner
        "Ada\u2060Love",  # word joiner
        "Ada\u200eLove",  # left-to-right mark
        "Bob\ufe0f",  # variation selector
        "\ufeffEve",  # byte order mark
        "Tag\U000e0041ged",  # tag character
        "\ue000abc",  # private use
        "\u0378abc",  # unassigned
        "abc\u0007",  # control
        "abc\ud800",  # lone surrogate
    ],
)
def test_invisible_and_control_characters_are_refused(api, name):
    c = api()
    r = _rename(c, name)
    assert r.status_code == 400, r.content
    assert r.json()["reason"], r.json()


def test_a_name_is_stored_nfkc_normalised(api):
    c = api()
    r = _rename(c, "Ｎｉｍｂｌｅ ﬁnch")
    assert r.status_code == 200
    assert r.json()["display_name"] == "Nimble finch"
    assert Player.objects.get(pk=c.me["id"]).display_name == "Nimble finch"


@pytest.mark.parametrize(
    "name",
    [
        "Admin",
        "admin",
        "ADMIN",
        f"{CYRILLIC_A}dmin",
        "Admin1",
        "the_admin",
        "TheAdmin",
        "Ad Min",
        "1admin2",
        "Administrator",
        "Moderator",
        "mod",
        "Staff",
        "Support Team",
        "System",
        "root",
        "R00T",
        "Official",
        "Daily Solitaire",
        "DailySolitaire",
        "solitaire_7",
        "Sys.Admin",
    ],
)
def test_names_kept_for_the_site_and_its_staff_are_refused(api, name):
    c = api()
    r = _rename(c, name)
    _refused(r, c, "kept for the site")
    assert "pick another" in r.json()["reason"]


@pytest.mark.parametrize(
    "name", ["Badminton", "Modest Mouse", "Rooted", "Zoë Ørsted", "tile_9-x", "Ada L."]
)
def test_ordinary_names_that_merely_contain_a_kept_word_are_fine(api, name):
    c = api()
    r = _rename(c, name)
    assert r.status_code == 200, r.content


def test_generated_guest_names_retry_until_they_are_unique(api, monkeypatch):
    offered = iter(["Calm Fox 001", "Calm Fox 001", "Calm F0x 001", "Calm Fox 002"])
    monkeypatch.setattr(players, "generated_name", lambda digits=3: next(offered))
    first, second = api(), api()
    assert first.me["display_name"] == "Calm Fox 001"
    assert second.me["display_name"] == "Calm Fox 002"  # its clash and a look-alike skipped
    assert Player.objects.get(pk=second.me["id"]).name_key == name_key("Calm Fox 002")


def test_generated_names_get_longer_numbers_when_the_short_ones_run_out(db, monkeypatch):
    taken = [f"Calm Fox {n:03d}" for n in range(1000)]
    Player.objects.bulk_create([Player(display_name=n, name_key=name_key(n)) for n in taken])
    monkeypatch.setattr(names, "_ADJECTIVES", ["Calm"])
    monkeypatch.setattr(names, "_NOUNS", ["Fox"])
    player = players._new_player(None)
    assert len(player.display_name.rsplit(" ", 1)[1]) > 3


@pytest.mark.django_db
def test_an_accounts_name_from_its_username_is_unique_too():
    User = get_user_model()
    Player.objects.create(display_name="hopper", name_key=name_key("hopper"))
    taken, free = (
        User.objects.create_user("Hopper", password="x"),
        User.objects.create_user("Knuth", password="x"),
    )
    for user, expect_own in ((taken, False), (free, True)):
        c = Client()
        c.force_login(user)
        me = c.get("/api/me/").json()
        assert (me["display_name"] == user.username) is expect_own
        assert Player.objects.get(user=user).name_key == name_key(me["display_name"])
    assert User.objects.create_user("admin", password="x")
    c = Client()
    c.force_login(User.objects.get(username="admin"))
    assert c.get("/api/me/").json()["display_name"] != "admin"  # kept for the site


def test_the_database_refuses_two_players_with_one_key(db):
    Player.objects.create(display_name="Alan", name_key=name_key("Alan"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(display_name="ALAN", name_key=name_key("ALAN"))


@pytest.mark.django_db(transaction=True)
def test_a_rename_racing_another_for_the_same_name_is_refused_not_a_500(api):
    """The other player's rename is written but not committed when this one's check runs:
    the check passes, the unique key makes this UPDATE wait for the other to commit, then
    refuses it.  The answer is the same 400."""
    c, rival = api(), api()
    settings_dict = connection.settings_dict
    other = psycopg.connect(
        host=settings_dict["HOST"] or None,
        port=settings_dict["PORT"] or None,
        user=settings_dict["USER"],
        password=settings_dict["PASSWORD"] or None,
        dbname=settings_dict["NAME"],
    )
    other.execute(
        "UPDATE games_player SET display_name = %s, name_key = %s WHERE id = %s",
        ("Ada Lovelace", name_key("Ada Lovelace"), rival.me["id"]),
    )
    pid = other.info.backend_pid
    waited = []

    def commit_once_blocked() -> None:
        with psycopg.connect(
            host=settings_dict["HOST"] or None,
            port=settings_dict["PORT"] or None,
            user=settings_dict["USER"],
            password=settings_dict["PASSWORD"] or None,
            dbname=settings_dict["NAME"],
            autocommit=True,
        ) as watcher:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                blocked = watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                    (pid,),
                ).fetchone()[0]
                if blocked:
                    waited.append(True)
                    break
                time.sleep(0.02)
        other.commit()

    t = threading.Thread(target=commit_once_blocked)
    t.start()
    r = _rename(c, "ada lovelace")
    t.join()
    other.close()
    assert waited, "the rename never reached the unique key"
    assert r.status_code == 400, r.content
    assert "taken" in r.json()["reason"], r.content
    assert Player.objects.get(pk=c.me["id"]).display_name == c.me["display_name"]


def test_the_migration_keys_the_first_player_of_each_look_and_spares_the_copies(db):
    first = Player.objects.create(display_name="Brisk Otter 001")
    copy = Player.objects.create(display_name=f"Brisk {CYRILLIC_O}tter 001")
    other = Player.objects.create(display_name="Quiet Owl 002")
    migration = importlib.import_module("games.migrations.0004_player_name_key")
    migration.backfill(apps, None)
    keys = dict(Player.objects.values_list("pk", "name_key"))
    assert keys[first.pk] == name_key("Brisk Otter 001")
    assert keys[copy.pk] is None  # keeps its name until it renames
    assert keys[other.pk] == name_key("Quiet Owl 002")
    assert Player.objects.get(pk=copy.pk).display_name == f"Brisk {CYRILLIC_O}tter 001"
    with pytest.raises(PlayerError):
        players.rename(copy, "brisk otter 001")
    assert players.rename(copy, "Brisk Otter 003").name_key == name_key("Brisk Otter 003")
