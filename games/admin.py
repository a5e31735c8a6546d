from __future__ import annotations

from django.contrib import admin

from games.models import AuditEntry, Deal, GameSession, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "created_at"]
    search_fields = ["display_name", "user__username"]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["game", "date", "public_id", "certified", "par"]
    list_filter = ["game", "date", "certified"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "action", "session", "actor", "reason"]


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "player", "status", "ranked"]
