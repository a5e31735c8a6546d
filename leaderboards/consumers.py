"""Live daily boards: ``leaderboard`` messages when the ranking changes, ``presence`` with
how many play sockets are open on that day's deal; with ``?race=1``, only the live race
(``leaderboards.race``) once a second."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.daily.days import parse_day
from games.engine import GAMES
from games.live import frames
from leaderboards import live, race

CLOSE_BAD_BOARD = 4400


class BoardConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None
    racing: tuple[str, Any] | None = None
    board: tuple[str, Any] | None = None
    budget: frames.FrameBudget | None = None
    flooded = False

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        await self.accept()
        day = parse_day(kwargs["date"])
        if kwargs["game"] not in GAMES or day is None:
            await self.send_json(
                {"type": "error", "reason": "no such board: /ws/leaderboards/<game>/<YYYY-MM-DD>/"}
            )
            await self.close(code=CLOSE_BAD_BOARD)
            return
        if b"race=1" in self.scope.get("query_string", b"").split(b"&"):
            # The race only: a table's strip has no use for the board, and a thousand
            # players turning the race on must not each cost the board's query.
            self.racing = (kwargs["game"], day)
            race.watch(self.racing, self)
            return
        self.group = live.board_group(kwargs["game"], day)
        self.board = (kwargs["game"], day)
        await self.channel_layer.group_add(self.group, self.channel_name)
        board = await database_sync_to_async(live.board_message)(kwargs["game"], day)
        await self.send_json(board)
        await self.send_json(
            await database_sync_to_async(live.presence_message)(kwargs["game"], day)
        )
        # The unfinished attempts change with every move: this process reads the board again
        # every few seconds while a socket watches it (live.py).
        live.watch(self.board, self, board)

    async def disconnect(self, code: int) -> None:
        if self.racing is not None:
            race.unwatch(self.racing, self)
        if self.board is not None:
            live.unwatch(self.board, self)
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def push(self, event: dict[str, Any]) -> None:
        message = event["message"]
        if message.get("type") == "leaderboard" and self.board is not None:
            live.heard(self.board, message)
        await self.send_json(message)

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        """Boards are read-only: a frame is dropped unread, and a client that floods the
        socket is closed (games/live/frames.py)."""
        if self.budget is None:
            self.budget = frames.FrameBudget()
        if not self.budget.take() and self.budget.flooding() and not self.flooded:
            self.flooded = True
            await self.close(code=frames.CLOSE_FLOOD)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Boards are read-only; anything sent is ignored."""
