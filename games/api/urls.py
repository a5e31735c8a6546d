from __future__ import annotations

from django.urls import path

from games.api import fair, offline, views

urlpatterns = [
    path("me/", views.MeView.as_view(), name="me"),
    path("auth/signup/", views.SignUpView.as_view(), name="signup"),
    path("auth/signin/", views.SignInView.as_view(), name="signin"),
    path("me/email/", views.EmailView.as_view(), name="me-email"),
    path("auth/signout/", views.SignOutView.as_view(), name="signout"),
    path("daily/", views.DailyView.as_view(), name="daily"),
    path("me/reviews/", fair.MyReviewsView.as_view(), name="my-reviews"),
    path("archive/<str:game>/", fair.ArchiveView.as_view(), name="archive"),
    path("daily/upcoming/", fair.UpcomingView.as_view(), name="daily-upcoming"),
    path("daily/<str:date>/", fair.DayRecordView.as_view(), name="daily-day"),
    path("sessions/", views.SessionsView.as_view(), name="sessions"),
    path("offline-games/", offline.OfflineGamesView.as_view(), name="offline-games"),
    path("sessions/<str:session_id>/", views.SessionView.as_view(), name="session"),
    path("sessions/<str:session_id>/moves/", views.MoveView.as_view(), name="session-moves"),
    path("sessions/<str:session_id>/undo/", views.UndoView.as_view(), name="session-undo"),
    path("sessions/<str:session_id>/hint/", views.HintView.as_view(), name="session-hint"),
    path("sessions/<str:session_id>/finish/", views.FinishView.as_view(), name="session-finish"),
    path("sessions/<str:session_id>/analysis/", views.AnalysisView.as_view(),
         name="session-analysis"),
    path("sessions/<str:session_id>/replay/", views.ReplayView.as_view(), name="session-replay"),
    path("sessions/<str:session_id>/share/", views.ShareView.as_view(), name="session-share"),
    path("sessions/<str:session_id>/resign/", views.ResignView.as_view(), name="session-resign"),
]
