"""The player's pages.  Everything they show comes from the JSON API and the websockets."""

from __future__ import annotations

from django.urls import include, path

from . import accounts, offline, views

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", views.offline_page, name="offline"),
    path("offline/engine.<str:digest>.zip", offline.engine, name="offline-engine"),
    path("play/<slug:game>/", views.play, name="play"),
    path("leaderboards/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("profile/", views.profile, name="profile"),
    path("fair/", views.fair, name="fair"),
    path("privacy/", views.privacy, name="privacy"),
    path("accessibility/", views.accessibility, name="accessibility"),
    path("archive/", views.archive, name="archive"),
    path("replay/<str:session_id>/", views.replay, name="replay"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("account/", views.account, name="account"),
    # A forgotten password (frontend/accounts.py).
    path("account/password-reset/", accounts.ResetRequest.as_view(), name="reset"),
    path("account/password-reset/sent/", accounts.ResetSent.as_view(), name="reset-sent"),
    path("account/reset/<uidb64>/<token>/", accounts.ResetConfirm.as_view(), name="reset-confirm"),
    path("account/reset/done/", accounts.ResetDone.as_view(), name="reset-done"),
    # Proving an account's email (games/accounts/verification.py).
    path("account/verify-email/<str:token>/", accounts.verify_email, name="verify-email"),
    path("i18n/", include("django.conf.urls.i18n")),
]
