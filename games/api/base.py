"""What every HTTP view of a player shares: the player of the request (a guest made on a
first visit), the body checked by its serializer, domain errors answered through the one
table the socket uses (games/errors.py), and the player's JSON."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import players, verification
from games.api import serializers as s
from games.errors import BadRequest, answer_for
from games.models import Player

ERR = OpenApiResponse(s.ErrorOut)
BROKEN = OpenApiResponse(
    s.ErrorOut, description="record_broken: the stored moves do not replay on the deal"
)


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
