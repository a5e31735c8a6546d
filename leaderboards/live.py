"""Everything pushed to browsers goes through ``publish``; presence is counted here too.

Groups: ``board.<game>.<date>`` for a daily board's watchers.  Presence is the number of
open play sockets on that day's deal, kept in Redis (or in this process without Redis).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from leaderboards import index, ranking

_local_presence: dict[str, set[str]] = defaultdict(set)


def board_group(game: str, date: dt.date | str) -> str:
    day = date.isoformat() if isinstance(date, dt.date) else date
    return re.sub(r"[^A-Za-z0-9._-]", "_", f"board.{game}.{day}")


async def apublish(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group, {"type": "push", "message": message})


def publish(group: str, message: dict[str, Any]) -> None:
    async_to_sync(apublish)(group, message)


def board_message(game: str, date: dt.date) -> dict[str, Any]:
    return {"type": "leaderboard", "game": game, "date": date.isoformat(),
            "entries": ranking.entries(game, date)}


def push_board(game: str, date: dt.date) -> None:
    publish(board_group(game, date), board_message(game, date))


def _presence_key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:presence:{game}:{date.isoformat()}"


def playing(game: str, date: dt.date) -> int:
    r = index.client()
    if r is None:
        return len(_local_presence[_presence_key(game, date)])
    return int(r.scard(_presence_key(game, date)))


def presence_message(game: str, date: dt.date) -> dict[str, Any]:
    return {"type": "presence", "playing": playing(game, date)}


def join(game: str, date: dt.date, channel: str) -> None:
    r = index.client()
    k = _presence_key(game, date)
    if r is None:
        _local_presence[k].add(channel)
    else:
        r.sadd(k, channel)
        r.expire(k, 2 * 24 * 3600)  # a crashed server's sockets fade with the day
    publish(board_group(game, date), presence_message(game, date))


def leave(game: str, date: dt.date, channel: str) -> None:
    r = index.client()
    k = _presence_key(game, date)
    if r is None:
        _local_presence[k].discard(channel)
    else:
        r.srem(k, channel)
    publish(board_group(game, date), presence_message(game, date))
