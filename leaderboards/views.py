"""The boards and statistics over HTTP (docs/api.md, "Boards and statistics")."""

from __future__ import annotations

import json

from django.http import HttpResponse, HttpResponseNotModified, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import leaving
from games.accounts.players import current_player
from games.api.errors import error
from games.api.serializers import ErrorOut
from games.daily.days import BAD_DAY, parse_day
from games.engine import GAMES
from games.models import Deal, Player
from leaderboards import export, live, periods, stats
from leaderboards.ranking import MAX_OFFSET, board, day_par, own_row
from leaderboards.serializers import LeaderboardOut, PeriodBoardOut, PlayerStatsOut


def _game_or_error(game: str) -> Response | None:
    # The game comes from the address and is not quoted back: it may be any length.
    if game in GAMES:
        return None
    return error("bad_request", f"unknown game; games: {', '.join(GAMES)}", 400)


class AllTimeLeaderboardView(APIView):
    @extend_schema(
        responses={200: PeriodBoardOut, 400: OpenApiResponse(ErrorOut)},
        summary="Players by daily wins, all time",
    )
    def get(self, request: Request, game: str) -> Response:
        if (bad := _game_or_error(game)) is not None:
            return bad
        return Response({"game": game, "entries": periods.board(game)})


class WeeklyLeaderboardView(APIView):
    @extend_schema(
        responses={200: PeriodBoardOut, 400: OpenApiResponse(ErrorOut)},
        summary="Players by daily wins in the ISO week (Monday to Sunday) holding the date",
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        if (bad := _game_or_error(game)) is not None:
            return bad
        if (day := parse_day(date)) is None:
            return error("bad_request", BAD_DAY, 400)
        monday, sunday = periods.week(day)
        return Response(
            {
                "game": game,
                "from": monday.isoformat(),
                "to": sunday.isoformat(),
                "entries": periods.board(game, monday, sunday),
            }
        )


class PlayerStatsView(APIView):
    @extend_schema(
        responses={200: PlayerStatsOut, 404: OpenApiResponse(ErrorOut)},
        summary="A player's statistics",
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = Player.objects.filter(pk=player_id).first()
        if player is not None and player.merged_into_id is not None:
            player = player.merged_into  # a guest who joined an account: its games are there
        if player is None or player.deleted_at is not None:  # one who left has no profile
            return error("not_found", "there is no such player", 404)
        return Response(stats.player_stats(player))


class MyStatsView(APIView):
    makes_guest = True  # config/schema.py

    @extend_schema(responses={200: PlayerStatsOut}, summary="The current player's statistics")
    def get(self, request: Request) -> Response:
        player = current_player(request._request)
        assert player is not None
        return Response(stats.player_stats(player))


class MyDataView(APIView):
    makes_guest = True  # config/schema.py
    rate_limit_scope = "records"  # a whole history in one answer

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description=(
                    'the player\'s own data as JSON (docs/rules.md, "Your data"): who they are, '
                    "every game with its moves, result and review, their statistics"
                )
            )
        },
        summary="Download your own games and statistics",
    )
    def get(self, request: Request) -> HttpResponseBase:
        player = current_player(request._request)
        assert player is not None
        body = {**leaving.export(player), "statistics": stats.player_stats(player)}
        response = HttpResponse(
            json.dumps(body, indent=1), content_type="application/json; charset=utf-8"
        )
        response["Content-Disposition"] = (
            f'attachment; filename="daily-solitaire-player-{player.pk}.json"'
        )
        response["Cache-Control"] = "private, no-store"
        return response


class DailyLeaderboardView(APIView):
    @extend_schema(
        responses={200: LeaderboardOut, 400: OpenApiResponse(ErrorOut)},
        parameters=[
            OpenApiParameter(
                "offset",
                {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
                description="rows to skip from the top of the board",
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 100, "default": 100},
                description="rows to return",
            ),
        ],
        summary="A day's ranking of one game's daily deal",
    )
    def get(self, request: Request, game: str, date: str) -> Response:
        if (bad := _game_or_error(game)) is not None:
            return bad
        if (day := parse_day(date)) is None:
            return error("bad_request", BAD_DAY, 400)
        try:
            offset = int(request.query_params.get("offset", "0"))
            limit = int(request.query_params.get("limit", "100"))
        except ValueError:
            offset = limit = -1
        if not (0 <= offset <= MAX_OFFSET and 1 <= limit <= 100):
            return error(
                "bad_request",
                f"offset runs from 0 to {MAX_OFFSET} and limit from 1 to 100 (rows of the board)",
                400,
            )
        player = current_player(request._request, create=False)
        total, rows = board(game, day, limit, offset)
        return Response(
            {
                "game": game,
                "date": day.isoformat(),
                "playing": live.playing(game, day),
                "par": day_par(game, day),
                "offset": offset,
                "total": total,
                # Closed and revealed: every row's game can be watched (replays).
                "closed": Deal.objects.filter(
                    game=game, date=day, revealed_at__isnull=False
                ).exists(),
                "entries": rows,
                "me": own_row(game, day, player.pk if player else None),
            }
        )


class ExportView(APIView):
    # A whole day's games in one answer: limited per client (games/fairplay/ratelimit.py), and
    # kept by anything in front, which revalidates it with its ETag.
    rate_limit_scope = "records"

    @extend_schema(
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                description="one JSON object a line: a `deal` line per daily, then a `session` "
                'line per ranked session (docs/api.md, "Open data")'
            ),
            304: OpenApiResponse(description="unchanged since the `ETag` sent in `If-None-Match`"),
            400: OpenApiResponse(ErrorOut),
            404: OpenApiResponse(ErrorOut, description="the day is not closed yet"),
        },
        summary="Everything about a closed day, as newline-delimited JSON",
    )
    def get(self, request: Request, date: str) -> HttpResponseBase:
        try:
            day = export.closed_day(date)
        except ValueError:
            return error("bad_request", BAD_DAY, 400)
        except export.NotExported as exc:
            return error("not_found", str(exc), 404)
        etag = export.version(day)
        response: HttpResponseBase
        if etag in parse_etags(request.headers.get("If-None-Match", "")):
            response = HttpResponseNotModified()
        else:
            body = (json.dumps(line, separators=(",", ":")) + "\n" for line in export.lines(day))
            response = StreamingHttpResponse(body, content_type="application/x-ndjson")
            response["Content-Disposition"] = f'inline; filename="daily-solitaire-{day}.ndjson"'
        # Kept by anything in front, and asked again each time: a closed day changes only
        # when it is closed again after a correction, and then its ETag changes with it.
        response["ETag"] = etag
        response["Cache-Control"] = "public, no-cache"
        return response
