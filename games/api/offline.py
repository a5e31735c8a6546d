"""``POST /api/offline-games/``: a practice game played offline, replayed with the engine
and stored as practice (games/play/offline.py; docs/api.md, "Offline games")."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.accounts import devices
from games.api import serializers as s
from games.api.base import ERR, PlayerAPIView, player_of, validated
from games.play import offline
from games.play.outcome import MAX_MOVES


class OfflineGameIn(serializers.Serializer):
    game = s.StrictCharField(max_length=32, help_text="the game's key, e.g. freecell")
    seed = s.StrictCharField(
        max_length=offline.SEED_DIGITS,
        help_text="the deal's seed, in decimal (the browser dealt it)",
    )
    moves = serializers.ListField(
        child=s.StrictCharField(max_length=16),
        max_length=MAX_MOVES,
        help_text="the moves in order, as stored sessions hold them (u: an undo)",
    )
    client = s.StrictCharField(
        max_length=40,
        help_text="the client's id for this game "
        "(1-40 of A-Z a-z 0-9 _ -): a retry stores nothing twice",
    )


class OfflineGameOut(serializers.Serializer):
    id = serializers.UUIDField(help_text="the stored session (a replay: /replay/<id>/)")
    game = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["won", "resigned"], help_text="won, or resigned: left before the end"
    )
    ranked = serializers.BooleanField(help_text="always false: offline games are practice")
    moves = serializers.IntegerField(help_text="moves on the table at the end")
    cards_up = serializers.IntegerField()
    score = serializers.IntegerField(allow_null=True, help_text="without a time bonus")
    repeated = serializers.BooleanField(help_text="this client id was stored before")


class OfflineGamesView(PlayerAPIView):
    rate_limit_scope = "sessions"  # games/fairplay/ratelimit.py: each upload is a new session

    @extend_schema(
        request=OfflineGameIn,
        responses={
            201: OfflineGameOut,
            200: OpenApiResponse(OfflineGameOut, description="stored before (same client id)"),
            400: ERR,
            422: OpenApiResponse(
                s.IllegalOut,
                description="a move the rules refuse: seq is its index in moves, reason says why",
            ),
        },
        summary="Upload a practice game played offline (replayed with the engine, stored as practice)",
    )
    def post(self, request: Request) -> Response:
        data = validated(OfflineGameIn, request.data)
        session, new = offline.store(
            player_of(request), data, devices.client_keys(request._request)
        )
        body = {
            "id": str(session.id),
            "game": session.game,
            "status": session.status,
            "ranked": session.ranked,
            "moves": session.move_count,
            "cards_up": session.cards_up,
            "score": session.score,
            "repeated": not new,
        }
        return Response(body, status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)
