"""A game's compact record (game key, seed, move tokens) and its replay.

An undo token in a move list (``undo.is_undo``) takes the previous move back, so a stored
session -- moves and undos in the order they were made -- replays to the same table.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .catalogue import new_game
from .game import Game, IllegalMove
from .undo import is_undo


class ReplayError(ValueError):
    def __init__(self, index: int, move: str, reason: str) -> None:
        super().__init__(f"move {index} ({move!r}): {reason}")
        self.index, self.move, self.reason = index, move, reason

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "move": self.move, "reason": self.reason}


@dataclass
class Record:
    game: str
    seed: int
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"game": self.game, "seed": self.seed, "moves": self.moves})

    @classmethod
    def from_json(cls, text: str) -> Record:
        d = json.loads(text)
        return cls(str(d["game"]), int(d["seed"]), [str(m) for m in d["moves"]])

    def replay(self) -> Game:
        return replay(self.game, self.seed, self.moves)


def positions(game: str, seed: int, moves: list[str], scoring: str | None = None) -> Iterator[Game]:
    """The table after each of ``moves`` in turn (one table, played on: copy what is kept),
    checking each; raises ReplayError at the first bad one.  ``scoring``: the scheme the
    score is kept by, when not the game's own (catalogue.new_game)."""
    g = new_game(game, seed, scoring)
    for i, token in enumerate(moves):
        try:
            if is_undo(token):
                g.undo()
            else:
                g.play(token)
        except IllegalMove as exc:
            # The engine's reason itself (a str with its code: games/engine/reasons.py).
            raise ReplayError(i, token, exc.args[0]) from None
        yield g


def replay(game: str, seed: int, moves: list[str], scoring: str | None = None) -> Game:
    """Play ``moves`` from the deal, checking each; raises ReplayError at the first bad one."""
    # The last table the moves leave (a deque of one keeps it without a loop variable).
    last = deque(positions(game, seed, moves, scoring), maxlen=1)
    return last[0] if last else new_game(game, seed, scoring)
