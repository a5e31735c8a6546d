"""Thin HTTP views over games.play.operations: the daily, a session, its operations (one view
from the operations' table, games/play/dispatch.py), its share, replay and analysis; the
player's own views are games/api/account.py (docs/api.md)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.accounts import devices, players
from games.api import serializers as s
from games.api.base import BROKEN, ERR, PlayerAPIView, player_of, validated
from games.daily import analysis, medals, replays, share
from games.daily import deals as daily
from games.engine import DAILY_GAMES, GAMES
from games.errors import HintUnavailable, SessionNotFound
from games.live import presence
from games.models import GameSession
from games.play import dispatch, hints, locked, operations
from games.play.answer import state


class DailyView(PlayerAPIView):
    makes_guest = False

    @extend_schema(responses={200: s.DailyOut}, summary="Today's daily deals")
    def get(self, request: Request) -> Response:
        day = daily.today()
        out = []
        for game in DAILY_GAMES:
            deal = daily.todays_deal(game)
            item: dict[str, Any] = {
                "game": game,
                "date": day.isoformat(),
                "deal": deal.public_id,
                "certified": deal.certified,
                "playing": presence.playing(game, day),
                "commitment": deal.commitment,
                "par": deal.par,
                "difficulty": medals.difficulty(game, deal.par, deal.effort),
            }
            if GAMES[game].public_deal_numbers:
                item["deal_number"] = deal.seed
            out.append(item)
        opens = daily.next_opening().astimezone(dt.UTC)
        return Response(
            {
                "date": day.isoformat(),
                "deals": out,
                "next_at": opens.isoformat().replace("+00:00", "Z"),
            }
        )


class SessionsView(PlayerAPIView):
    rate_limit_scope = "sessions"  # games/fairplay/ratelimit.py

    @extend_schema(
        request=s.StartSessionIn,
        responses={
            201: s.SessionOut,
            400: ERR,
            409: OpenApiResponse(
                s.RankedOpenOut,
                description="your ranked attempt at this daily "
                "is still open (finish or resign it first)",
            ),
        },
        summary="Start a session on a deal",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.StartSessionIn, request.data)
        # A first visit's start makes the guest too (docs/frontend.md, "The first card").
        new_player = players.current_player(request._request, create=False) is None
        outcome = operations.start_session(
            player_of(request),
            data["game"],
            data["deal"],
            devices.client_keys(request._request),
            new_player,
        )
        return Response(state(outcome), status=status.HTTP_201_CREATED)


class SessionView(PlayerAPIView):
    @extend_schema(
        responses={200: s.SessionOut, 404: ERR}, summary="The current state of one of your sessions"
    )
    def get(self, request: Request, session_id: str) -> Response:
        return Response(state(operations.get_session(session_id, player_of(request))))


MOVE_ANSWERS = {
    200: s.SessionOut,
    400: ERR,
    404: ERR,
    409: OpenApiResponse(s.ConflictOut, description="stale or repeated seq"),
    422: OpenApiResponse(s.IllegalOut, description="the rules refuse it; reason says why"),
}


class OperationView(PlayerAPIView):
    # One of the session's operations, run by the operations' table (games/play/dispatch.py)
    # as the socket runs it: ``operation`` names its entry, ``body`` the serializer its JSON
    # body is read by (None: the body is not read).
    rate_limit_scope = "moves"  # games/fairplay/ratelimit.py
    operation = ""
    path = ""  # the operation's path under the session (urls.py)
    body: type[serializers.Serializer] | None = None

    def operate(self, request: Request, session_id: str) -> Response:
        data = validated(self.body, request.data) if self.body is not None else {}
        try:
            outcome = dispatch.run(self.operation, session_id, player_of(request), data)
        except HintUnavailable as exc:
            time.sleep(hints.refusal_pause(exc))  # a loop of refused hints asks slowly
            raise
        return Response(state(outcome))


def _operation_view(
    name: str, body: type[serializers.Serializer] | None, responses: dict[int, Any], summary: str
) -> type[OperationView]:
    """The view of one operation of the table: its path is the entry's (urls.py), its
    schema the serializer and answers given here."""

    @extend_schema(request=body, responses=responses, summary=summary)
    def post(self: OperationView, request: Request, session_id: str) -> Response:
        return self.operate(request, session_id)

    operation = dispatch.OPERATIONS[name]
    assert operation.path is not None  # an operation HTTP serves
    view = f"{name.capitalize()}View"
    # The rate limit is the table's, the same one the socket counts the operation against.
    return type(
        view,
        (OperationView,),
        {
            "operation": name,
            "path": operation.path,
            "rate_limit_scope": operation.scope,
            "body": body,
            "post": post,
            "__module__": __name__,
            "__qualname__": view,
        },
    )


MoveView = _operation_view("move", s.MoveIn, MOVE_ANSWERS, "Play one move")
UndoView = _operation_view("undo", s.OptionalSeqIn, MOVE_ANSWERS, "Take back the last move")
FinishView = _operation_view("finish", s.OptionalSeqIn, MOVE_ANSWERS, "Send the remaining cards up")
ResignView = _operation_view(
    "resign",
    s.OptionalSeqIn,
    MOVE_ANSWERS,
    "Resign: end the attempt where it stands (a ranked one ranks as unfinished, by cards up)",
)
HintView = _operation_view(
    "hint",
    None,
    {200: s.HintOut, 404: ERR, 409: ERR, 429: ERR, 503: ERR},
    "One move worth playing now (counted)",
)
OPERATION_VIEWS = (MoveView, UndoView, FinishView, ResignView, HintView)


class ShareView(PlayerAPIView):
    @extend_schema(
        responses={200: s.ShareOut, 404: ERR, 409: BROKEN},
        summary="The session's result as text to share (no card in it)",
    )
    def get(self, request: Request, session_id: str) -> Response:
        session = locked.owned(
            GameSession.objects.select_related("deal"), session_id, player_of(request)
        )
        return Response({"text": share.text(session)})


class ReplayView(PlayerAPIView):
    rate_limit_scope = "records"  # a whole game's tables: limited like the open data
    makes_guest = False

    @extend_schema(
        responses={200: s.ReplayOut, 404: ERR, 409: BROKEN},
        summary="The session step by step, as its player saw it (its player at any time; anyone once a ranked daily's day is closed)",
    )
    def get(self, request: Request, session_id: str) -> Response:
        viewer = players.current_player(request._request, create=False)
        session = (
            GameSession.objects.select_related("deal", "player").filter(pk=session_id).first()
            if _uuid(session_id)
            else None
        )
        if session is None or not replays.watchable(session, viewer):
            # The same answer as for no such session: whether it exists is not said.
            raise SessionNotFound(
                "there is no such session to watch (another player's "
                "ranked game can be watched once its day is closed)"
            )
        return Response(replays.replay(session))


class AnalysisView(PlayerAPIView):
    @extend_schema(
        responses={200: s.AnalysisOut, 400: ERR, 404: ERR},
        summary="Where the game was lost: the turning point, found by the solver in a worker (pending until it is)",
    )
    def get(self, request: Request, session_id: str) -> Response:
        # The player's own games only: each analysis is up to ANALYSIS_SECONDS of a worker,
        # and anyone asking for every session of a closed day would keep the workers from
        # scoring the wins of the day being played.
        session = locked.owned(
            GameSession.objects.select_related("deal", "player"), session_id, player_of(request)
        )
        return Response(analysis.answer(session))


def _uuid(text: str) -> bool:
    try:
        UUID(text)
    except ValueError:
        return False
    return True
