"""What can go wrong with a request, and the one table that turns it into an answer.

Every layer raises these; the two transports (``games.api.views``, ``games.live.consumer``)
answer them through ``answer_for``, so a refusal reads the same over HTTP and the socket.
"""

from __future__ import annotations

from typing import Any

from games.engine.reasons import code_of


class SessionNotFound(LookupError):
    """No such session, or not this player's: the two are answered alike."""


class StaleSeq(Exception):
    def __init__(self, current: int) -> None:
        super().__init__(f"the session is at seq {current}")
        self.current = current


class Refused(Exception):
    """A move or action the rules refuse; ``reason`` is the engine's one line, ``code`` and
    ``params`` the same refusal for clients that word it themselves (engine/reasons.py)."""

    def __init__(self, reason: str, seq: int) -> None:
        super().__init__(reason)
        self.code, self.params = code_of(reason)
        self.reason, self.seq = str(reason), seq


class BadRequest(ValueError):
    """A malformed request (wrong type, missing field)."""


class RankedAttemptOpen(Exception):
    """The player's ranked attempt at this daily is still being played: no second look at
    the deal (practice, a replay) until it is finished or resigned."""

    def __init__(self, session_id: object) -> None:
        super().__init__(
            "your ranked attempt at this daily is still open: finish or resign "
            "it before playing the deal again"
        )
        self.session_id = str(session_id)


class DayClosed(Exception):
    """A ranked attempt whose day is over: the daily is a day, so an attempt still open at
    midnight ends where it stands (it ranks as unfinished, by cards up) and nothing more can
    be done on it, by any route (docs/rules.md, "The daily")."""

    def __init__(self, day: object, seq: int) -> None:
        super().__init__(
            f"the daily of {day} is closed: this ranked attempt ended at "
            "midnight where it stood; today's deal is on the home page"
        )
        self.seq = seq


class PlayerMerged(Exception):
    """This browser's guest joined an account meanwhile (games/accounts/merge.py)."""

    def __init__(self) -> None:
        super().__init__(
            "this guest has just joined an account: reload the page to go on as that account"
        )


class RecordBroken(Exception):
    """A stored game whose moves no longer replay on its deal (a deal row changed under it,
    which the seal on committed deals prevents: games/models/ ``Deal``).  Said, never a
    500; the operators are told through the log."""

    def __init__(self) -> None:
        super().__init__(
            "this game's stored moves do not replay on its deal, so it cannot "
            "be shown; the operators have been told"
        )


class DealError(ValueError):
    """A deal request that cannot be served; ``str`` is the reason."""


class PlayerError(ValueError):
    """A refused sign-up, sign-in or rename; ``str`` is the reason shown to the player."""


class TryLater(Exception):
    """A refusal that passes with time (too many moves, new guests from one address, wrong
    passwords): ``str`` is the reason, ``wait`` the seconds until it passes."""

    def __init__(self, reason: str, wait: float) -> None:
        super().__init__(reason)
        self.wait = max(1, int(wait))


class HintUnavailable(Exception):
    """A hint that cannot be searched now (games/play/hint_pool.py): ``code`` says why
    (``hint_budget``, ``hint_pending``: 429; ``hints_busy``, ``hints_off``: 503;
    ``hint_cancelled``: 409), ``wait`` the seconds after which asking again may work."""

    STATUS = {
        "hint_budget": 429,
        "hint_pending": 429,
        "hints_busy": 503,
        "hints_off": 503,
        "hint_cancelled": 409,
    }

    def __init__(self, code: str, reason: str, wait: float) -> None:
        super().__init__(reason)
        self.code, self.wait = code, max(1, int(wait))


def answer_for(exc: Exception) -> tuple[int, dict[str, Any]] | None:
    """(HTTP status, JSON body) for a domain error; None for anything else.  The socket
    sends the same body as ``{"type": "error", ...}``."""
    if isinstance(exc, StaleSeq):
        return 409, {"error": "stale_seq", "reason": str(exc), "seq": exc.current}
    if isinstance(exc, Refused):
        return 422, {
            "error": "illegal_move",
            "reason": exc.reason,
            "seq": exc.seq,
            "code": exc.code,
            "params": exc.params,
        }
    if isinstance(exc, RankedAttemptOpen):
        return 409, {"error": "ranked_attempt_open", "reason": str(exc), "session": exc.session_id}
    if isinstance(exc, DayClosed):
        return 409, {"error": "day_closed", "reason": str(exc), "seq": exc.seq}
    if isinstance(exc, PlayerMerged):
        return 409, {"error": "player_merged", "reason": str(exc)}
    if isinstance(exc, SessionNotFound):
        return 404, {"error": "not_found", "reason": str(exc)}
    if isinstance(exc, RecordBroken):
        return 409, {"error": "record_broken", "reason": str(exc)}
    if isinstance(exc, (BadRequest, DealError)):
        return 400, {"error": "bad_request", "reason": str(exc)}
    if isinstance(exc, PlayerError):
        return 400, {"error": "refused", "reason": str(exc)}
    if isinstance(exc, HintUnavailable):
        return exc.STATUS[exc.code], {
            "error": exc.code,
            "reason": str(exc),
            "retry_after": exc.wait,
        }
    if isinstance(exc, TryLater):
        return 429, {"error": "rate_limited", "reason": str(exc), "retry_after": exc.wait}
    return None
