"""Admin pages that show records and never change them: the audit trail (only ever added to,
by the audited operations), leaderboard entries (written by scoring and the day's close)
and closed days.  No add, no change, no delete: an operator corrects a board through the
audited operations on its session (disqualify, reinstate, the review queue)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> Any:
        return {}  # Django's "delete selected" included
