"""Solver verdicts on the positions of the day's deals, shared in Redis by every server and
worker process: every player plays the same daily, so the positions its players reach,
and the searches they cost, repeat from player to player.

Three kinds of entry, each keyed by the daily (game key and date: one deal), the kind and
the whole position, hidden cards, stock order and passes included (``positions.packed``):

* ``dead``: a dead-end verdict (docs/rules.md, "Dead ends") settled off the socket's loop
  (``games.play.verdicts``), with what the table may remember of it.  Keyed by
  ``position_key``'s position (columns in sorted order): the verdict depends on nothing else.
* ``solve``: a full-knowledge search's result, ``solved`` with its line or ``unsolvable``,
  from the post-game analysis (``games.daily.analysis``) or from a hint on a table with nothing
  hidden.  Keyed by the table exactly, columns in place: the line's moves name columns.
* ``hint``: a hint's move and source on a table with hidden cards, keyed by the table
  exactly and the moves that led to it (a hint never goes back to a position of its path).  Such a hint is searched
  on samples of what the player could see (solver/sampling.py), so it tells whoever
  gets it from here no more than their own search would.

What a client is told never comes from a ``solve`` entry while a card is hidden: a Klondike
daily's ``solve`` entries are written by its analysis, which waits for the day's close, and
read only by that analysis and by hints on a table with every card seen.  Only proofs are
kept (``solved``, ``unsolvable``, a finished verdict), never a budget's ``unknown``; an entry
lives ``ANALYSIS_CACHE_DAYS`` and a daily holds at most ``ANALYSIS_CACHE_MAX`` of each kind.
Without Redis, or while it is down, every lookup misses and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import threading
from collections import Counter
from typing import Any

import orjson
import redis
from django.conf import settings

from config import redis_client
from games.engine import Game, positions
from games.engine.solver import SOLVED, UNSOLVABLE, Hint, Result
from games.engine.solver.sampling import hidden_cards

log = logging.getLogger(__name__)

Daily = tuple[str, dt.date]  # (game key, date): one daily deal
KINDS = ("dead", "solve", "hint")

# Lookups and hits in this process, per kind (bench/analysis_cache.py reads them; each
# lookup is also counted in Redis per daily, for every process together: ``counts``).
lookups: Counter[str] = Counter()
hits: Counter[str] = Counter()
_stored: dict[tuple[str, str], int] = {}  # entries written per (daily, kind), as last seen
_lock = threading.Lock()


def daily_of(deal: Any) -> Daily | None:
    """The daily a deal is, or None: only the day's deals are shared by many players."""
    return (deal.game, deal.date) if getattr(deal, "date", None) else None


def _client() -> redis.Redis:
    return redis_client.client(timeout=0.5)


def _name(daily: Daily) -> str:
    return f"{daily[0]}:{daily[1].isoformat()}"


def _key(kind: str, daily: Daily, position: bytes) -> bytes:
    return f"{settings.REDIS_KEY_PREFIX}:ac:{kind}:{_name(daily)}:".encode() + position


def _stats_key(daily: Daily) -> str:
    return f"{settings.REDIS_KEY_PREFIX}:ac:stats:{_name(daily)}"


def _get(kind: str, daily: Daily | None, position: bytes) -> Any:
    if daily is None or not settings.REDIS_URL:
        return None
    try:
        pipe = _client().pipeline(transaction=False)
        pipe.get(_key(kind, daily, position))
        pipe.hincrby(_stats_key(daily), f"{kind}:lookups", 1)
        pipe.expire(_stats_key(daily), _ttl())
        raw = pipe.execute()[0]
    except redis.RedisError as exc:
        log.warning("analysis cache not read, Redis unavailable: %s", exc)
        return None
    with _lock:
        lookups[kind] += 1
        if raw is not None:
            hits[kind] += 1
    if raw is None:
        return None
    try:
        _client().hincrby(_stats_key(daily), f"{kind}:hits", 1)
    except redis.RedisError:
        pass
    return orjson.loads(raw)


def _ttl() -> int:
    return int(settings.ANALYSIS_CACHE_DAYS * 86400)


def _put(kind: str, daily: Daily | None, position: bytes, value: Any) -> None:
    if daily is None or not settings.REDIS_URL:
        return
    slot = (_name(daily), kind)
    with _lock:
        if _stored.get(slot, 0) >= settings.ANALYSIS_CACHE_MAX:
            return  # this daily's share is full: later positions are searched as before
    try:
        pipe = _client().pipeline(transaction=False)
        pipe.set(_key(kind, daily, position), orjson.dumps(value), ex=_ttl(), nx=True)
        pipe.hincrby(_stats_key(daily), f"{kind}:stored", 1)
        pipe.expire(_stats_key(daily), _ttl())
        written, count, _ = pipe.execute()
    except redis.RedisError as exc:
        log.warning("analysis cache not written, Redis unavailable: %s", exc)
        return
    with _lock:
        # Counted whether or not this write won the race: a slight overcount only stops
        # the writes a little early.
        _stored[slot] = max(_stored.get(slot, 0), int(count))


def counts(daily: Daily) -> dict[str, int]:
    """Lookups, hits and entries written per kind for a daily, in every process."""
    try:
        raw: dict[bytes, bytes] = _client().hgetall(  # type: ignore[assignment]
            _stats_key(daily)
        )
    except redis.RedisError:
        return {}
    return {k.decode(): int(v) for k, v in raw.items()}


# -- dead ends ------------------------------------------------------------------------------


def dead_end(daily: Daily | None, game: Game) -> tuple[bool, Any] | None:
    """``endgame.settle``'s answer for this position, when some table settled it before."""
    got = _get("dead", daily, positions.packed(game))
    if got is None:
        return None
    kept = got[1]
    if kept is not None:
        kept = (bool(kept[0]), tuple(tuple(m) for m in kept[1]))
    return bool(got[0]), kept


def keep_dead_end(daily: Daily | None, game: Game, verdict: bool, kept: Any) -> None:
    _put("dead", daily, positions.packed(game), [verdict, kept])


# -- full-knowledge searches ------------------------------------------------------------------


def solved(daily: Daily | None, game: Game) -> Result | None:
    """A search's proof for this exact table: ``solved`` with its line, or ``unsolvable``."""
    got = _get("solve", daily, positions.packed(game, in_place=True))
    if got is None:
        return None
    return Result(got[0], list(got[1]))


def keep_solved(daily: Daily | None, game: Game, result: Result) -> None:
    if result.status in (SOLVED, UNSOLVABLE) and not result.cancelled:
        _put(
            "solve",
            daily,
            positions.packed(game, in_place=True),
            [result.status, result.moves if result.status == SOLVED else []],
        )


def caching_solver(daily: Daily | None, deal: tuple[Game, list[str]] | None = None) -> Any:
    """``solver.solve`` through the cache, for the post-game analysis (``turning_point``).
    ``deal``: the deal's table and the line that certified it, the deal's own proof (every
    game's analysis may ask for it, and a search within an analysis' share of the budget
    may not find it again)."""
    from games.engine.solver import solve

    start = positions.packed(deal[0], in_place=True) if deal and deal[1] else None

    def solve_cached(game: Game, budget: Any) -> Result:
        if game.won:
            return solve(game, budget)
        if (
            start is not None
            and deal is not None
            and positions.packed(game, in_place=True) == start
        ):
            return Result(SOLVED, list(deal[1]))
        found = solved(daily, game)
        if found is None:
            found = solve(game, budget)
            keep_solved(daily, game, found)
        return found

    return solve_cached


# -- hints ------------------------------------------------------------------------------------


def _hint_position(game: Game) -> bytes:
    """The table exactly and the path that led to it: a hint never goes back to a position
    of its path, so two players at one table get the same hint only after the same moves."""
    moves = bytes(x for entry in game.history for x in (*entry[0][:2], min(entry[0][2], 255)))
    return positions.packed(game, in_place=True) + hashlib.blake2b(moves, digest_size=12).digest()


def hint(daily: Daily | None, game: Game) -> Hint | None:
    """What the daily's players found before at this table: with cards hidden, the hint
    some player got after the same moves (the answer itself); with nothing hidden, a
    proof of loss, or a winning line found from it (for the engine to follow only if it
    never comes back to this player's path: ``line`` set, ``move`` None); or None."""
    if daily is None:
        return None
    if game.hides_cards and hidden_cards(game):
        got = _get("hint", daily, _hint_position(game))
        return Hint(got[0], got[1]) if got is not None else None
    found = solved(daily, game)
    if found is None:
        return None
    if found.status == UNSOLVABLE:
        return Hint(None, UNSOLVABLE)
    return Hint(None, SOLVED, found.moves) if found.moves else None


def keep_hint(daily: Daily | None, game: Game, found: Hint) -> None:
    if daily is None or found.cancelled:
        return
    if game.hides_cards and hidden_cards(game):
        # Only a search that ran to its end is the hint this table gets: a cut one is not.
        if found.seconds < settings.HINT_BUDGET_SECONDS:
            _put("hint", daily, _hint_position(game), [found.move, found.status])
    elif found.status == SOLVED and found.line:
        keep_solved(daily, game, Result(SOLVED, list(found.line)))
    elif found.status == UNSOLVABLE:
        keep_solved(daily, game, Result(UNSOLVABLE, []))
