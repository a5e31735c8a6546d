"""Play over a websocket (docs/api.md): the same operations as the HTTP views.

The socket belongs to one session of one player (from the browser's session cookie).  On
connect, and whenever asked (``{"type": "resume"}``), it sends the stored state, so a client
that reconnects continues from the last stored move; a repeated ``seq`` is refused like over
HTTP, so a move sent twice is applied once.

Service calls run in a thread pool rather than Channels' single database thread: many
players' moves then commit side by side, and PostgreSQL flushes their commits together.
Each call is one hop to a pool thread (``loop.run_in_executor``): the consumer itself never
touches the database, so Channels' own clean-up hop before every message is skipped too
(its loop: config/patches/channels.py); every pool call cleans up its thread's connection
instead.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import orjson
import psycopg
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError, close_old_connections

from config import drain, metrics
from config.patches.channels import consumer_loop
from games.accounts import player_cache, session_life
from games.accounts.session_life import SESSION_KEY
from games.api.parsers import BadJSON, TooLarge, load_json
from games.errors import HintUnavailable, SessionNotFound, TryLater, answer_for
from games.fairplay import ratelimit
from games.live import driver, frames, memory, presence, race
from games.models import Player
from games.play import hint_pool, hints, operations, optimistic, tables, verdicts
from games.play.answer import state
from games.play.dispatch import Operation, named
from games.play.outcome import clean_op, clean_token

log = logging.getLogger(__name__)
CLOSE_FORBIDDEN = 4403  # not your session (or no such session)
PROTOCOL = 2  # the greeting is "hello"; every answer says what it answers


def _answers(content: dict[str, Any]) -> dict[str, Any]:
    """What an answer answers: the message's type, its seq and its op, as sent (only
    values that could be real: a client matches answers to its operations by them)."""
    kind, seq, op = content.get("type"), content.get("seq"), content.get("op")
    return {
        "type": kind if isinstance(kind, str) and len(kind) <= 16 else None,
        "seq": seq if type(seq) is int else None,
        "op": op if isinstance(op, str) and len(op) <= 40 else None,
    }


# Enough threads that many players' commits overlap (PostgreSQL flushes them together).
_POOL = ThreadPoolExecutor(
    max_workers=int(os.environ.get("WS_THREADS", "16")), thread_name_prefix="play"
)
T = TypeVar("T")


def _cleanly(fn: Callable[..., T], *args: Any) -> T:
    close_old_connections()  # a connection found broken or old goes back to the pool
    try:
        return fn(*args)
    finally:
        close_old_connections()


def in_pool(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``fn`` run in a pool thread.  Lighter than asgiref's sync_to_async, which this path
    does not need: Django's database connections are per thread, and nothing here reads
    context variables of the consumer's task."""

    def call(*args: Any) -> Awaitable[T]:
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(_POOL, functools.partial(_cleanly, fn, *args))

    return call


def _player(player_id: Any) -> Player | None:
    return player_cache.get(player_id) if player_id else None  # Redis, when it has it


def _limited(wait: int | None) -> None:
    if wait is not None:
        raise TryLater(f"too many moves: wait {wait} s", wait)


def _open(
    browser_session: Any, session_id: str, channel: str
) -> tuple[Player, dict[str, Any], tuple[str, Any] | None]:
    """Everything a new socket needs, in one trip to a pool thread: whose browser it is,
    the session's state, and a seat among the deal's watchers (presence)."""
    player = _player(browser_session.get(SESSION_KEY) if browser_session else None)
    if player is None:
        raise SessionNotFound("no player: visit /api/me/ first")
    session_life.keep_alive(browser_session)  # playing renews the guest's year
    verdicts.warm()  # here, off the loop: a worker's start would stall it
    outcome = operations.get_session(session_id, player)
    deal = outcome.session.deal
    board = (deal.game, deal.date) if deal.date else None
    if board is not None:
        presence.join(*board, channel)
    return player, state(outcome), board


def _operate(
    session_id: str,
    player: Player,
    content: dict[str, Any],
    declined: optimistic.Declined | None = None,
) -> dict[str, Any]:
    """Any message, in a pool thread, by the operations' table (games/play/dispatch.py).
    ``declined``: a move the optimistic store on the loop declined (its rate-limit hit
    counted there, its token cleaned and checked), so it goes straight to the locked path
    with what its check found."""
    operation = named(content.get("type"))
    if operation.scope is not None and declined is None:
        _limited(ratelimit.hit(operation.scope, f"p{player.pk}"))
    return {"type": "state", **state(operation.run(session_id, player, content, declined))}


def _hint_ask(operation: Operation, session_id: str, player: Player) -> operations.HintAsked:
    assert operation.ask is not None
    assert operation.scope is not None
    _limited(ratelimit.hit(operation.scope, f"p{player.pk}"))
    return operation.ask(session_id, player)


def _hint_state(operation: Operation, asked: operations.HintAsked, found: Any) -> dict[str, Any]:
    assert operation.answer is not None
    return {"type": "state", **state(operation.answer(asked, found))}


# A move answered on the loop whose dead-end verdict it had no time for: the session, its
# seq and a copy of its table for a worker (``games.play.verdicts``).
Unsettled = tuple[Any, int, Any]


async def _move_on_loop(
    session_id: str, player: Player, content: dict[str, Any], within: float | None = None
) -> tuple[dict[str, Any] | None, optimistic.Declined | None, Unsettled | None]:
    """The common socket move without a thread: the optimistic store's check and statement
    (``games.play.optimistic``), the statement through the batched asyncio driver.  (None,
    declined, None): let ``_operate`` in a pool thread answer it (anything unusual), with
    what was found here when this move was tried here already.  The dead-end verdict gets
    a bounded share of the loop; when that is not enough, the third value is what settling
    it needs."""
    if content.get("type") != "move" or not driver.usable():
        return None, None, None
    _limited(ratelimit.hit("moves", f"p{player.pk}", local_only=True))
    token, op = clean_token(content.get("move")), clean_op(content.get("op"))
    hints.cancel(session_id)  # as on every other path: a move makes the running search moot
    pending = optimistic.check(session_id, player, content.get("seq"), token, op)
    if isinstance(pending, optimistic.Declined):
        return None, pending, None
    try:
        row = await driver.batched(optimistic.sql(), pending.params, pending.pk)
    except psycopg.Error as exc:
        raise OperationalError(str(exc)) from exc  # answered "unavailable", nothing stored
    outcome = optimistic.stored(pending, row, keep=False)
    if outcome is None:
        return None, optimistic.Declined(token, op), None
    answer = {"type": "state", **state(outcome, within)}
    unsettled = None
    if outcome.unsettled:
        unsettled = (pending.pk, outcome.session.seq, verdicts.detached(outcome.game))
    # Nothing else ran on this loop since the statement answered, so the table itself,
    # not a copy, is kept for the next move.
    optimistic.kept(pending, outcome)
    return answer, None, unsettled


def _leave(board: tuple[str, Any], channel: str) -> None:
    presence.leave(*board, channel)


class PlayConsumer(consumer_loop(), AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    player: Player | None = None
    board: tuple[str, Any] | None = None
    racing = False  # a ranked daily: its progress is noted for the live race
    seq: int | None = None  # the session's seq in the last state sent
    within: float | None = None  # what a move's dead-end verdict may take of the loop
    settling: asyncio.Task[None] | None = None  # the verdict being settled for that seq
    busy = False  # between a message's arrival and its answer
    leaving = False  # the process is stopping: close once idle (config/drain.py)
    game = ""  # for /metrics
    counted = False  # in /metrics' open play sockets
    hint_refused = -1e9  # when this socket's last hint was refused (the loop's clock)

    channel_prefix = "play"  # presence counts the socket under a name of its own

    def admission(self, receive: Any) -> Callable[[dict[str, Any]], Awaitable[bool]]:
        # Every frame is counted before any work (games/live/frames.py).
        return frames.Gate(self, receive)

    def finished(self) -> None:
        drain.play_sockets.discard(self)

    def leave_now(self) -> None:
        """The process is stopping: the client reconnects to another one.  What it sends
        after this is not applied (``receive_json`` ignores a socket without a player): it
        sends it again on its new socket, with the same operation id."""
        self.player = None
        asyncio.ensure_future(self.close(code=drain.CLOSE_RESTART))

    async def dispatch(self, message: dict[str, Any]) -> None:
        self.busy = True
        await super().dispatch(message)
        self.busy = False
        if self.leaving and self.player is not None:
            self.leave_now()

    async def connect(self) -> None:
        self.session_id = self.scope["url_route"]["kwargs"]["session_id"]
        await self.accept()
        try:
            player, state, board = await in_pool(_open)(
                self.scope.get("session"), self.session_id, self.channel_name
            )
        except SessionNotFound as exc:
            await self.send_json({"type": "error", "error": "forbidden", "reason": str(exc)})
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.player, self.board = player, board
        self.game, self.counted = str(state.get("game") or ""), True
        metrics.PLAY_SOCKETS.inc()
        drain.play_sockets.add(self)
        if drain.draining():  # opened as the process began to stop: elsewhere, now
            self.leave_now()
            return
        self.racing = board is not None and bool(state.get("ranked"))
        if board is not None and self.racing:
            race.note(board, self.session_id, player.pk, state)
        # The greeting has a type of its own, so a client never takes it for the answer to
        # its first operation.  ?protocol=1 keeps the old greeting (a "state") for clients
        # written before it, for this release only (docs/api.md, "Play").
        old = b"protocol=1" in self.scope.get("query_string", b"").split(b"&")
        # A client of the old protocol knows no verdict message: its answers wait for theirs.
        self.within = None if old else verdicts.loop_seconds()
        self.seq = state.get("seq")
        # Nothing reads the handshake's headers, cookies or session again: an idle socket
        # keeps only what it plays with (config/patches/channels.py, PlaySockets).
        for key in ("session", "cookies", "headers"):
            self.scope.pop(key, None)
        await self.send_json(
            {"type": "state", **state} if old else {"type": "hello", "protocol": PROTOCOL, **state}
        )

    async def disconnect(self, code: int) -> None:
        memory.socket_closed()  # a burst of closes gives its memory back (live/memory.py)
        if self.counted:
            metrics.PLAY_SOCKETS.dec()
            self.counted = False
        if self.settling is not None:
            self.settling.cancel()
        if self.racing and self.board is not None:
            race.leave(self.board, self.session_id)
        if self.board is not None:
            await in_pool(_leave)(self.board, self.channel_name)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        # orjson: the state sent after every move is the largest thing this server encodes,
        # and the standard library took a tenth of a move's time over it.
        return orjson.dumps(content).decode()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.send_json(
                {
                    "type": "error",
                    "error": "bad_json",
                    "reason": "send JSON in text frames, not binary ones",
                }
            )
            return
        try:
            content = load_json(text_data)  # the HTTP API's checks (games/api/parsers.py)
        except (BadJSON, TooLarge) as exc:
            await self.send_json({"type": "error", "error": "bad_json", "reason": exc.reason})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.player is None:
            return
        if not isinstance(content, dict):
            await self.send_json(
                {
                    "type": "error",
                    "error": "bad_request",
                    "reason": "send a JSON object with a type",
                }
            )
            return
        unsettled, declined = None, None
        answer: dict[str, Any] | None
        try:
            operation = named(content.get("type"))
            if operation.ask is not None:  # a hint: its search awaited on this loop
                answer = await self._hint(operation)
            else:
                answer, declined, unsettled = await _move_on_loop(
                    self.session_id, self.player, content, self.within
                )
            if answer is None:
                answer = await in_pool(_operate)(self.session_id, self.player, content, declined)
        except SessionNotFound as exc:  # not this player's any more: the socket closes
            await self.send_json({"type": "error", "error": "forbidden", "reason": str(exc)})
            await self.close(code=CLOSE_FORBIDDEN)
            return
        except (OperationalError, InterfaceError) as exc:
            # The database is restarting (or refused the statement): nothing was stored, the
            # client may send it again.  The line carries the socket's request id.
            log.error(
                "the database failed a socket %s, answered unavailable: %s",
                _answers(content)["type"],
                exc,
            )
            answer = {
                "type": "error",
                "error": "unavailable",
                "reason": "the database is unavailable; try again shortly",
            }
        except Exception as exc:
            known = answer_for(exc)  # the same table as the HTTP answers (games/errors.py)
            if known is None:
                raise
            answer = {"type": "error", **known[1]}
        if content.get("type") == "move":
            outcome = (
                str(answer.get("error"))
                if answer.get("type") != "state"
                else ("repeated" if answer.get("repeated") else "stored")
            )
            metrics.SOCKET_MOVES.labels(self.game, outcome).inc()
        answer["answers"] = _answers(content)
        op = content.get("op")
        if answer.get("type") == "error" and isinstance(op, str) and len(op) <= 40:
            answer["op"] = op  # the answer names the operation it answers
        if answer.get("type") == "state" and answer.get("seq") != self.seq:
            self.seq = answer.get("seq")
            if self.settling is not None:  # a verdict on a position the player has left
                self.settling.cancel()
                self.settling = None
        await self.send_json(answer)
        if self.racing and self.board is not None and answer.get("type") == "state":
            race.note(self.board, self.session_id, self.player.pk, answer)
        if unsettled is not None and unsettled[1] == self.seq:
            self.settling = asyncio.create_task(self._settle(*unsettled))

    async def _hint(self, operation: Operation) -> dict[str, Any]:
        """A hint: asked and answered in pool threads, its search awaited here on the loop,
        so no thread waits for the solver.  A refusal right after another one waits before
        it is answered (hints.refusal_pause): a loop of refused hints asks slowly."""
        assert self.player is not None
        try:
            asked = await in_pool(_hint_ask)(operation, self.session_id, self.player)
            found = asked.found or await hint_pool.wait_async(asked.job)
        except HintUnavailable as exc:
            now = asyncio.get_running_loop().time()
            if now - self.hint_refused < exc.wait:
                await asyncio.sleep(hints.refusal_pause(exc))
            self.hint_refused = now
            raise
        return await in_pool(_hint_state)(operation, asked, found)

    async def _settle(self, pk: Any, seq: int, game: Any) -> None:
        """The verdict the move's answer had no time for, settled in a worker; a dead end is
        told to the player while the session is still at that seq (docs/api.md, "verdict")."""
        await asyncio.sleep(verdicts.settle_after())  # cancelled if the player moves on
        dead, kept = await verdicts.settle(game, self.board)  # (game, date) of a daily
        tables.remember(pk, seq, kept)
        if dead and self.seq == seq:
            await self.send_json({"type": "verdict", "seq": seq, "no_legal_move": True})
