"""What the hint pool keeps of each search and each player (games/play/hint_pool.py)."""

from __future__ import annotations

import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from games.play.hint_worker import WorkerPool

# What became of each hint request, per player.  Searched: "started", then one of
# "searched" (verdict or budget reached), "cancelled" (a move stopped it) or "failed" (the
# worker died).  Not searched: "joined" (answered by the search of an earlier request),
# "pending", "over_budget", "queue_full", "dropped" (made room for a player who used less),
# "expired" (waited longer than its patience).
COUNTERS = (
    "started",
    "searched",
    "cancelled",
    "failed",
    "joined",
    "pending",
    "over_budget",
    "queue_full",
    "dropped",
    "expired",
)


@dataclass(eq=False)
class Job:
    """One hint search and every request waiting for its answer."""

    session: str
    player: str
    asked: float = field(default_factory=time.monotonic)
    game: Any = None  # set by ``start``: the job may run from then on
    lines: list[list[str]] = field(default_factory=list)
    pool: WorkerPool | None = None
    slot: int = -1
    running: bool = False
    over: bool = False
    cancelled: bool = False
    answer: Future[Any] = field(default_factory=Future)  # the Hint, or HintUnavailable


@dataclass(eq=False)
class PlayerHints:
    """One player's hints in this process: the search in flight, this minute's requests
    and what became of each (``COUNTERS``)."""

    job: Job | None = None
    window: int = 0
    asks: int = 0  # hint requests in ``window``, refused or not
    peak: int = 0  # most searches of this player running at once
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))
