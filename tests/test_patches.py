"""The library patches' switches (config/patches/, ``FRAMEWORK_PATCHES_OFF``) and the model
built from a row (config/patches/django.py, ``model_rows``) on and off.  Each patch's own
behaviour is tested with it on beside its module's test (each docstring names it); the site
with every one off in tests/frontend/test_patches_off.py."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS

from config import patches
from config.patches import django as django_patch
from config.settings.env import framework_patches
from games.models import Deal, GameSession


def test_every_patch_is_on_unless_named_off():
    assert framework_patches([]) == tuple(patches.PATCHES)
    assert framework_patches(["pool_check", "lean_views"]) == tuple(
        n for n in patches.PATCHES if n not in ("pool_check", "lean_views")
    )
    assert framework_patches(["all"]) == ()


def test_a_name_that_is_no_patch_stops_the_start():
    with pytest.raises(ImproperlyConfigured, match="pool_chek"):
        framework_patches(["pool_chek"])


def test_the_test_run_has_every_patch_on_and_on_knows_only_their_names(settings):
    assert all(patches.on(name) for name in patches.PATCHES)
    settings.FRAMEWORK_PATCHES = ("twisted_forms",)
    assert patches.on("twisted_forms")
    assert not patches.on("pool_check")
    with pytest.raises(KeyError):
        patches.on("no_such_patch")


@pytest.mark.parametrize("lean", [True, False], ids=["patch on", "patch off"])
def test_a_session_from_a_row_is_the_model_from_db_builds(monkeypatch, lean):
    monkeypatch.setattr(django_patch, "_LEAN_ROWS", lean)
    deal = Deal(id=7, game="freecell", seed="12345")
    values = {
        "id": "0b5d9c1e-9a53-4d0c-a8a7-3f7a5f2b1c11",
        "player_id": 3,
        "deal_id": 7,
        "game": "freecell",
        "status": GameSession.PLAYING,
        "score": None,
        "move_count": 4,
        "seq": 4,
    }
    session = django_patch.from_row(GameSession, values, {"deal": deal})
    assert type(session) is GameSession
    assert {k: getattr(session, k) for k in values} == values
    assert session.deal is deal  # from the cache: no query
    assert session._state.adding is False
    assert session._state.db == DEFAULT_DB_ALIAS
    deferred = session.get_deferred_fields()
    assert "moves" in deferred or "legacy_moves" in deferred
    assert deferred.isdisjoint(values)
    built = GameSession.from_db(DEFAULT_DB_ALIAS, list(values), list(values.values()))
    assert deferred == built.get_deferred_fields()


def test_the_cache_shares_one_client_where_djangos_makes_one_per_cache_object(settings):
    """``cache_client``: every cache object of one configuration (Django makes one per
    request context under ASGI) reads and writes through the process's one client."""
    from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

    conf = settings.CACHES["default"]
    params = {k: v for k, v in conf.items() if k not in ("BACKEND", "LOCATION")}
    assert conf["BACKEND"] == "config.patches.django.RedisCache"
    one, two = (django_patch.RedisCache(conf["LOCATION"], params) for _ in range(2))
    assert one._cache is two._cache
    assert one._cache.get_client() is two._cache.get_client(write=True)
    one.set("patch-shared", "seen", 30)
    assert two.get("patch-shared") == "seen"
    theirs = [DjangoRedisCache(conf["LOCATION"], params) for _ in range(2)]
    assert theirs[0]._cache is not theirs[1]._cache
    assert theirs[0].get("patch-shared") == "seen"  # the same Redis, the same keys
    one.delete("patch-shared")
