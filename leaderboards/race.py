"""The live race on a ranked daily (docs/api.md, "race"): ``{"type": "race", "players":
[...]}`` to the board sockets that asked for it (``?race=1``), once a second.

The players' progress is written by the play sockets (``games.live.race``) to a Redis hash
per board.  Each process runs one ticker per board it has race watchers for: once a second
it reads the hash, leaves out the players hidden from the race, encodes the message once and
hands the same text to each of its watchers, a tenth of them at a time over half a second.
The cost is one read, one query and one encoding a second per board and process, however
many race; nothing goes through the channel layer, which would copy the message once per
watcher.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import defaultdict
from typing import Any, Protocol

import orjson
from channels.db import database_sync_to_async

from games.live import race as progress
from games.models import Player

SECONDS = 1.0
# The leaders a message names: a strip shows no more, and the message's size (what every
# watcher is sent each second) stays the same however many race.
LEADERS = 25
SLOTS, SPREAD = 10, 0.5  # a second's sends in 10 slots of watchers over half a second
# Everything a race entry may say: progress, and whose it is.  No card, no position.
FIELDS = ("player", "session", "cards_up", "moves", "elapsed_ms", "finished")

Board = tuple[str, dt.date]


class Watcher(Protocol):
    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...


# Each board's watchers in this process: their slot and when they were last sent one.
_watchers: dict[Board, dict[Watcher, tuple[int, float]]] = defaultdict(dict)
_joined = 0
_tickers: dict[Board, asyncio.Task[None]] = {}


def players(game: str, date: dt.date) -> list[dict[str, Any]]:
    """The race now: the ``LEADERS`` leading players (finished, then most cards up, then the
    quickest)."""
    now = progress.racers(game, date)
    ids = {e["player"] for e in now.values()}
    shown = dict(
        Player.objects.filter(pk__in=ids, hide_from_race=False).values_list("pk", "display_name")
    )
    # An anonymous player's session id is shown nowhere (leaderboards/ranking.py).
    anonymous = set(Player.objects.filter(pk__in=ids, anonymous=True).values_list("pk", flat=True))
    out = [
        {
            "player": shown[e["player"]],
            "session": None if e["player"] in anonymous else session_id,
            "cards_up": e["cards_up"],
            "moves": e["moves"],
            "elapsed_ms": e["elapsed_ms"],
            "finished": e["finished"],
        }
        for session_id, e in now.items()
        if e["player"] in shown
    ]
    out.sort(key=lambda e: (not e["finished"], -e["cards_up"], e["elapsed_ms"]))
    return out[:LEADERS]


def race_message(game: str, date: dt.date) -> dict[str, Any]:
    return {"type": "race", "players": players(game, date)}


def _encoded(game: str, date: dt.date) -> str:
    return orjson.dumps(race_message(game, date)).decode()


async def _tick(board: Board) -> None:
    loop = asyncio.get_running_loop()
    try:
        while _watchers.get(board):
            began = loop.time()
            try:
                # Not in the thread the board sockets' own queries share: a burst of them
                # connecting must not hold the second's message back.
                text = await database_sync_to_async(_encoded, thread_sensitive=False)(*board)
            except Exception:  # noqa: BLE001 - Redis or the database is restarting
                text = None
            if text is not None:
                await _send(board, text, loop)
            await asyncio.sleep(max(0.0, began + SECONDS - loop.time()))
    finally:
        if _tickers.get(board) is asyncio.current_task():
            del _tickers[board]


async def _send(board: Board, text: str, loop: asyncio.AbstractEventLoop) -> None:
    """The second's message to every watcher, slot by slot over ``SPREAD`` seconds: the
    sends of a thousand watchers at once would hold the loop, and the moves waiting on it,
    for as long.  A watcher keeps its slot, and is never sent two within a second."""
    for slot in range(SLOTS):
        watching = _watchers.get(board, {})
        for w in [w for w, (s, _) in watching.items() if s == slot]:
            wait = watching[w][1] + SECONDS - loop.time()
            if wait > 0:  # the previous second's read was quicker than this one's
                await asyncio.sleep(wait)
            try:
                await w.send(text_data=text)
            except Exception:  # noqa: BLE001 - that socket is closing
                watching.pop(w, None)
                continue
            if w in watching:
                watching[w] = (slot, loop.time())
        if slot < SLOTS - 1:
            await asyncio.sleep(SPREAD / SLOTS)


def watch(board: Board, watcher: Watcher) -> None:
    """A board socket asked for the race: it gets the next second's message and every one
    after, until ``unwatch``."""
    global _joined
    _joined += 1
    _watchers[board][watcher] = (_joined % SLOTS, 0.0)
    ticker = _tickers.get(board)
    loop = asyncio.get_running_loop()
    if ticker is None or ticker.done() or ticker.get_loop() is not loop:
        _tickers[board] = loop.create_task(_tick(board))


def unwatch(board: Board, watcher: Watcher) -> None:
    watching = _watchers.get(board)
    if watching is not None:
        watching.pop(watcher, None)
        if not watching:
            del _watchers[board]  # the ticker ends at its next second
