"""Every frame a client sends over a socket is counted, whatever its type.

A message costs the server work before anything else can refuse it: the JSON gate, and for
most types a trip to the database (a ``resume`` reads the session).  The moves limit
(games/ratelimit.py) counts operations per player across processes; this counts frames per
socket in this process, so that a client sending thousands of frames a second -- of any
type, valid or not -- is answered ``rate_limited`` at once, without the work, and closed
(code 4429) once it keeps on, while what it already sent is dropped unread rather than
worked through after it has gone.  A token bucket: ``SOCKET_FRAMES_PER_SECOND`` on average,
``SOCKET_FRAME_BURST`` at once.
"""

from __future__ import annotations

import time

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


def refusal(budget: FrameBudget) -> dict[str, object]:
    return {"type": "error", "error": "rate_limited",
            "reason": "too many messages on this socket: wait for the answers before sending "
                      "more", "retry_after": max(1, round(budget.wait() + 0.5))}
