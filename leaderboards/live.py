"""Everything pushed to browsers goes through ``publish``.

Groups: ``board.<game>.<date>`` for a daily board's watchers, who hear the ranking and the
number of play sockets open on that day's deal (counted by ``games.live.presence``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.live import presence
from leaderboards import ranking


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


def playing(game: str, date: dt.date) -> int:
    return presence.playing(game, date)


def presence_message(game: str, date: dt.date) -> dict[str, Any]:
    return {"type": "presence", "playing": playing(game, date)}


def push_presence(game: str, date: dt.date) -> None:
    publish(board_group(game, date), presence_message(game, date))
