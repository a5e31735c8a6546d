"""Thin HTTP views over games.play.operations and games.accounts.players (docs/api.md)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any
from uuid import UUID

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.patches.rest_framework import lean_get
from games.accounts import devices, leaving, players, verification
from games.api import serializers as s
from games.daily import analysis, medals, replays, share
from games.daily import deals as daily
from games.engine import DAILY_GAMES, GAMES
from games.errors import BadRequest, HintUnavailable, SessionNotFound, TryLater, answer_for
from games.fairplay import ratelimit
from games.live import presence
from games.models import GameSession, Player
from games.play import dispatch, hints, locked, operations
from games.play.answer import state

ERR = OpenApiResponse(s.ErrorOut)
BROKEN = OpenApiResponse(s.ErrorOut, description="record_broken: the stored moves do not "
                         "replay on the deal")


def validated(serializer_cls: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    ser = serializer_cls(data=data)
    if not ser.is_valid():
        field, problems = next(iter(ser.errors.items()))
        raise BadRequest(_problem(str(field), problems))
    return dict(ser.validated_data)


def _problem(where: str, problems: Any) -> str:
    """The first problem DRF found, with where it is: a list's item by its index (DRF gives
    those as a mapping, which read as "moves: 0" when joined as it came)."""
    if isinstance(problems, dict):
        index, inner = next(iter(problems.items()))
        return _problem(f"{where}[{index}]", inner)
    if isinstance(problems, list) and problems and isinstance(problems[0], (dict, list)):
        return _problem(where, problems[0])
    return f"{where}: {' '.join(str(p) for p in problems)}"


def player_of(request: Request) -> Player:
    player = players.current_player(request._request)
    assert player is not None
    return player


def player_json(request: Request, player: Player) -> dict[str, Any]:
    return player_body(request._request, player)


def player_body(request: HttpRequest, player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "guest": player.is_guest,
        "username": player.user.get_username() if player.user else None,
        "email": (player.user.email or None) if player.user else None,  # proven only
        "email_pending": verification.pending_address(player.user),
        "anonymous": player.anonymous,
        "hide_from_race": player.hide_from_race,
        "csrf_token": get_token(request),  # also sets the CSRF cookie
    }


class PlayerAPIView(APIView):
    # Domain errors become answers through games.errors.answer_for, as on the socket.  (A
    # comment, not a docstring: the schema would show a docstring on every operation.)
    # A first visit makes a guest, and new guests are limited per address: the schema
    # documents the 429 (config/schema.py).
    makes_guest = True

    def handle_exception(self, exc: Exception) -> Response:
        known = answer_for(exc)  # the same table as the socket's answers (games/errors.py)
        if known is None:
            return super().handle_exception(exc)
        http_status, body = known
        response = Response(body, status=http_status)
        if "retry_after" in body:  # the answer the rate limits give
            response["Retry-After"] = str(body["retry_after"])
        return response


class MeView(PlayerAPIView):
    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        # A plain GET skips DRF's machinery (config/patches/rest_framework.py); the rest
        # comes here.
        return lean_get(super().as_view(**initkwargs), player_body, players.current_player,
                        answer_for)

    @extend_schema(responses={200: s.PlayerOut}, summary="The current player (a guest is made on the first visit); sets session and CSRF cookies")
    def get(self, request: Request) -> Response:
        return Response(player_json(request, player_of(request)))

    @extend_schema(request=s.RenameIn, responses={200: s.PlayerOut, 400: ERR}, summary="Change the display name, whether the open data names the player, or whether the live race shows them")
    def patch(self, request: Request) -> Response:
        data = validated(s.RenameIn, request.data)
        player = player_of(request)
        if "display_name" in data:
            player = players.rename(player, data["display_name"])
        if "anonymous" in data:
            players.set_anonymous(player, data["anonymous"])
        if "hide_from_race" in data:
            players.set_hide_from_race(player, data["hide_from_race"])
        return Response(player_json(request, player))

    @extend_schema(request=s.MeDeleteIn, responses={204: None, 400: ERR}, summary="Delete the account (or this guest) and its games; ranked attempts on the boards stay, nameless, so no rank moves (docs/rules.md, \"Your data\")")
    def delete(self, request: Request) -> Response:
        # It checks a password: limited per address as signing in is.
        wait = ratelimit.hit("auth", f"a{ratelimit.client_address(request.META)}")
        if wait is not None:
            raise TryLater(gettext("too many tries: try again in %(s)s s") % {"s": wait}, wait)
        data = validated(s.MeDeleteIn, request.data if request.data else {})
        leaving.delete(request._request, player_of(request), data.get("password"),
                       data.get("confirm"))
        response = Response(status=status.HTTP_204_NO_CONTENT)
        response.delete_cookie(devices.DEVICE_COOKIE)  # the browser keeps nothing of them
        return response


class SignUpView(PlayerAPIView):
    rate_limit_scope = "auth"  # games/fairplay/ratelimit.py

    @extend_schema(request=s.SignUpIn, responses={201: s.PlayerOut, 400: ERR}, summary="Turn the current guest into an account, keeping its games")
    def post(self, request: Request) -> Response:
        data = validated(s.SignUpIn, request.data)
        player = players.sign_up(request._request, data["username"], data["password"],
                                 data.get("email"))
        return Response(player_json(request, player), status=status.HTTP_201_CREATED)


class SignInView(PlayerAPIView):
    rate_limit_scope = "auth"  # games/fairplay/ratelimit.py

    @extend_schema(request=s.CredentialsIn, responses={200: s.PlayerOut, 400: ERR}, summary="Sign in; this browser's guest games join the account")
    def post(self, request: Request) -> Response:
        data = validated(s.CredentialsIn, request.data)
        player = players.sign_in(request._request, data["username"], data["password"])
        return Response(player_json(request, player))


class EmailView(PlayerAPIView):
    rate_limit_scope = "auth"  # it checks a password: limited as signing in is

    @extend_schema(request=s.EmailIn, responses={200: s.PlayerOut, 400: ERR}, summary="Give, change or remove the account's email (needs the current password); a new address is pending until the link mailed to it is opened")
    def put(self, request: Request) -> Response:
        data = validated(s.EmailIn, request.data)
        player = verification.set_email(request._request, player_of(request), data["email"],
                                    data["password"])
        return Response(player_json(request, player))


class SignOutView(PlayerAPIView):
    makes_guest = False

    @extend_schema(request=None, responses={204: None}, summary="Sign out")
    def post(self, request: Request) -> Response:
        players.sign_out(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DailyView(PlayerAPIView):
    makes_guest = False

    @extend_schema(responses={200: s.DailyOut}, summary="Today's daily deals")
    def get(self, request: Request) -> Response:
        day = daily.today()
        out = []
        for game in DAILY_GAMES:
            deal = daily.todays_deal(game)
            item: dict[str, Any] = {
                "game": game, "date": day.isoformat(), "deal": deal.public_id,
                "certified": deal.certified, "playing": presence.playing(game, day),
                "commitment": deal.commitment, "par": deal.par,
                "difficulty": medals.difficulty(game, deal.par, deal.effort),
            }
            if GAMES[game].public_deal_numbers:
                item["deal_number"] = deal.seed
            out.append(item)
        opens = daily.next_opening().astimezone(dt.UTC)
        return Response({"date": day.isoformat(), "deals": out,
                         "next_at": opens.isoformat().replace("+00:00", "Z")})


class SessionsView(PlayerAPIView):
    rate_limit_scope = "sessions"  # games/fairplay/ratelimit.py

    @extend_schema(request=s.StartSessionIn, responses={
        201: s.SessionOut, 400: ERR,
        409: OpenApiResponse(s.RankedOpenOut, description="your ranked attempt at this daily "
                             "is still open (finish or resign it first)"),
    }, summary="Start a session on a deal")
    def post(self, request: Request) -> Response:
        data = validated(s.StartSessionIn, request.data)
        # A first visit's start makes the guest too (docs/frontend.md, "The first card").
        new_player = players.current_player(request._request, create=False) is None
        outcome = operations.start_session(player_of(request), data["game"], data["deal"],
                                           devices.client_keys(request._request), new_player)
        return Response(state(outcome), status=status.HTTP_201_CREATED)


class SessionView(PlayerAPIView):
    @extend_schema(responses={200: s.SessionOut, 404: ERR}, summary="The current state of one of your sessions")
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


def _operation_view(name: str, body: type[serializers.Serializer] | None,
                    responses: dict[int, Any], summary: str) -> type[OperationView]:
    """The view of one operation of the table: its path is the entry's (urls.py), its
    schema the serializer and answers given here."""
    @extend_schema(request=body, responses=responses, summary=summary)
    def post(self: OperationView, request: Request, session_id: str) -> Response:
        return self.operate(request, session_id)

    operation = dispatch.OPERATIONS[name]
    assert operation.path is not None  # an operation HTTP serves
    view = f"{name.capitalize()}View"
    # The rate limit is the table's, the same one the socket counts the operation against.
    return type(view, (OperationView,), {"operation": name, "path": operation.path,
                                         "rate_limit_scope": operation.scope, "body": body,
                                         "post": post, "__module__": __name__,
                                         "__qualname__": view})


MoveView = _operation_view("move", s.MoveIn, MOVE_ANSWERS, "Play one move")
UndoView = _operation_view("undo", s.OptionalSeqIn, MOVE_ANSWERS, "Take back the last move")
FinishView = _operation_view("finish", s.OptionalSeqIn, MOVE_ANSWERS,
                             "Send the remaining cards up")
ResignView = _operation_view("resign", s.OptionalSeqIn, MOVE_ANSWERS, "Resign: end the attempt where it stands (a ranked one ranks as unfinished, by cards up)")
HintView = _operation_view("hint", None, {200: s.HintOut, 404: ERR, 409: ERR, 429: ERR,
                                          503: ERR}, "One move worth playing now (counted)")
OPERATION_VIEWS = (MoveView, UndoView, FinishView, ResignView, HintView)


class ShareView(PlayerAPIView):
    @extend_schema(responses={200: s.ShareOut, 404: ERR, 409: BROKEN}, summary="The session's result as text to share (no card in it)")
    def get(self, request: Request, session_id: str) -> Response:
        session = locked.owned(GameSession.objects.select_related("deal"), session_id,
                               player_of(request))
        return Response({"text": share.text(session)})


class ReplayView(PlayerAPIView):
    rate_limit_scope = "records"  # a whole game's tables: limited like the open data
    makes_guest = False

    @extend_schema(responses={200: s.ReplayOut, 404: ERR, 409: BROKEN}, summary="The session step by step, as its player saw it (its player at any time; anyone once a ranked daily's day is closed)")
    def get(self, request: Request, session_id: str) -> Response:
        viewer = players.current_player(request._request, create=False)
        session = (GameSession.objects.select_related("deal", "player")
                   .filter(pk=session_id).first() if _uuid(session_id) else None)
        if session is None or not replays.watchable(session, viewer):
            # The same answer as for no such session: whether it exists is not said.
            raise SessionNotFound("there is no such session to watch (another player's "
                                  "ranked game can be watched once its day is closed)")
        return Response(replays.replay(session))


class AnalysisView(PlayerAPIView):
    @extend_schema(responses={200: s.AnalysisOut, 400: ERR, 404: ERR}, summary="Where the game was lost: the turning point, found by the solver in a worker (pending until it is)")
    def get(self, request: Request, session_id: str) -> Response:
        # The player's own games only: each analysis is up to ANALYSIS_SECONDS of a worker,
        # and anyone asking for every session of a closed day would keep the workers from
        # scoring the wins of the day being played.
        session = locked.owned(GameSession.objects.select_related("deal", "player"),
                               session_id, player_of(request))
        return Response(analysis.answer(session))


def _uuid(text: str) -> bool:
    try:
        UUID(text)
    except ValueError:
        return False
    return True
