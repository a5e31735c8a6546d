"""The player's pages.  Everything they show comes from the JSON API and the websockets."""

from __future__ import annotations

from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<slug:game>/", views.play, name="play"),
    path("leaderboards/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("profile/", views.profile, name="profile"),
    path("fair/", views.fair, name="fair"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("account/", views.account, name="account"),
    path("i18n/", include("django.conf.urls.i18n")),
]
