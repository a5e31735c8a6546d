"""Leaderboard entries: a ranked session's scored result (PostgreSQL is the truth).

Redis keeps a sorted set per (game, day) built from these rows, for O(log n) rank lookups;
it can always be rebuilt from here.
"""

from __future__ import annotations

from django.db import models

from games.models import GameSession, Player


class Entry(models.Model):
    session = models.OneToOneField(GameSession, on_delete=models.CASCADE, related_name="entry")
    # entry_player_idx leads with the player: no index of its own.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    game = models.CharField(max_length=32)
    date = models.DateField()
    won = models.BooleanField()
    score = models.IntegerField(null=True, blank=True)
    time_ms = models.PositiveBigIntegerField(null=True, blank=True)
    moves = models.PositiveIntegerField()
    cards_up = models.PositiveSmallIntegerField()
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    active_ms = models.PositiveBigIntegerField(null=True, blank=True)
    # Copied from the session's fair-play review (games/fairplay/review.py) for the boards.
    verified = models.BooleanField(null=True, blank=True)
    review = models.CharField(max_length=16, blank=True, default="")
    # Not "clean": that name is Model.clean(), which validation calls.
    clean_win = models.BooleanField(default=False, help_text="won without an undo or a hint")
    sort_key = models.BigIntegerField(help_text="lower ranks higher (see leaderboards.keys)")
    final_rank = models.PositiveIntegerField(null=True, blank=True, help_text="set at day close")
    scored_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["game", "date", "sort_key"]
        indexes = [
            # The board's order, ties and all: the close's window function, the rank
            # index's rebuild and a page read from PostgreSQL walk it without a sort.
            models.Index(fields=["game", "date", "sort_key", "session"], name="entry_order_idx"),
            models.Index(fields=["player", "game", "date"], name="entry_player_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.date} {self.player}"


class DayClosed(models.Model):
    """A (game, day) whose final ranks are written; closing again rewrites the same."""

    game = models.CharField(max_length=32)
    date = models.DateField()
    closed_at = models.DateTimeField(auto_now=True)
    entries = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "date"], name="one_close_per_day")]
