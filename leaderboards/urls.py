from __future__ import annotations

from django.urls import path

from leaderboards import views

urlpatterns = [
    path(
        "leaderboards/<str:game>/<str:date>/",
        views.DailyLeaderboardView.as_view(),
        name="daily-leaderboard",
    ),
]
