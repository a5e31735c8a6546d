"""Deals in the admin, sealed from staff too (docs/deals.md, "Commit, then reveal").

A committed deal (a daily: its commitment is published days before its day) is read-only
here, as it is in the model (``Deal.save``) and in PostgreSQL (migration 0014).  Its seed,
salt and the solver's line are shown once its day is closed and revealed; before that only
to an operator with the ``games.view_deal_secrets`` permission (``view_deal`` is not
enough), and each look is kept in the audit trail.  A daily whose day has not opened can be
replaced by a new deal with a new commitment (``daily.replace_daily``, audited).

What staff with ``view_deal`` see of an unrevealed daily: its game, day, public id, par,
difficulty figures, certification and commitment, which everyone sees on /fair/ anyway.
The commitment is a SHA-256 over the seed and a 128-bit salt: no search over seeds finds
the seed from it (docs/deals.md).  The replay of a session on such a deal
(``GameSessionAdmin.replay_view``) shows the cards its player saw, not the face-down ones.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.daily import deals as daily
from games.errors import DealError
from games.models import AuditEntry, Deal, GameSession

SECRETS_PERMISSION = "games.view_deal_secrets"
SEALED_TEXT = "sealed until its day is closed and revealed"
# What an operator may type when adding a deal (not a daily: those come from daily.py).
ADD_FIELDS = ("game", "seed", "public_id", "candidate", "certified", "par")


def sealed(deal: Deal) -> bool:
    """Whether the deal's seed is still a secret: committed and not yet revealed."""
    return deal.committed and not deal.revealed


def may_see_secrets(request: HttpRequest, deal: Deal) -> bool:
    return not sealed(deal) or request.user.has_perm(SECRETS_PERMISSION)


def audit_look(request: HttpRequest, deal: Deal, where: str) -> None:
    """Keep a look at an unrevealed deal's secrets in the trail (who, which deal, where)."""
    actor: Any = request.user  # staff: the admin lets no one else in
    AuditEntry.objects.create(
        actor=actor,
        action="deal_secrets_viewed",
        reason=f"{deal.game} {deal.date} ({where})",
        data={
            "deal": deal.pk,
            "game": deal.game,
            "date": deal.date.isoformat() if deal.date else None,
            "where": where,
        },
    )


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["game", "date", "public_id", "certified", "par", "state"]
    list_filter = ["game", "date", "certified"]
    search_fields = ["public_id"]
    change_form_template = "admin/games/deal/change_form.html"

    def _locked(self, obj: Deal | None) -> bool:
        return obj is not None and (obj.committed or GameSession.objects.filter(deal=obj).exists())

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if not self._locked(obj):
            return ADD_FIELDS
        return [
            "game",
            "date",
            "public_id",
            "candidate",
            "certified",
            "par",
            "effort",
            "commitment",
            "revealed_at",
            "created_at",
            "seed_shown",
            "salt_shown",
            "line_shown",
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj) if self._locked(obj) else ()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._locked(obj) and super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> Any:
        return {}  # no bulk delete: a committed deal is never deleted

    @admin.display(description="state")
    def state(self, obj: Deal) -> str:
        if obj.revealed:
            return "revealed"
        return "committed, sealed" if obj.committed else "not a daily"

    def _secret(self, obj: Deal, value: Any) -> str:
        shown = getattr(obj, "_secrets_shown", not sealed(obj))
        return str(value) if shown else SEALED_TEXT

    @admin.display(description="seed")
    def seed_shown(self, obj: Deal) -> str:
        return self._secret(obj, obj.seed)

    @admin.display(description="salt")
    def salt_shown(self, obj: Deal) -> str:
        return self._secret(obj, obj.salt or "-")

    @admin.display(description="solver's line")
    def line_shown(self, obj: Deal) -> str:
        return self._secret(obj, " ".join(obj.line) if obj.line else "-")

    def get_object(self, request: HttpRequest, object_id: str, from_field: Any = None) -> Any:
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:
            obj._secrets_shown = may_see_secrets(request, obj)
        return obj

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        deal = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if deal is not None:
            if sealed(deal) and deal._secrets_shown:
                audit_look(request, deal, "deal page")
            context.update(
                sealed_deal=sealed(deal),
                replaceable=(
                    deal.committed
                    and deal.date is not None
                    and deal.date > daily.today()
                    and super().has_change_permission(request, deal)
                ),
                show_save=False,
                show_save_and_continue=False,
                show_save_and_add_another=False,
            )
        return super().change_view(request, object_id, form_url, context)

    # -- replacing a daily before its day ----------------------------------------------
    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/replace/", wrap(self.replace_view), name="games_deal_replace"),
            *super().get_urls(),
        ]

    def replace_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        deal = get_object_or_404(Deal, pk=pk)
        # The model permission, not has_change_permission (False: the deal is sealed).
        if not super().has_change_permission(request, deal):
            raise PermissionDenied
        error = ""
        if request.method == "POST":
            try:
                if deal.date is None:
                    raise DealError("only a daily is replaced")
                certifier = daily.load_certifier() if settings.DAILY_CERTIFY_ON_DEMAND else None
                new = daily.replace_daily(
                    deal.game, deal.date, request.user, request.POST.get("reason", ""), certifier
                )
            except DealError as exc:
                error = str(exc)
            else:
                messages.success(
                    request,
                    format_html(
                        "{} {} replaced: its new commitment {} is published.",
                        new.game,
                        new.date,
                        new.commitment,
                    ),
                )
                return HttpResponseRedirect(reverse("admin:games_deal_change", args=[new.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": deal,
            "title": f"Replace the {deal}",
            "error": error,
        }
        return TemplateResponse(request, "admin/games/deal/replace.html", context)
