from __future__ import annotations

from django.contrib import admin

from leaderboards.models import DayClosed, Entry


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["game", "date", "player", "won", "score", "time_ms", "moves", "final_rank"]
    list_filter = ["game", "date", "won"]
    readonly_fields = [f.name for f in Entry._meta.fields]


@admin.register(DayClosed)
class DayClosedAdmin(admin.ModelAdmin):
    list_display = ["game", "date", "entries", "closed_at"]
