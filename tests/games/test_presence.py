""" "Playing now" in one process on the real Redis: a socket whose heartbeat stopped stops
counting and is swept, with the boards told; a live one is kept by its heartbeat; the plain
sets of the release before, still in Redis during a deploy, break nothing.  (Processes that
die for real: tests/reliability/test_presence.py.)"""

from __future__ import annotations

import datetime as dt
import time

import redis
from django.conf import settings

from games import signals
from games.live import presence

# A day no other test plays: sockets of earlier tests still beating for today count there.
DAY = dt.date(2001, 2, 3)


def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def test_a_socket_not_rewritten_stops_counting_and_is_swept():
    told = []

    def heard(sender, game, date, **_):
        told.append((sender, game, date))

    signals.presence_changed.connect(heard)
    try:
        presence.join("freecell", DAY, "play.alive")
        presence.join("freecell", DAY, "play.dead")
        assert presence.playing("freecell", DAY) == 2
        # play.dead's process died: nobody rewrites it, and it ages past the cutoff.
        with presence._lock:
            presence._mine[("freecell", DAY)].discard("play.dead")
        _redis().zadd(
            presence._key("freecell", DAY), {"play.dead": time.time() - presence.STALE - 1}
        )
        assert presence.playing("freecell", DAY) == 1  # a reader is right at once
        told.clear()
        presence.beat()  # any live process's heartbeat sweeps it and tells the board
        assert _redis().zscore(presence._key("freecell", DAY), "play.dead") is None
        assert _redis().zscore(presence._key("freecell", DAY), "play.alive") is not None
        assert (presence.beat, "freecell", DAY) in told
        presence.leave("freecell", DAY, "play.alive")
        assert presence.playing("freecell", DAY) == 0
    finally:
        signals.presence_changed.disconnect(heard)


def test_the_previous_releases_sets_break_nothing():
    old = f"{settings.REDIS_KEY_PREFIX}:presence:klondike:{DAY.isoformat()}"
    _redis().sadd(old, "play.from-the-old-release")
    try:
        presence.join("klondike", DAY, "play.new")
        assert presence.playing("klondike", DAY) == 1
        presence.beat()
        presence.leave("klondike", DAY, "play.new")
        assert presence.playing("klondike", DAY) == 0
    finally:
        _redis().delete(old)
