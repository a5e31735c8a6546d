from __future__ import annotations

from django.urls import path

from games.api import account, fair, offline, views

urlpatterns = [
    path("me/", account.MeView.as_view(), name="me"),
    path("auth/signup/", account.SignUpView.as_view(), name="signup"),
    path("auth/signin/", account.SignInView.as_view(), name="signin"),
    path("me/email/", account.EmailView.as_view(), name="me-email"),
    path("auth/signout/", account.SignOutView.as_view(), name="signout"),
    path("daily/", views.DailyView.as_view(), name="daily"),
    path("me/reviews/", fair.MyReviewsView.as_view(), name="my-reviews"),
    path("archive/<str:game>/", fair.ArchiveView.as_view(), name="archive"),
    path("daily/upcoming/", fair.UpcomingView.as_view(), name="daily-upcoming"),
    path("daily/<str:date>/", fair.DayRecordView.as_view(), name="daily-day"),
    path("sessions/", views.SessionsView.as_view(), name="sessions"),
    path("offline-games/", offline.OfflineGamesView.as_view(), name="offline-games"),
    path("sessions/<str:session_id>/", views.SessionView.as_view(), name="session"),
    # The session's operations, each at its path in the operations' table (dispatch.py).
    *(
        path(
            f"sessions/<str:session_id>/{view.path}",
            view.as_view(),
            name=f"session-{view.path.rstrip('/')}",
        )
        for view in views.OPERATION_VIEWS
    ),
    path(
        "sessions/<str:session_id>/analysis/", views.AnalysisView.as_view(), name="session-analysis"
    ),
    path("sessions/<str:session_id>/replay/", views.ReplayView.as_view(), name="session-replay"),
    path("sessions/<str:session_id>/share/", views.ShareView.as_view(), name="session-share"),
]
