from __future__ import annotations

from django.urls import path

from leaderboards import views

urlpatterns = [
    path(
        "leaderboards/<str:game>/all-time/",
        views.AllTimeLeaderboardView.as_view(),
        name="alltime-leaderboard",
    ),
    path(
        "leaderboards/<str:game>/week/<str:date>/",
        views.WeeklyLeaderboardView.as_view(),
        name="weekly-leaderboard",
    ),
    path("players/<int:player_id>/stats/", views.PlayerStatsView.as_view(), name="player-stats"),
    path("me/stats/", views.MyStatsView.as_view(), name="my-stats"),
    path("me/export/", views.MyDataView.as_view(), name="my-data"),
    path("export/<str:date>/", views.ExportView.as_view(), name="export-day"),
    path(
        "leaderboards/<str:game>/<str:date>/",
        views.DailyLeaderboardView.as_view(),
        name="daily-leaderboard",
    ),
]
