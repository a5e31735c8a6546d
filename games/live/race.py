"""The progress of the players on a ranked daily, for the live race (docs/api.md, "race").

Only progress is kept: the player, cards up, moves, when the clock started, the finished
time.  Never a card or a position: the race must not help anyone play.

The move's path pays a dict assignment and nothing else: a play socket notes its progress
after each answer in this process (``note``), and one task per event loop writes what
changed to a Redis hash per board about once a second, in one pipeline from a thread, so
the cost is one write a second per process whatever the number of players.  Every entry is
written again every ``HEARTBEAT`` seconds and readers drop the ones older than ``STALE``, so
the players of a process that died fade from the race.  Without Redis the hash is a dict of
this process.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import orjson
import redis
from django.conf import settings

from config import redis_client

FLUSH_SECONDS = 1.0
HEARTBEAT = 5.0  # seconds between full rewrites of a process's players (Redis restarted)
STALE = 60.0  # an entry not rewritten for this long belongs to a socket that is gone

Board = tuple[str, Any]  # (game, date), as the play socket holds it

_live: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)  # key -> session -> entry
_changed: dict[str, set[str]] = defaultdict(set)  # sessions to write at the next flush
_gone: dict[str, set[str]] = defaultdict(set)  # sessions to delete at the next flush
_local: dict[str, dict[str, bytes]] = defaultdict(dict)  # the hash, without Redis
_flusher: asyncio.Task[None] | None = None


def _client() -> redis.Redis:
    return redis_client.client()


def key(game: str, date: dt.date) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:race:{game}:{date.isoformat()}"


def _now_ms() -> int:
    return int(time.time() * 1000)


def note(board: Board, session_id: str, player_id: int, state: dict[str, Any]) -> None:
    """A play socket's latest state on a ranked daily; on the event loop, no I/O."""
    if state.get("status") == "resigned":
        leave(board, session_id)  # no longer playing: out of the race
        return
    k = key(*board)
    finished = bool(state.get("won"))
    clock = state.get("time_ms") if finished else None
    if clock is None:
        clock = state.get("clock_ms") or 0
    _live[k][session_id] = {
        "p": player_id,
        "up": int(state.get("cards_up") or 0),
        "m": int(state.get("moves") or 0),
        # when the ranked clock started, on this server's clock: readers count from it
        "t0": _now_ms() - int(clock),
        "t": int(clock) if finished else None,
    }
    _changed[k].add(session_id)
    _gone[k].discard(session_id)
    _wake()


def leave(board: Board, session_id: str) -> None:
    """The socket closed (or the game was resigned): the player leaves the race."""
    k = key(*board)
    _live[k].pop(session_id, None)
    _changed[k].discard(session_id)
    _gone[k].add(session_id)
    _wake()


def _wake() -> None:
    """One flushing task per event loop, started by the first note after it stopped."""
    global _flusher
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a caller off any loop (a script): write now
        _write(*_take(full=False))
        return
    if _flusher is None or _flusher.done() or _flusher.get_loop() is not loop:
        _flusher = loop.create_task(_flush_forever())


def _take(full: bool) -> tuple[dict[str, dict[str, bytes]], dict[str, list[str]]]:
    """What the next write carries, taken on the loop so no note is lost or torn."""
    now = int(time.time())
    writes: dict[str, dict[str, bytes]] = {}
    for k, sessions in _live.items():
        chosen: Iterable[str] = sessions.keys() if full else _changed.get(k, set())
        rows = {s: orjson.dumps({**sessions[s], "at": now}) for s in chosen if s in sessions}
        if rows:
            writes[k] = rows
    deletes = {k: sorted(v) for k, v in _gone.items() if v}
    _changed.clear()
    _gone.clear()
    for k in [k for k, v in _live.items() if not v]:
        del _live[k]
    return writes, deletes


def _write(writes: dict[str, dict[str, bytes]], deletes: dict[str, list[str]]) -> None:
    if not writes and not deletes:
        return
    if not settings.REDIS_URL:
        for k, rows in writes.items():
            _local[k].update(rows)
        for k, gone in deletes.items():
            for s in gone:
                _local[k].pop(s, None)
        return
    pipe = _client().pipeline(transaction=False)
    for k, gone in deletes.items():
        pipe.hdel(k, *gone)
    for k, rows in writes.items():
        pipe.hset(k, mapping=rows)
        pipe.expire(k, 2 * 24 * 3600)  # the day's race fades with the day
    pipe.execute()


async def _flush_forever() -> None:
    loop = asyncio.get_running_loop()
    beat = time.monotonic()
    while True:
        await asyncio.sleep(FLUSH_SECONDS)
        full = time.monotonic() - beat >= HEARTBEAT
        if full:
            beat = time.monotonic()
        batch = _take(full)
        try:
            # In a thread: a pipeline of a few hundred entries must not hold up the moves.
            await loop.run_in_executor(None, _write, *batch)
        except redis.RedisError:
            pass  # Redis is restarting: the next heartbeat writes every entry again
        if not _live and not _changed and not _gone:
            return  # nobody racing in this process: the next note starts it again


def racers(game: str, date: dt.date) -> dict[str, dict[str, Any]]:
    """Everyone on this board's race now, by session id: ``player`` (id), ``cards_up``,
    ``moves``, ``elapsed_ms``, ``finished``.  Entries gone stale are deleted."""
    k = key(game, date)
    if settings.REDIS_URL:
        r = _client()
        raw = {s.decode(): v for s, v in r.hgetall(k).items()}  # type: ignore[union-attr]
    else:
        r, raw = None, dict(_local[k])
    now, now_ms = time.time(), _now_ms()
    out: dict[str, dict[str, Any]] = {}
    stale = []
    for session_id, value in raw.items():
        e = orjson.loads(value)
        if now - e.get("at", 0) > STALE:
            stale.append(session_id)
            continue
        finished = e.get("t") is not None
        out[session_id] = {
            "player": e["p"],
            "cards_up": e["up"],
            "moves": e["m"],
            "finished": finished,
            "elapsed_ms": e["t"] if finished else max(0, now_ms - e["t0"]),
        }
    if stale:
        if r is not None:
            r.hdel(k, *stale)
        else:
            for s in stale:
                _local[k].pop(s, None)
    return out
