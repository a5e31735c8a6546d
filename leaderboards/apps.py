from __future__ import annotations

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = "Leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from leaderboards import receivers

        receivers.connect()  # the boards hear about wins, merges and sockets (games.signals)
