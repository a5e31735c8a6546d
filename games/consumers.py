"""Play over a websocket (SPEC 6 and 9): the same service calls as the HTTP views.

The socket belongs to one session of one player (from the browser's session cookie).  On
connect, and whenever asked (``{"type": "resume"}``), it sends the stored state, so a client
that reconnects continues from the last stored move; a repeated ``seq`` is refused like over
HTTP, so a move sent twice is applied once.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import JsonWebsocketConsumer

from games import services
from games.models import Player
from games.players import SESSION_KEY

CLOSE_FORBIDDEN = 4403  # not your session (or no such session)


class PlayConsumer(JsonWebsocketConsumer):
    player: Player | None = None
    board: tuple[str, Any] | None = None

    def connect(self) -> None:
        self.session_id = self.scope["url_route"]["kwargs"]["session_id"]
        self.accept()
        player = self._player()
        try:
            if player is None:
                raise services.SessionNotFound("no player: visit /api/me/ first")
            outcome = services.get_session(self.session_id, player)
        except services.SessionNotFound as exc:
            self.send_json({"type": "error", "error": "forbidden", "reason": str(exc)})
            self.close(code=CLOSE_FORBIDDEN)
            return
        self.player = player
        deal = outcome.session.deal
        if deal.date is not None:
            from leaderboards import live

            self.board = (deal.game, deal.date)
            live.join(deal.game, deal.date, self.channel_name)
        self.send_json({"type": "state", **services.state(outcome)})

    def disconnect(self, code: int) -> None:
        if self.board is not None:
            from leaderboards import live

            live.leave(*self.board, self.channel_name)

    def _player(self) -> Player | None:
        session = self.scope.get("session")
        player_id = session.get(SESSION_KEY) if session is not None else None
        return Player.objects.filter(pk=player_id).first() if player_id else None

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            content = json.loads(text_data or "")
        except ValueError:
            self.send_json({"type": "error", "error": "bad_json", "reason": "send JSON text"})
            return
        self.receive_json(content)

    def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.player is None:
            return
        if not isinstance(content, dict):
            self.send_json({"type": "error", "error": "bad_request",
                            "reason": "send a JSON object with a type"})
            return
        kind, seq = content.get("type"), content.get("seq")
        try:
            if kind == "move":
                outcome = services.play_move(self.session_id, self.player, seq, content.get("move"))
            elif kind == "undo":
                outcome = services.undo(self.session_id, self.player, seq)
            elif kind == "finish":
                outcome = services.finish(self.session_id, self.player, seq)
            elif kind == "hint":
                outcome = services.hint(self.session_id, self.player)
            elif kind in {"resume", "state"}:
                outcome = services.get_session(self.session_id, self.player)
            else:
                raise services.BadRequest(
                    "type must be move, undo, hint, finish or resume"
                )
        except services.StaleSeq as exc:
            self.send_json({"type": "error", "error": "stale_seq", "reason": str(exc),
                            "seq": exc.current})
            return
        except services.Refused as exc:
            self.send_json({"type": "error", "error": "illegal_move", "reason": exc.reason,
                            "seq": exc.seq})
            return
        except services.BadRequest as exc:
            self.send_json({"type": "error", "error": "bad_request", "reason": str(exc)})
            return
        except services.SessionNotFound as exc:
            self.send_json({"type": "error", "error": "forbidden", "reason": str(exc)})
            self.close(code=CLOSE_FORBIDDEN)
            return
        self.send_json({"type": "state", **services.state(outcome)})
