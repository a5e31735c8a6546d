"""Every frame a client sends over a socket is counted, whatever its type.

A message costs the server work before anything else can refuse it: the JSON gate, and for
most types a trip to the database (a ``resume`` reads the session).  The moves limit
(games/fairplay/ratelimit.py) counts operations per player across processes; this guards each
socket in this process, two ways:

- a client that does not wait for its answers (a flood) leaves frames waiting in the
  socket's queue: past ``SOCKET_BACKLOG`` of them the socket is closed (code 4429) and what
  it sent is dropped unread, rather than worked through after it has gone;
- a token bucket, ``SOCKET_FRAMES_PER_SECOND`` on average and ``SOCKET_FRAME_BURST`` at
  once, for a client that waits but sends faster than any table is played: past it a frame
  is answered ``rate_limited`` without the work, and a client that keeps on is closed too.

A script playing as fast as its answers come stays within both (it waits); so does a
person.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from django.conf import settings

CLOSE_FLOOD = 4429  # docs/api.md, "Websockets"


class FrameBudget:
    """One socket's token bucket; ``over`` counts the frames refused in a row."""

    __slots__ = ("tokens", "at", "over")

    def __init__(self) -> None:
        self.tokens = float(settings.SOCKET_FRAME_BURST)
        self.at = time.monotonic()
        self.over = 0

    def take(self) -> bool:
        now = time.monotonic()
        rate, burst = settings.SOCKET_FRAMES_PER_SECOND, settings.SOCKET_FRAME_BURST
        self.tokens = min(float(burst), self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens >= 1 or rate <= 0:
            self.tokens -= 1
            self.over = 0
            return True
        self.over += 1
        return False

    def flooding(self) -> bool:
        """Refused a whole burst's worth in a row: the client is not waiting for answers."""
        return self.over > settings.SOCKET_FRAME_BURST

    def wait(self) -> float:
        """Seconds until the next frame would be taken."""
        rate = settings.SOCKET_FRAMES_PER_SECOND
        return max(0.0, (1 - self.tokens) / rate) if rate > 0 else 0.0


def backlog(receive: Any) -> int:
    """Frames waiting in the socket's queue: Daphne (and Channels' test communicator) hand
    the application its queue's ``get``; another server may not, and then the bucket alone
    guards the socket."""
    queue = getattr(receive, "__self__", None)
    return queue.qsize() if isinstance(queue, asyncio.Queue) else 0


class Gate:
    """One socket's admission of the messages it receives (``PlainLoop.admission``,
    config/patches/channels.py): a frame past the backlog or the budget is not dispatched,
    and after a flood the rest of what the client sent is dropped unread."""

    __slots__ = ("consumer", "receive", "budget", "flooded")

    def __init__(self, consumer: Any, receive: Any) -> None:
        self.consumer, self.receive = consumer, receive
        self.budget, self.flooded = FrameBudget(), False

    async def __call__(self, message: dict[str, Any]) -> bool:
        if message["type"] != "websocket.receive":
            return True
        if self.flooded:
            return False
        consumer, budget = self.consumer, self.budget
        if backlog(self.receive) > settings.SOCKET_BACKLOG:
            self.flooded, consumer.player = True, None
            await consumer.close(code=CLOSE_FLOOD)
            return False
        if not budget.take():
            if budget.flooding():
                self.flooded, consumer.player = True, None
                await consumer.close(code=CLOSE_FLOOD)
            elif consumer.player is not None:
                await consumer.send_json(refusal(budget))
            return False
        return True


def refusal(budget: FrameBudget) -> dict[str, object]:
    return {
        "type": "error",
        "error": "rate_limited",
        "reason": "too many messages on this socket: wait for the answers before sending more",
        "retry_after": max(1, round(budget.wait() + 0.5)),
    }
