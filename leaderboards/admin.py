from __future__ import annotations

from django.contrib import admin

from games.admin.readonly import ReadOnlyAdmin
from leaderboards.models import DayClosed, Entry


# Written by scoring and the day's close, corrected only through the audited operations on
# a session (games/admin/readonly.py).
@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["game", "date", "player", "won", "score", "time_ms", "moves", "final_rank"]
    list_filter = ["game", "date", "won"]


@admin.register(DayClosed)
class DayClosedAdmin(ReadOnlyAdmin):
    list_display = ["game", "date", "entries", "closed_at"]
