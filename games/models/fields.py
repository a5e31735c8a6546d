"""The fields and defaults the models are made of: a deal's seed as decimal text, the games
of the catalogue as choices, a deal's random public id."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from games.engine import GAMES
from games.engine.deals import SEED_MAX


def game_choices() -> list[tuple[str, str]]:
    """The games of the catalogue (games.engine.GAMES), read when asked: validation and the
    admin's filters take them from the game classes, and a migration names this function,
    never the list, so a new game needs no migration."""
    return [(key, cls.title) for key, cls in GAMES.items()]


def new_public_id() -> str:
    # Random, never derived from the seed: a Klondike public id must not reveal the stock.
    return secrets.token_urlsafe(9)


class SeedField(models.CharField):
    """A deal's seed, an integer up to ``SEED_MAX`` (78 digits: version 2 seeds carry a
    256-bit key, see games/engine/deals.py).  No database integer type holds that, so it is
    stored as its decimal text and read back as an ``int``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", len(str(SEED_MAX)))
        super().__init__(*args, **kwargs)

    @property
    def validators(self) -> list[Any]:
        return [_check_seed]  # not CharField's length check, which cannot measure an int

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> int | None:
        return None if value is None else int(value)

    def to_python(self, value: Any) -> int | None:
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        text = str(value).strip()
        if not text.isdigit() or not text.isascii():
            raise ValidationError(f"a seed is a whole number from 0 to {SEED_MAX}")
        return int(text)

    def get_prep_value(self, value: Any) -> str | None:
        value = self.to_python(value)
        return None if value is None else str(value)

    def deconstruct(self) -> Any:
        # The name the migrations know it by (games.models re-exports it).
        name, _, args, kwargs = super().deconstruct()
        return name, "games.models.SeedField", args, kwargs

    def value_to_string(self, obj: models.Model) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else str(value)


def _check_seed(value: int) -> None:
    if not 0 <= value <= SEED_MAX:
        raise ValidationError(f"a seed is a whole number from 0 to {SEED_MAX}")
