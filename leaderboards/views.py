"""The daily leaderboard over HTTP (SPEC 9)."""

from __future__ import annotations

import datetime as dt

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import error
from games.api.serializers import ErrorOut, LeaderboardOut
from games.engine import GAMES
from leaderboards.ranking import entries


class DailyLeaderboardView(APIView):
    @extend_schema(responses={200: LeaderboardOut, 400: OpenApiResponse(ErrorOut)}, summary="A day's ranking of one game's daily deal")
    def get(self, request: Request, game: str, date: str) -> Response:
        if game not in GAMES:
            return error("bad_request", f"unknown game {game!r}", 400)
        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            return error("bad_request", "date must be YYYY-MM-DD", 400)
        return Response({"game": game, "date": day.isoformat(), "entries": entries(game, day)})
