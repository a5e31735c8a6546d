"""One table from an operation's name to what runs it, read by every transport: the play
socket's message types (``games.live.consumer``), the HTTP views (``games.api.views``) and
the page's HTTP fallback, whose paths are the ``path`` of each entry (docs/api.md).

An operation takes the message's fields as the socket and the JSON bodies name them
(``seq``, ``move``, ``op``); each operation cleans and checks what it reads.  ``scope`` is
the rate limit it counts against (games/fairplay/ratelimit.py), the same over HTTP and the socket.
A hint runs in two halves where the waiting is done elsewhere (the socket awaits the
search on its loop): ``ask`` then ``answer``; ``run`` is both in one thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games.errors import BadRequest
from games.models import Player
from games.play import operations
from games.play.optimistic import Declined
from games.play.outcome import Outcome

Fields = Mapping[str, Any]


@dataclass(frozen=True)
class Operation:
    name: str
    run: Callable[[UUID | str, Player, Fields, Declined | None], Outcome]
    path: str | None = None  # under /api/sessions/<id>/ (None: not an HTTP operation)
    scope: str | None = "moves"  # the rate limit it counts against
    ask: Callable[[UUID | str, Player], operations.HintAsked] | None = None
    answer: Callable[[operations.HintAsked, Any], Outcome] | None = None


def _move(
    session_id: UUID | str, player: Player, data: Fields, declined: Declined | None
) -> Outcome:
    return operations.play_move(
        session_id, player, data.get("seq"), data.get("move"), data.get("op"), declined
    )


def _undo(session_id: UUID | str, player: Player, data: Fields, _: Declined | None) -> Outcome:
    return operations.undo(session_id, player, data.get("seq"), data.get("op"))


def _finish(session_id: UUID | str, player: Player, data: Fields, _: Declined | None) -> Outcome:
    return operations.finish(session_id, player, data.get("seq"), data.get("op"))


def _resign(session_id: UUID | str, player: Player, data: Fields, _: Declined | None) -> Outcome:
    return operations.resign(session_id, player, data.get("seq"), data.get("op"))


def _hint(session_id: UUID | str, player: Player, _data: Fields, _: Declined | None) -> Outcome:
    return operations.hint(session_id, player)


def _state(session_id: UUID | str, player: Player, _data: Fields, _: Declined | None) -> Outcome:
    return operations.get_session(session_id, player)


OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation("move", _move, "moves/"),
        Operation("undo", _undo, "undo/"),
        Operation("finish", _finish, "finish/"),
        Operation("resign", _resign, "resign/"),
        Operation("hint", _hint, "hint/", ask=operations.hint_ask, answer=operations.hint_answer),
        # The socket's "send me the state" (a resume after reconnecting); HTTP reads it by GET.
        Operation("resume", _state, scope=None),
        Operation("state", _state, scope=None),
    )
}


def named(name: object) -> Operation:
    """The operation a message names; a name it does not know is a bad request."""
    found = OPERATIONS.get(name) if isinstance(name, str) else None
    if found is None:
        raise BadRequest("type must be move, undo, hint, finish, resign or resume")
    return found


def run(
    name: str,
    session_id: UUID | str,
    player: Player,
    data: Fields,
    declined: Declined | None = None,
) -> Outcome:
    return OPERATIONS[name].run(session_id, player, data, declined)
