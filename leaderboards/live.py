"""Everything pushed to browsers goes through ``publish``, and the boards' own refresh.

Groups: ``board.<game>.<date>`` for a daily board's watchers, who hear the ranking and the
number of play sockets open on that day's deal (counted by ``games.live.presence``).

A win, a disqualification, a merge and the close are told to the boards (``push_board``),
but the unfinished attempts change with every move, a start and a resignation, which
nothing tells them: a signal per move would cost the move's path a board's query.  So each
process reads again, every ``REFRESH_SECONDS``, each board its sockets watch, and sends it
to them when it is not what they last heard (``watch``): one read per board and process
every few seconds, however many play or watch.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections import defaultdict
from typing import Any, Protocol

import orjson
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
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
    return {
        "type": "leaderboard",
        "game": game,
        "date": date.isoformat(),
        "entries": ranking.entries(game, date),
    }


def push_board(game: str, date: dt.date) -> None:
    publish(board_group(game, date), board_message(game, date))


def playing(game: str, date: dt.date) -> int:
    return presence.playing(game, date)


def presence_message(game: str, date: dt.date) -> dict[str, Any]:
    return {"type": "presence", "playing": playing(game, date)}


def push_presence(game: str, date: dt.date) -> None:
    publish(board_group(game, date), presence_message(game, date))


# -- each process's own refresh of the boards its sockets watch ---------------------------
REFRESH_SECONDS = 5.0  # as often as the page polls while its socket is down (board.js)

Board = tuple[str, dt.date]


class Watcher(Protocol):
    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...


_watchers: dict[Board, set[Watcher]] = defaultdict(set)
_heard: dict[Board, bytes] = {}  # the board as this process's watchers last heard it
_tickers: dict[Board, asyncio.Task[None]] = {}


def heard(board: Board, message: dict[str, Any]) -> None:
    """The board's watchers in this process were sent ``message`` (a push, or the board as
    a socket opened): the refresh sends it again only once it has changed."""
    _heard[board] = orjson.dumps(message)


def watch(board: Board, watcher: Watcher, sent: dict[str, Any]) -> None:
    """A board socket opened and was sent the board ``sent``: it is sent the board again
    whenever a refresh finds it changed."""
    if not _watchers.get(board):
        heard(board, sent)  # the only watcher here: it heard this one
    _watchers[board].add(watcher)
    ticker = _tickers.get(board)
    loop = asyncio.get_running_loop()
    if ticker is None or ticker.done() or ticker.get_loop() is not loop:
        _tickers[board] = loop.create_task(_refresh(board))


def unwatch(board: Board, watcher: Watcher) -> None:
    watching = _watchers.get(board)
    if watching is not None:
        watching.discard(watcher)
        if not watching:
            del _watchers[board]  # the refresh ends at its next turn
            _heard.pop(board, None)


async def _refresh(board: Board) -> None:
    try:
        while _watchers.get(board):
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                # Not in the thread the board sockets' own queries share (race.py does the same).
                message = await database_sync_to_async(board_message, thread_sensitive=False)(
                    *board
                )
            except Exception:  # noqa: BLE001 - Redis or the database is restarting
                continue
            text = orjson.dumps(message)
            if text == _heard.get(board):
                continue
            _heard[board] = text
            decoded = text.decode()
            for n, w in enumerate(list(_watchers.get(board, ()))):
                try:
                    await w.send(text_data=decoded)
                except Exception:  # noqa: BLE001 - that socket is closing
                    _watchers.get(board, set()).discard(w)
                if n % 100 == 99:
                    await asyncio.sleep(0)  # a thousand sends must not hold the moves waiting
    finally:
        try:
            mine = _tickers.get(board) is asyncio.current_task()
        except RuntimeError:  # its loop closed with it waiting (a test's): watch() replaces it
            mine = False
        if mine:
            del _tickers[board]
