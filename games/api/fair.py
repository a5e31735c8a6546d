"""The dailies' public record over HTTP: commitments before a day opens, seeds and salts
once it is closed (docs/deals.md, "Commit, then reveal"; docs/api.md)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts.players import current_player
from games.api.errors import error
from games.api.serializers import ErrorOut
from games.daily import archive
from games.daily import deals as daily
from games.daily.days import BAD_DAY, parse_day
from games.engine import DAILY_GAMES
from games.fairplay.review import REASONS
from games.models import GameSession


class RecordOut(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    commitment = serializers.CharField(
        help_text="SHA-256 of daily-solitaire|v1|game|date|seed|salt"
    )
    deal = serializers.CharField(required=False, help_text="public deal id, once the day opened")
    seed = serializers.CharField(required=False, help_text="revealed once the day is closed")
    salt = serializers.CharField(required=False, help_text="revealed with the seed")
    revealed_at = serializers.DateTimeField(required=False)


class DayOut(serializers.Serializer):
    date = serializers.DateField()
    deals = RecordOut(many=True)


class UpcomingOut(serializers.Serializer):
    deals = RecordOut(many=True, help_text="game, date and commitment only")


class MyReviewOut(serializers.Serializer):
    session = serializers.UUIDField()
    game = serializers.CharField()
    date = serializers.DateField()
    time_ms = serializers.IntegerField(allow_null=True)
    verified = serializers.BooleanField(allow_null=True, help_text="null until checked")
    review = serializers.CharField(help_text="none, pending, cleared or disqualified")
    reasons = serializers.ListField(child=serializers.CharField())


class MyReviewsOut(serializers.Serializer):
    reviews = MyReviewOut(many=True)


class MyReviewsView(APIView):
    makes_guest = True  # config/schema.py

    @extend_schema(
        responses={200: MyReviewsOut},
        summary="The current player's ranked wins and their fair-play review",
    )
    def get(self, request: Request) -> Response:
        player = current_player(request._request)
        wins = GameSession.objects.filter(
            player=player, ranked=True, status=GameSession.WON, deal__date__isnull=False
        ).select_related("deal")
        return Response(
            {
                "reviews": [
                    {
                        "session": str(s.pk),
                        "game": s.game,
                        "date": s.deal.date,
                        "time_ms": s.time_ms,
                        "verified": s.verified,
                        "review": s.review or ("pending" if s.verified is None else "none"),
                        "reasons": [gettext(REASONS.get(r, r)) for r in s.review_reasons],
                    }
                    for s in wins.order_by("-finished_at")[:100]
                ]
            }
        )


class DayRecordView(APIView):
    @extend_schema(
        responses={200: DayOut, 400: OpenApiResponse(ErrorOut)},
        operation_id="daily_day_retrieve",
        summary="A day's dailies: commitments, and seeds and salts once revealed",
    )
    def get(self, request: Request, date: str) -> Response:
        day = parse_day(date)
        if day is None:
            return error("bad_request", BAD_DAY, 400)
        return Response({"date": day.isoformat(), "deals": daily.days_record(day, day)})


class UpcomingView(APIView):
    @extend_schema(
        responses={200: UpcomingOut},
        summary="The coming days' commitments (nothing there can be played)",
    )
    def get(self, request: Request) -> Response:
        first = daily.today() + dt.timedelta(days=1)
        last = first + dt.timedelta(days=max(settings.DAILY_DAYS_AHEAD, 1) + 7)
        return Response({"deals": daily.days_record(first, last)})


class ArchiveMineOut(serializers.Serializer):
    session = serializers.UUIDField()
    status = serializers.CharField()
    ranked = serializers.BooleanField()
    cards_up = serializers.IntegerField()
    moves = serializers.IntegerField()
    tries = serializers.IntegerField()
    medal = serializers.CharField(allow_null=True)


class ArchiveDayOut(serializers.Serializer):
    date = serializers.DateField()
    deal = serializers.CharField(help_text="public id: start a session with it to play again")
    par = serializers.IntegerField(allow_null=True)
    closed = serializers.BooleanField(
        help_text="closed and revealed: its board's games can be watched"
    )
    mine = ArchiveMineOut(allow_null=True, help_text="the asking player's best try, or null")


class ArchiveOut(serializers.Serializer):
    game = serializers.CharField()
    month = serializers.CharField()
    days = ArchiveDayOut(many=True)


class ArchiveView(APIView):
    @extend_schema(
        responses={200: ArchiveOut, 400: OpenApiResponse(ErrorOut)},
        parameters=[
            OpenApiParameter(
                "month",
                OpenApiTypes.STR,
                pattern=r"^\d{4}-\d{2}$",
                description="the month, YYYY-MM from 2000-01 to 2999-12 (this month by default)",
            )
        ],
        summary="A month of past dailies of a game (?month=YYYY-MM), each with the "
        "player's own result; each can be played again as practice",
    )
    def get(self, request: Request, game: str) -> Response:
        if game not in DAILY_GAMES:
            return error(
                "bad_request", f"no daily for that game; daily games: {', '.join(DAILY_GAMES)}", 400
            )
        month = request.query_params.get("month", daily.today().strftime("%Y-%m"))
        try:
            first, last = archive.month_days(month)
        except ValueError:
            return error("bad_request", "month is written YYYY-MM, from 2000-01 to 2999-12", 400)
        player = current_player(request._request, create=False)
        return Response(
            {
                "game": game,
                "month": first.strftime("%Y-%m"),
                "days": archive.month(game, first, last, player),
            }
        )
