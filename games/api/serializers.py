"""Request and response shapes: they validate input and document the API in /api/schema/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine import GAMES


@extend_schema_field(
    {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 1}], "default": "daily"}
)
class DealField(serializers.Field):
    """``daily``, ``random``, a FreeCell deal number (int or digits) or a public deal id."""

    def to_internal_value(self, data: object) -> object:
        if isinstance(data, bool) or not isinstance(data, (int, str)):
            raise serializers.ValidationError(
                "deal must be 'daily', 'random', a FreeCell deal number or a deal id"
            )
        return data

    def to_representation(self, value: object) -> object:
        return value


class StrictCharField(serializers.CharField):
    """A string, and only a string: DRF's CharField would take 0.0 as "0.0", which the
    schema (type: string) does not allow (found by the generated-input tests)."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer, and only that: DRF's IntegerField would take "3", 3.0 or true."""

    def to_internal_value(self, data: object) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class SeqField(StrictIntegerField):
    """A session's seq: an integer, 0 or more.  The minimum is checked here rather than
    declared (``min_value``) in the schema: the generated-input tests put the current seq
    in place of any generated integer, which would turn a case made invalid by a negative
    seq into a valid one."""

    default_error_messages = {"negative": "seq counts the moves the client has seen: 0 or more"}

    def to_internal_value(self, data: object) -> int:
        value = super().to_internal_value(data)
        if value < 0:
            self.fail("negative")
        return value


class GameField(serializers.ChoiceField):
    """A game key, checked against the engine's games as they are when the request is read
    (a game registered after this module was imported is a game too)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(GAMES), **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        self.choices = sorted(GAMES)
        self.error_messages["invalid_choice"] = f"unknown game; games: {', '.join(self.choices)}"
        return super().to_internal_value(data)


class StartSessionIn(serializers.Serializer):
    # DRF's own message quotes the input back, at whatever size it came.
    game = GameField()
    deal = DealField(required=False, default="daily", help_text=DealField.__doc__)


OP_HELP = (
    "the client's id for this operation (1-40 of A-Z a-z 0-9 _ -), sent again with "
    "the same seq when it is retried: a retry of a stored operation is answered with "
    "the state (repeated: true) and never stored twice"
)


class MoveIn(serializers.Serializer):
    seq = SeqField(help_text="moves the client has seen (the session's seq), 0 or more")
    move = StrictCharField(max_length=16, help_text="one move in the game's notation")
    op = StrictCharField(required=False, max_length=40, help_text=OP_HELP)


class OptionalSeqIn(serializers.Serializer):
    seq = SeqField(required=False, help_text="if given, must be current")
    op = StrictCharField(required=False, max_length=40, help_text=OP_HELP)


class MoveObject(serializers.Serializer):
    move = serializers.CharField()
    to = serializers.CharField()
    count = serializers.IntegerField()
    card = serializers.CharField(required=False)
    best = serializers.BooleanField(
        required=False, help_text="the move a tap on its card plays (the Klondike family)"
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = serializers.CharField()  # a Python keyword, so added here
        return fields


class ViewOut(serializers.Serializer):
    piles = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(allow_null=True)),
        help_text="pile name -> cards deepest first; null is a face-down card",
    )
    stock = serializers.IntegerField(required=False, help_text="cards left in the stock")
    draw = serializers.IntegerField(required=False)
    passes_left = serializers.IntegerField(required=False, allow_null=True)
    move_limit = serializers.IntegerField(required=False, help_text="FreeCell's 'Move N'")


class ReviewOut(serializers.Serializer):
    verified = serializers.BooleanField(allow_null=True, help_text="null until checked")
    state = serializers.ChoiceField(choices=["none", "pending", "cleared", "disqualified"])
    reasons = serializers.ListField(
        child=serializers.CharField(), help_text="why it is under review, one sentence each"
    )


class SessionOut(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    deal = serializers.CharField(help_text="public deal id (replays this deal)")
    deal_number = serializers.IntegerField(required=False, help_text="FreeCell only")
    date = serializers.DateField(allow_null=True, help_text="the day, for a daily deal")
    seq = serializers.IntegerField(help_text="moves (and undos) stored so far")
    status = serializers.ChoiceField(choices=["playing", "won", "resigned"])
    ranked = serializers.BooleanField()
    view = ViewOut()
    legal_moves = MoveObject(many=True)
    score = serializers.IntegerField(allow_null=True)
    cards_up = serializers.IntegerField()
    moves = serializers.IntegerField(help_text="moves on the table now")
    won = serializers.BooleanField()
    can_finish = serializers.BooleanField()
    no_legal_move = serializers.BooleanField()
    can_undo = serializers.BooleanField()
    undo_count = serializers.IntegerField()
    hint_count = serializers.IntegerField()
    time_ms = serializers.IntegerField(
        allow_null=True, help_text="the ranked clock: server time from the deal shown to the win"
    )
    clock_ms = serializers.IntegerField(
        help_text="the ranked clock now: time_ms once won, else the time since the deal was shown"
    )
    par = serializers.IntegerField(
        allow_null=True,
        help_text="the solver's move count for this deal (certified dailies); null for none",
    )
    difficulty = serializers.ChoiceField(
        choices=["easy", "medium", "hard"],
        allow_null=True,
        help_text="from the solver's effort; null unknown",
    )
    medal = serializers.ChoiceField(
        choices=["gold", "silver", "bronze"],
        allow_null=True,
        help_text="a win against par (docs/rules.md)",
    )
    created_at = serializers.DateTimeField(help_text="when the deal was first shown")
    active_ms = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="a won session's time with every gap over 60 s counted as 60 s",
    )
    review = ReviewOut(required=False, help_text="a won session's fair-play review")
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True, help_text="won or resigned at")
    op = serializers.CharField(required=False, help_text="the operation id this answers")
    repeated = serializers.BooleanField(
        required=False, help_text="true: this operation had been stored already; nothing new"
    )


class HintOut(SessionOut):
    hint = MoveObject(allow_null=True)
    # The answer's field is called "source", the name of a serializer's own attribute too.
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["solver", "heuristic", "unsolvable"],
        help_text="solver: on a winning line; unsolvable: proven lost from here",
    )
    verdict = serializers.ChoiceField(
        choices=["solved", "unsolvable", "unknown"],
        help_text="the solver's verdict on the position (unknown: no proof either way in time)",
    )


class ErrorOut(serializers.Serializer):
    error = serializers.CharField()
    reason = serializers.CharField()
    request_id = serializers.CharField(
        required=False,
        help_text="the request's id, also in the X-Request-ID header: quote "
        "it when reporting a problem (config/logs.py)",
    )


class ConflictOut(ErrorOut):
    seq = serializers.IntegerField(help_text="the session's current seq")


class RankedOpenOut(ErrorOut):
    session = serializers.UUIDField(help_text="the open ranked attempt: resume or resign it")


class IllegalOut(ErrorOut):
    seq = serializers.IntegerField()
    code = serializers.CharField(
        help_text="the refusal's stable code (games/engine/reasons.py), e.g. cannot_go_on"
    )
    params = serializers.DictField(
        help_text="the refusal's details: cards as codes (TD), suits as letters, ranks as "
        "names, column and cell numbers from 1"
    )


class DailyDealOut(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    deal = serializers.CharField(help_text="public deal id")
    deal_number = serializers.IntegerField(required=False, help_text="FreeCell only")
    certified = serializers.BooleanField(allow_null=True)
    playing = serializers.IntegerField(help_text="play sockets open on this deal now")
    commitment = serializers.CharField(help_text="published before the day (docs/deals.md)")
    par = serializers.IntegerField(allow_null=True, help_text="the solver's move count")
    difficulty = serializers.ChoiceField(
        choices=["easy", "medium", "hard"],
        allow_null=True,
        help_text="from the solver's effort (docs/rules.md)",
    )


class DailyOut(serializers.Serializer):
    date = serializers.DateField()
    deals = DailyDealOut(many=True)
    next_at = serializers.DateTimeField(help_text="when the next day's dailies open (UTC)")


class PlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    guest = serializers.BooleanField()
    username = serializers.CharField(allow_null=True)
    email = serializers.CharField(
        allow_null=True,
        help_text="the account's proven email (only the player sees it); null for a guest or none",
    )
    email_pending = serializers.CharField(
        allow_null=True,
        help_text="an address given and not yet proven by the link mailed "
        "to it (it serves a password reset only); null for none",
    )
    anonymous = serializers.BooleanField(help_text='named "anonymous" in the open data')
    hide_from_race = serializers.BooleanField(
        help_text="left out of the live race on ranked dailies"
    )
    csrf_token = serializers.CharField()


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false, and only that: DRF's BooleanField would take "yes" or 1."""

    def to_internal_value(self, data: object) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class RenameIn(serializers.Serializer):
    display_name = StrictCharField(required=False, help_text="3-24 letters, digits, spaces, _ - .")
    anonymous = StrictBooleanField(
        required=False,
        help_text='named "anonymous" in the open '
        "data of closed days (the boards still show the name)",
    )
    hide_from_race = StrictBooleanField(
        required=False, help_text="left out of the live race others see on a ranked daily"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("give display_name, anonymous or hide_from_race")
        return attrs


class CredentialsIn(serializers.Serializer):
    username = StrictCharField(help_text="to sign in: the username or the account's email")
    password = StrictCharField()


class SignUpIn(CredentialsIn):
    email = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=254,
        help_text="optional: lets a forgotten password be reset, and signs in as the username does",
    )


class EmailIn(serializers.Serializer):
    email = StrictCharField(allow_blank=True, max_length=254, help_text='"" removes it')
    password = StrictCharField(help_text="the account's current password")


class ShareOut(serializers.Serializer):
    text = serializers.CharField(
        help_text="two lines: the result, and five squares of "
        'progress (docs/rules.md, "Sharing a result")'
    )


class ReplayStepOut(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 is the deal, before any move")
    move = serializers.CharField(allow_null=True)
    at_ms = serializers.IntegerField(allow_null=True, help_text="server time, ms since the epoch")
    view = serializers.DictField(help_text="the table as its player saw it (as in a state)")
    cards_up = serializers.IntegerField()
    score = serializers.IntegerField(allow_null=True)


class ReplayOut(serializers.Serializer):
    session = serializers.UUIDField()
    game = serializers.CharField()
    deal = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    ranked = serializers.BooleanField()
    player = serializers.CharField()
    status = serializers.CharField()
    time_ms = serializers.IntegerField(allow_null=True)
    steps = ReplayStepOut(many=True)


class AnalysisOut(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["pending", "done", "unknown"],
        help_text="unknown: the solver ran out of its budget",
    )
    par = serializers.IntegerField(allow_null=True)
    full_knowledge = serializers.BooleanField(
        help_text="analysed with every card known (the Klondike family, after the day's close)"
    )
    waiting_for = serializers.CharField(required=False)
    turning_point = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="index in the stored moves of the move that lost the game; null for none",
    )
    losing_move = serializers.CharField(required=False, allow_null=True)
    winning_alternative = serializers.CharField(
        required=False, allow_null=True, help_text="a move that kept the win"
    )
    winning_line = serializers.ListField(
        child=serializers.CharField(), required=False, allow_null=True
    )
    losing = MoveObject(
        required=False,
        allow_null=True,
        help_text="the losing move as a move object: its card and piles",
    )
    alternative = MoveObject(
        required=False, allow_null=True, help_text="the winning alternative as a move object"
    )
    budget_seconds = serializers.FloatField(required=False)
    analysed_at = serializers.CharField(required=False)


class MeDeleteIn(serializers.Serializer):
    password = serializers.CharField(
        required=False, trim_whitespace=False, help_text="an account's password"
    )
    confirm = StrictBooleanField(required=False, help_text="a guest: true")
