"""A player's row read through Redis (Django's cache), for the request that only needs it.

Every API request starts by finding its player (``players.current_player``); with the
browser session in Redis too (``session_life``), that read was the one query a
``GET /api/me/`` made.  The row's fields are kept ``PLAYER_CACHE_SECONDS`` under the
player's id.  Saving or deleting a player drops the copy (signals, again once the
transaction commits, so a read racing the write cannot put the old row back for longer
than that); a queryset ``update()`` sends no signal, so the code that updates players
that way calls ``forget``.  A cache that cannot be reached is read around.  Code that
must see the row as it is now (a row lock, a merge) reads the database, as before.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from games.models import Player

log = logging.getLogger(__name__)
PREFIX = "ds.player:"
_FIELDS = [f.attname for f in Player._meta.concrete_fields]


def _cache() -> Any:
    return caches["default"] if settings.PLAYER_CACHE_SECONDS > 0 else None


def get(pk: Any) -> Player | None:
    """The player ``pk`` (a copy at most PLAYER_CACHE_SECONDS old), or None."""
    cache = _cache()
    if cache is not None:
        try:
            values = cache.get(f"{PREFIX}{pk}")
        except Exception:  # unreachable: the database answers
            values = None
        found = from_cached(values)
        if found is not None:
            return found
    player = Player.objects.filter(pk=pk).first()
    if player is not None and cache is not None:
        try:
            cache.set(
                f"{PREFIX}{pk}",
                [getattr(player, f) for f in _FIELDS],
                settings.PLAYER_CACHE_SECONDS,
            )
        except Exception as exc:
            log.warning("player not cached: %s", exc)
    return player


def from_cached(values: Any) -> Player | None:
    """The player from its cached copy's value (read by a client of its own,
    games/api/loop_start.py), None when that is no copy of a row."""
    if isinstance(values, list) and len(values) == len(_FIELDS):
        return Player.from_db("default", _FIELDS, values)
    return None


def forget(*pks: Any) -> None:
    """Drop the copies of these players, now and once the transaction commits."""
    cache = _cache()
    if cache is None or not pks:
        return
    keys = [f"{PREFIX}{pk}" for pk in pks]

    def drop() -> None:
        try:
            cache.delete_many(keys)
        except Exception as exc:  # they live PLAYER_CACHE_SECONDS at most
            log.warning("cached players not dropped: %s", exc)

    drop()
    transaction.on_commit(drop)


def _changed(sender: Any, instance: Player, **kwargs: Any) -> None:
    forget(instance.pk)


post_save.connect(_changed, sender=Player, dispatch_uid="games.player_cache.saved")
post_delete.connect(_changed, sender=Player, dispatch_uid="games.player_cache.deleted")
