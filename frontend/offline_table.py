"""The table of a practice deal played offline, on the engine itself running in the browser
(Pyodide).  It answers in the shape of the server's answers (docs/api.md, games/play/answer.py)
so that the table's modules draw it unchanged; it holds no rule of its own: every move goes
through ``Game.play``, every state through ``games.engine.seen.state``.

This file is shipped beside the engine in the zip the browser unpacks (frontend/offline.py),
and imports nothing but the engine and the standard library.  Seeds cross to JavaScript as
decimal strings: a version 2 seed is far past a JavaScript number's exact range.

>>> t = OfflineTable("freecell", "617", "c1")
>>> t.state()["deal_number"], t.state()["seq"]
(617, 0)
>>> t.play("8a")["seq"], t.tokens
(1, ['8a'])
>>> t.undo()["moves"], t.tokens
(0, ['8a', 'u'])
"""

from __future__ import annotations

import json
from typing import Any

from games.engine import GAMES, IllegalMove, endgame, new_game, seen
from games.engine.undo import is_undo, stored

MAX_MOVES = 5000  # as many as a stored session holds (games/play/outcome.py)


class OfflineTable:
    def __init__(
        self, game: str, seed: str = "", client: str = "", tokens: list[str] | None = None
    ) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}")
        self.key, self.client = game, client
        self.seed = int(seed) if seed else GAMES[game].random_seed()
        self.g = new_game(game, self.seed)
        self.tokens: list[str] = []
        self.undos = 0
        for token in tokens or []:  # a reload: the same table again, every move checked again
            self._apply(token)

    def _apply(self, token: str) -> None:
        if len(self.tokens) >= MAX_MOVES:
            raise IllegalMove(f"a session holds at most {MAX_MOVES} moves")
        if is_undo(token):
            self.g.undo()
            self.undos += 1
        else:
            self.g.play(token)
        self.tokens.append(stored(token))  # as a session stored on the server holds it

    def state(self) -> dict[str, Any]:
        g = self.g
        st = seen.state(g)
        out = {
            "id": f"offline:{self.client}",
            "game": self.key,
            "deal": "offline",
            "date": None,
            "seq": len(self.tokens),
            "status": "won" if g.won else "playing",
            "ranked": False,
            "offline": {"seed": str(self.seed), "client": self.client, "moves": self.tokens},
            "view": st["view"],
            "legal_moves": st["legal_moves"],
            "score": st["score"],
            "cards_up": st["cards_up"],
            "moves": st["moves"],
            "won": st["won"],
            "can_finish": st["can_finish"],
            "no_legal_move": bool(st["no_legal_move"]),
            "can_undo": st["can_undo"] and not g.won,
            "undo_count": self.undos,
            "hint_count": 0,
            "time_ms": None,
            "par": None,
            "difficulty": None,
            "medal": None,
        }
        if g.public_deal_numbers:
            out["deal_number"] = self.seed
        return out

    def play(self, token: str) -> dict[str, Any]:
        if self.g.won:
            raise IllegalMove("the game is over")
        self._apply(token)
        return self.state()

    def undo(self) -> dict[str, Any]:
        if not self.g.history or self.g.won:
            raise IllegalMove("there is no move to take back")
        self._apply("u")
        return self.state()

    def finish(self) -> dict[str, Any]:
        """Every remaining card up, each one a move of its own (as the server's finish)."""
        if not endgame.can_finish(self.g):
            raise IllegalMove("the game cannot be finished automatically yet")
        for move in endgame.finish_moves(self.g):
            self._apply(self.g.notation(move))
        return self.state()


def call(table: OfflineTable, kind: str, token: str = "") -> str:
    """One operation as JSON: the state, or ``{"refused": reason}`` (the engine's sentence)."""
    try:
        if kind == "move":
            out = table.play(token)
        elif kind == "undo":
            out = table.undo()
        elif kind == "finish":
            out = table.finish()
        else:
            out = table.state()
    except IllegalMove as exc:
        reason = exc.args[0]
        return json.dumps(
            {
                "refused": str(reason),
                "code": getattr(reason, "code", None),
                "params": getattr(reason, "params", None),
            }
        )
    return json.dumps(out)
