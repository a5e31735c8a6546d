"""Operators' inspection of players, deals and sessions (docs/architecture.md, "Operators")."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from games.accounts.names import name_key
from games.admin import deals, inspection, volume
from games.admin.readonly import ReadOnlyAdmin
from games.models import AuditEntry, GameSession, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "created_at"]
    search_fields = ["display_name", "user__username"]
    readonly_fields = ["name_key", "merged_into"]

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        # An operator's rename keeps the look-alike key true, as a player's own rename does.
        obj.name_key = name_key(obj.display_name)
        super().save_model(request, obj, form, change)


def _operator(request: HttpRequest) -> Any:
    """The signed-in operator (the admin only lets staff through)."""
    return request.user


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    # The trail is only ever added to, by the audited operations themselves.
    list_display = ["created_at", "action", "session", "actor", "reason"]
    list_filter = ["action"]
    readonly_fields = ["session", "actor", "action", "reason", "data", "created_at"]


class AuditInline(admin.TabularInline):
    model = AuditEntry
    extra = 0
    can_delete = False
    fields = ("created_at", "action", "actor", "reason")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "game",
        "day",
        "player",
        "status",
        "ranked",
        "disqualified",
        "score",
        "cards_up",
        "time_ms",
        "undo_count",
        "hint_count",
        "created_at",
    ]
    list_filter = ["deal__date", "game", "status", "ranked", "disqualified"]
    # At a million sessions (games/admin/volume.py): no full count, no date hierarchy (a
    # scan of every session's date), and a search each term of which an index answers.
    search_fields = ["id"]  # shows the search box; session_search does the searching
    search_help_text = (
        "A session id or its first characters, a player's name or its "
        "beginning (names that read alike match), or a deal id."
    )
    show_full_result_count = False
    paginator = volume.CappedPaginator
    # Each row costs its page about a millisecond of rendering (thirteen cells and a
    # checkbox), whatever the table holds: fifty keep the page well under 300 ms.
    list_per_page = 50
    list_select_related = ["player", "deal"]
    inlines = [AuditInline]
    actions = ["revalidate_selected"]
    change_form_template = "admin/games/gamesession/change_form.html"
    # Every stored field is read-only: a session is the record of what a player did, and
    # operators change it only through the audited actions (re-validate, disqualify,
    # reinstate, the review queue).  The moves are shown as a table of their own.
    readonly_fields = [
        *(f.name for f in GameSession._meta.concrete_fields if f.name != "legacy_moves"),
        "timing",
        "move_table",
    ]
    exclude = ["legacy_moves"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # deleting a session would delete its audit trail with it

    def get_search_results(
        self, request: HttpRequest, queryset: Any, search_term: str
    ) -> tuple[Any, bool]:
        return volume.session_search(queryset, search_term), False

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # Nothing on the form can be edited: no Save buttons that would save nothing.
        context = {
            **(extra_context or {}),
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            "show_delete": False,
        }
        return super().change_view(request, object_id, form_url, context)

    @admin.display(description="day", ordering="deal__date")
    def day(self, obj: GameSession) -> Any:
        return obj.deal.date

    @admin.display(description="timing signals")
    def timing(self, obj: GameSession) -> str:
        t = inspection.timing_signals(obj)
        return format_html_join("", "<div>{}: {}</div>", ((k, v) for k, v in t.items()))

    @admin.display(description="moves (server time)")
    def move_table(self, obj: GameSession) -> str:
        # The raw server time (ms since the epoch) stays in each time's title, for copying.
        rows = format_html_join(
            "",
            '<tr class="move-row"><td>{}</td><td>{}</td><td title="{}">{}</td>'
            "<td>{}</td><td>{}</td></tr>",
            (
                (i, token, raw, at, offset, "" if gap is None else gap)
                for i, token, at, offset, gap, raw in inspection.move_rows(obj)
            ),
        )
        return format_html(
            "<table><tr><th>#</th><th>move</th><th>server time ({})</th>"
            "<th>since the deal was shown</th><th>gap (ms)</th></tr>{}</table>",
            timezone.get_current_timezone_name(),
            rows,
        )

    # -- inspection pages -----------------------------------------------------------------
    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path("<uuid:pk>/replay/", wrap(self.replay_view), name="games_gamesession_replay"),
            path(
                "<uuid:pk>/revalidate/",
                wrap(self.revalidate_view),
                name="games_gamesession_revalidate",
            ),
            path(
                "<uuid:pk>/disqualify/",
                wrap(self.disqualify_view),
                name="games_gamesession_disqualify",
            ),
            *super().get_urls(),
        ]

    def _session(self, request: HttpRequest, pk: Any) -> GameSession:
        session = get_object_or_404(GameSession.objects.select_related("deal", "player"), pk=pk)
        if not self.has_view_permission(request, session):
            raise PermissionDenied
        return session

    def replay_view(self, request: HttpRequest, pk: Any) -> HttpResponse:
        session = self._session(request, pk)
        # A daily still sealed: the cards its player saw, unless the operator may see the
        # deal's secrets, and then the look is audited (games/admin/deals.py).
        hide = not deals.may_see_secrets(request, session.deal)
        if deals.sealed(session.deal) and not hide:
            deals.audit_look(request, session.deal, f"replay of session {session.pk}")
        steps, tables = inspection.replay_steps(session, hide_hidden=hide)
        try:
            step = min(max(int(request.GET.get("step", len(steps) - 1)), 0), len(steps) - 1)
        except ValueError:
            step = len(steps) - 1
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": session,
            "title": f"Replay of {session}",
            "steps": steps,
            "step": step,
            "table": tables[step],
            "timing": inspection.timing_signals(session),
        }
        return TemplateResponse(request, "admin/games/gamesession/replay.html", context)

    def revalidate_view(self, request: HttpRequest, pk: Any) -> HttpResponse:
        session = self._session(request, pk)
        if request.method != "POST":
            return HttpResponseRedirect(self._change_url(session))
        self._report(request, session, inspection.revalidate(session, _operator(request)))
        return HttpResponseRedirect(self._change_url(session))

    def disqualify_view(self, request: HttpRequest, pk: Any) -> HttpResponse:
        session = self._session(request, pk)
        if not self.has_change_permission(request, session):
            raise PermissionDenied
        error = ""
        if request.method == "POST":
            reason = request.POST.get("reason", "")
            try:
                # The same operations as the review queue's (inspection.py): the boards,
                # the player's review state and the queue all follow.
                if request.POST.get("reinstate"):
                    inspection.reinstate(session, _operator(request), reason)
                    messages.success(request, "Session reinstated on the leaderboard.")
                else:
                    inspection.disqualify(session, _operator(request), reason)
                    messages.success(request, "Session disqualified from the leaderboard.")
                return HttpResponseRedirect(self._change_url(session))
            except ValueError as exc:
                error = str(exc)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": session,
            "title": f"Disqualify {session}",
            "error": error,
        }
        return TemplateResponse(request, "admin/games/gamesession/disqualify.html", context)

    def _change_url(self, session: GameSession) -> str:
        return reverse("admin:games_gamesession_change", args=[session.pk])

    def _report(self, request: HttpRequest, session: GameSession, result: dict[str, Any]) -> None:
        if result["matches"]:
            messages.success(request, f"{session}: the engine agrees with the stored result.")
        else:
            messages.error(request, f"{session}: re-validation disagrees: {result}")

    @admin.action(description="Re-validate the selected sessions with the engine")
    def revalidate_selected(self, request: HttpRequest, queryset: Any) -> None:
        for session in queryset.select_related("deal"):
            self._report(request, session, inspection.revalidate(session, _operator(request)))
