"""Players, deals, game sessions and the operators' audit trail.

PostgreSQL is the truth: a session row holds the full move list with server timestamps,
so a game can always be replayed and re-validated by the engine.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from games.engine import GAMES, new_game
from games.engine.scoring import WINDOWS

# The fields and defaults the models are made of, named here as the migrations name them.
from .fields import SeedField as SeedField
from .fields import game_choices as game_choices
from .fields import new_public_id as new_public_id


class Player(models.Model):
    """A guest (bound to a browser session) or the player behind an account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    display_name = models.CharField(max_length=24)
    # What the name looks like (games/players.py name_key): unique, so no player can take a
    # name that reads as another's.  Empty for a player whose name copied an older one's
    # before names had keys; they keep it until they rename.
    name_key = models.CharField(max_length=255, null=True, blank=True, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when this guest signed in to an account: its games, entries and statistics went
    # to that player (games/merge.py).  The row stays so that a request still carrying the
    # guest's old browser session is told what happened instead of failing.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged_guests"
    )
    # The player's choice: named "anonymous" in the open data of closed days (docs/api.md,
    # "Open data").  The boards still show the display name: they are the game itself.
    anonymous = models.BooleanField(default=False)
    # The player's choice: left out of the live race others see on a ranked daily
    # (docs/api.md, "race").  The boards still list the game once it is an entry.
    hide_from_race = models.BooleanField(default=False)
    # The person left (games/accounts/leaving.py): the row stays, nameless, only for the
    # ranked attempts on the boards, which keep their ranks; no browser plays as it again.
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class SealedDeal(ValueError):
    """A change to a committed deal: once its commitment exists (published before its day)
    nothing of it changes but its reveal; a daily is replaced only by a new deal with a new
    commitment (games/daily/deals.py ``replace_daily``, audited)."""


class Deal(models.Model):
    """One deal of one game: a daily (``date`` set) or any other played deal."""

    # What a commitment seals: every field but the reveal's time.  Kept by ``save`` here
    # and, for the seed, the salt, the game and the commitment itself, by a trigger in
    # PostgreSQL too (migration 0014), so no query of any kind rewrites them.
    SEALED = (
        "game",
        "seed",
        "date",
        "public_id",
        "candidate",
        "certified",
        "par",
        "effort",
        "salt",
        "commitment",
        "line",
    )

    game = models.CharField(max_length=32, choices=game_choices)
    seed = SeedField()
    date = models.DateField(null=True, blank=True, help_text="set for a daily deal")
    public_id = models.CharField(max_length=24, unique=True, default=new_public_id)
    candidate = models.PositiveIntegerField(default=0, help_text="daily seed candidate used")
    certified = models.BooleanField(
        null=True, blank=True, help_text="proven winnable by the solver (unknown when empty)"
    )
    par = models.PositiveIntegerField(null=True, blank=True, help_text="solver's move count")
    # Positions the certifying search looked at before it won: how hard the deal is to
    # find a way through (games/daily/medals.py difficulty).
    effort = models.PositiveIntegerField(null=True, blank=True, help_text="solver's states")
    # Commit, then reveal (games/engine/commitment.py): the commitment is public from the
    # deal's creation; the salt (and so the seed) only once its day is closed.
    salt = models.CharField(max_length=32, blank=True, help_text="revealed with the seed")
    commitment = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 published before the day opens"
    )
    revealed_at = models.DateTimeField(null=True, blank=True, help_text="seed and salt public")
    # The solver's winning line, kept for operators: a ranked win that follows it exactly
    # is one of the review signals (games/fairplay/review.py).  Never sent to players.
    line = models.JSONField(null=True, blank=True, help_text="the certifying solver's line")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "game"]
        permissions = [
            (
                "view_deal_secrets",
                "Can see a committed deal's seed, salt and "
                "solver line before its reveal (each look is audited)",
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "date"], condition=Q(date__isnull=False), name="one_daily_per_game"
            ),
            models.UniqueConstraint(fields=["game", "seed"], name="one_deal_per_seed"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.date or self.public_id}"

    @property
    def is_daily(self) -> bool:
        return self.date is not None

    @property
    def committed(self) -> bool:
        return bool(self.commitment)

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding and self.pk is not None:
            stored = Deal.objects.filter(pk=self.pk).values(*self.SEALED).first()
            if stored is not None and stored["commitment"]:
                changed = [name for name in self.SEALED if getattr(self, name) != stored[name]]
                if changed:
                    raise SealedDeal(
                        f"{self} is committed: its {', '.join(changed)} cannot change (a "
                        "daily is replaced by a new deal with a new commitment, before its day)"
                    )
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        if self.commitment and not getattr(self, "_replacing", False):
            raise SealedDeal(
                f"{self} is committed: it is replaced (games/daily/deals.py "
                "replace_daily), never deleted"
            )
        return super().delete(*args, **kwargs)

    def clean(self) -> None:
        """A deal an operator types in (the admin) must be one the engine can deal."""
        if self.game in GAMES and isinstance(self.seed, int):
            try:
                new_game(self.game, self.seed)
            except ValueError as exc:
                raise ValidationError({"seed": str(exc)}) from None


# What a session stored before sessions recorded their scoring was scored by, where the
# game has changed scheme since: Aisleriot's variants of Klondike scored Windows' way.
FORMER_SCORING = {
    game: WINDOWS for game in ("klondike-draw3", "klondike-3-passes", "klondike-1-pass")
}


class GameSession(models.Model):
    """One attempt by one player at one deal."""

    PLAYING, WON, RESIGNED = "playing", "won", "resigned"
    STATUS_CHOICES = [(PLAYING, "playing"), (WON, "won"), (RESIGNED, "resigned")]

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No index of their own: player_deal_idx leads with the player, board_idx with the deal,
    # and each index more is one more write on every session stored or updated.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="sessions", db_index=False
    )
    deal = models.ForeignKey(
        Deal, on_delete=models.PROTECT, related_name="sessions", db_index=False
    )
    game = models.CharField(max_length=32, choices=game_choices)  # copied for filtering
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=PLAYING)
    # The moves of games stored before moves had rows of their own (``Move``), as
    # [[token, server time in ms, op?], ...]; read where a game has no row for a move
    # (games/play/moves.py), written only while MOVE_STORE is "dual" (a deploy with the
    # previous release still serving).  The column keeps its name, "moves".
    legacy_moves = models.JSONField(default=list, blank=True, db_column="moves", db_default=[])
    # The number of moves stored: the next move's index.
    seq = models.PositiveIntegerField(default=0)
    score = models.IntegerField(null=True, blank=True)
    # The scheme the score is kept by (games/engine/scoring.py), the game's own when the
    # session began: a game that changes its scoring later does not change a stored score,
    # and its moves replay to it.  "" on the sessions stored before it was recorded:
    # ``scored_by`` says what they were scored by.
    scoring = models.CharField(max_length=16, blank=True, default="", db_default="")
    cards_up = models.PositiveSmallIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0, help_text="moves on the table now")
    undo_count = models.PositiveIntegerField(default=0)
    hint_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text="first move")
    finished_at = models.DateTimeField(
        null=True, blank=True, help_text="winning move, or the resignation"
    )
    time_ms = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="server time from the deal shown to the winning move"
    )
    active_ms = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="the same span, every gap over 60 s counted as 60 s"
    )
    # Who played, as keyed hashes (never the raw address or cookie): an earlier attempt at
    # the same deal from the same address or device by another player is a linked attempt.
    # Indexed in Meta (equality only: no second index for LIKE, as db_index would make).
    client_key = models.CharField(max_length=64, blank=True)
    device_key = models.CharField(max_length=64, blank=True)
    # A practice game played offline and uploaded (games/play/offline.py): the client's id for
    # it, so that a retried upload finds the game it stored instead of storing it twice.
    offline_id = models.CharField(max_length=40, blank=True, default="", db_default="")
    # Fair-play review of a ranked win (games/fairplay/review.py): verified (None until checked),
    # the review state, why, and the signals it was decided from.
    REVIEW_CHOICES = [
        ("", "none"),
        ("pending", "pending"),
        ("cleared", "cleared"),
        ("disqualified", "disqualified"),
    ]
    verified = models.BooleanField(null=True, blank=True)
    review = models.CharField(max_length=16, choices=REVIEW_CHOICES, blank=True, default="")
    review_reasons = models.JSONField(default=list, blank=True)
    signals = models.JSONField(default=dict, blank=True)
    disqualified = models.BooleanField(default=False)
    disqualified_reason = models.TextField(blank=True)
    # Where the game was lost (games/daily/analysis.py): null until asked for, then pending, then
    # the solver's answer.
    analysis = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The daily leaderboard: ranked, not disqualified sessions of one deal.
            models.Index(fields=["deal", "ranked", "disqualified", "status"], name="board_idx"),
            models.Index(fields=["player", "deal"], name="player_deal_idx"),
            # The admin's list, newest first (its filters narrow a backward walk of it).
            models.Index(fields=["created_at"], name="session_created_idx"),
            models.Index(fields=["client_key"], name="session_client_key_idx"),
            models.Index(fields=["device_key"], name="session_device_key_idx"),
            # The few disqualified attempts, which the period boards leave out by their ids.
            models.Index(fields=["game"], condition=Q(disqualified=True), name="disqualified_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "offline_id"],
                condition=~Q(offline_id=""),
                name="one_session_per_offline_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} session {self.id}"

    @property
    def moves(self) -> list[list[Any]]:
        """The stored moves, [[token, server time in ms since the epoch, op?], ...] in order
        ("u" is an undo), read once from the move store (games/play/moves.py)."""
        records = self.__dict__.get("_records")
        if records is None:
            from games.play.moves import records_of

            records = self.__dict__["_records"] = records_of(self)
        return list(records)

    @moves.setter
    def moves(self, value: list[list[Any]]) -> None:
        # An unsaved or made-up session (tests, benchmarks, the admin's tools): kept here,
        # and written as the session's moves when it is saved.
        self.__dict__["_records"] = [list(m) for m in value]
        self.__dict__["_records_unsaved"] = True

    @property
    def tokens(self) -> list[str]:
        return [m[0] for m in self.moves]

    @property
    def scored_by(self) -> str:
        """The scheme this session's score is kept by: the one stored with it, else (a
        session stored before the scheme was) the one its game had then."""
        return self.scoring or FORMER_SCORING.get(self.game) or GAMES[self.game].scoring

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        if self.__dict__.pop("_records_unsaved", False):
            from games.play.moves import replace_all

            replace_all(self, self.__dict__["_records"])

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("_records", None)
        super().refresh_from_db(*args, **kwargs)


class Move(models.Model):
    """One stored move of a session, appended once and never changed: a game's storage
    grows by one row a move, whatever its length (the list in one JSON value it replaces
    was rewritten whole by every move).  ``seq`` is the move's index in its session."""

    pk = models.CompositePrimaryKey("session", "seq")
    # No foreign-key constraint in the database: its check locks the session's row for
    # every move (a tenth of a move's WAL), and a move's row is only ever inserted by the
    # statement that updated that very session (games/play/optimistic.py, locked.py).
    # Deleting a session through the ORM still deletes its moves.
    session = models.ForeignKey(
        GameSession,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,  # the primary key leads with it
        db_constraint=False,
    )
    seq = models.PositiveIntegerField()
    token = models.CharField(max_length=16)
    at_ms = models.BigIntegerField(help_text="server time, ms since the epoch")
    # The client's id for the operation that stored this move (its first move, for an
    # operation that stores several): a retry finds it here (games/play/locked.py).
    op = models.CharField(max_length=40, null=True, blank=True)

    class Meta:
        ordering = ["session", "seq"]

    def __str__(self) -> str:
        return f"{self.session_id} #{self.seq} {self.token}"


class PendingEmail(models.Model):
    """An address given for an account and not yet proven by the link mailed to it
    (games/accounts/verification.py).  Until then it serves a password reset only; once
    proven it becomes the account's email (``auth_user.email``, unique)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_email"
    )
    address = models.CharField(max_length=254)
    asked_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.address} (unverified)"


class AuditEntry(models.Model):
    """What an operator did to a session, and why; never edited, only added."""

    session = models.ForeignKey(
        GameSession, null=True, on_delete=models.SET_NULL, related_name="audit"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=32)
    reason = models.TextField(blank=True)
    data: Any = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.session_id} by {self.actor}"


class WinUnderReview(GameSession):
    """The admin's review queue: ranked wins whose fair-play signals crossed a threshold
    (games/fairplay/review.py), waiting for an operator to clear or disqualify them."""

    class Meta:
        proxy = True
        verbose_name = "win under review"
        verbose_name_plural = "wins under review"
