"""The review queue: ranked wins under review, their signals side by side, the linked
attempts, the timing of the game, and the operator's clear or disqualify (audited)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.safestring import mark_safe

from games.admin import inspection
from games.fairplay.review import REASONS
from games.models import GameSession, WinUnderReview

# The signals shown side by side, in this order, with the label an operator reads.
SHOWN = [
    ("decisions", "decisions"),
    ("first_move_ms", "first move (ms)"),
    ("fastest_gap_ms", "fastest gap (ms)"),
    ("p10_gap_ms", "10th percentile gap (ms)"),
    ("median_gap_ms", "median gap (ms)"),
    ("fast_share", "share of gaps under 150 ms"),
    ("ms_per_move", "ms per move"),
    ("line_share", "share on the solver's line"),
    ("undos", "undos"),
    ("hints", "hints"),
]


@admin.register(WinUnderReview)
class ReviewQueueAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "day", "player", "why", "time_ms", "finished_at"]
    list_filter = ["game", "deal__date"]
    list_select_related = ["player", "deal"]
    ordering = ["finished_at"]

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super()
            .get_queryset(request)
            .filter(status=GameSession.WON, review="pending", ranked=True)
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="day", ordering="deal__date")
    def day(self, obj: GameSession) -> Any:
        return obj.deal.date

    @admin.display(description="why")
    def why(self, obj: GameSession) -> str:
        return "; ".join(REASONS.get(r, r) for r in obj.review_reasons)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        session = get_object_or_404(
            GameSession.objects.select_related("deal", "player"), pk=object_id
        )
        if not self.has_view_permission(request, session):
            raise PermissionDenied
        error = ""
        if request.method == "POST":
            if not self.has_change_permission(request, session):
                raise PermissionDenied
            verdict = "disqualify" if request.POST.get("disqualify") else "clear"
            try:
                inspection.decide_review(
                    session, request.user, verdict, request.POST.get("reason", "")
                )
            except ValueError as exc:
                error = str(exc)
            else:
                messages.success(
                    request, f"{session}: {'cleared' if verdict == 'clear' else 'disqualified'}."
                )
                return HttpResponseRedirect(reverse("admin:games_winunderreview_changelist"))
        found = session.signals or {}
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": session,
            "title": f"Review of {session}",
            "reasons": [REASONS.get(r, r) for r in session.review_reasons],
            "rows": [(label, found.get(key)) for key, label in SHOWN],
            "linked": found.get("linked", []),
            "chart": mark_safe(inspection.gap_chart(session)),  # numbers only, built here
            "error": error,
        }
        return TemplateResponse(request, "admin/games/winunderreview/review.html", context)
