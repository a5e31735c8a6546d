"""The boards' answer shapes: they document the API in /api/schema/ (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers


class LeaderboardEntryOut(serializers.Serializer):
    session = serializers.UUIDField()
    rank = serializers.IntegerField(
        allow_null=True, help_text="null only in `me`, for an attempt not won"
    )
    player = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    time_ms = serializers.IntegerField(allow_null=True)
    moves = serializers.IntegerField()
    won = serializers.BooleanField()
    cards_up = serializers.IntegerField()
    undos = serializers.IntegerField()
    hints = serializers.IntegerField()
    active_ms = serializers.IntegerField(allow_null=True, help_text="gaps over 60 s as 60 s")
    verified = serializers.BooleanField(help_text="a win whose fair-play check passed")
    review = serializers.ChoiceField(choices=["none", "pending", "cleared", "disqualified"])
    clean = serializers.BooleanField(help_text="won without an undo or a hint")
    status = serializers.ChoiceField(
        choices=["won", "playing", "resigned"],
        help_text="unfinished attempts are playing or resigned",
    )
    medal = serializers.ChoiceField(
        choices=["gold", "silver", "bronze"],
        allow_null=True,
        help_text="a win against par (docs/rules.md)",
    )


class LeaderboardOut(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    playing = serializers.IntegerField(help_text="play sockets open on this deal now")
    par = serializers.IntegerField(allow_null=True, help_text="the day's par (docs/rules.md)")
    offset = serializers.IntegerField(help_text="the first row's place, from 0 (?offset=)")
    total = serializers.IntegerField(help_text="rows on the whole board")
    closed = serializers.BooleanField(
        help_text="the day is closed and its seeds revealed: "
        "every row's session can be watched (/replay/<id>/)"
    )
    entries = LeaderboardEntryOut(many=True)
    me = LeaderboardEntryOut(
        allow_null=True,
        help_text="the asking player's own row "
        "(rank null for an attempt not won); null with no attempt",
    )


class PeriodEntryOut(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    wins = serializers.IntegerField()
    played = serializers.IntegerField()
    best_time_ms = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()


class PeriodBoardOut(serializers.Serializer):
    game = serializers.CharField()
    entries = PeriodEntryOut(many=True)


class GameStatsOut(serializers.Serializer):
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    win_rate = serializers.FloatField()
    best_time_ms = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()


class CalendarDayOut(serializers.Serializer):
    date = serializers.DateField()
    played = serializers.BooleanField()
    won = serializers.BooleanField()
    frozen = serializers.BooleanField()
    cards_up = serializers.IntegerField(help_text="the most cards up in a ranked daily that day")


class PlayerStatsOut(serializers.Serializer):
    player = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    win_rate = serializers.FloatField()
    current_streak = serializers.IntegerField(help_text="days in a row with a daily won")
    best_streak = serializers.IntegerField()
    freezes = serializers.IntegerField(
        help_text="streak freezes held (one per 7 days won in "
        "a row, 2 at most), spent on a missed day"
    )
    frozen_days = serializers.ListField(
        child=serializers.DateField(), help_text="missed days a freeze covered"
    )
    calendar = CalendarDayOut(many=True, help_text="the last 35 days, oldest first")
    games = serializers.DictField(child=GameStatsOut())
