"""INSERT statements written once per model, for the rows made on every start of a session.

The ORM builds each INSERT anew: its compiler, every field's SQL and placeholder, the
RETURNING clause.  For the session and deal rows made when a game starts that cost about
as much CPU as the round trip it pays for (bench/http_cost.py).  Only the SQL is fixed
here; the values are the ORM's own (each field's ``pre_save`` and ``get_db_prep_save``, so
defaults, ``auto_now_add``, the seed's text form and JSON all come from the model), so a
field added to the model is inserted here too.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper


def fields(model: type[models.Model], pk: bool = True) -> list[models.Field[Any, Any]]:
    """The columns an INSERT of ``model`` writes, in order (the primary key only when it
    is set in Python, not by the database)."""
    return [f for f in model._meta.concrete_fields if pk or not f.primary_key]


def values(
    obj: models.Model, of: list[models.Field[Any, Any]], connection: BaseDatabaseWrapper
) -> list[Any]:
    """What the ORM would send for ``obj``'s new row, column by column."""
    return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in of]


def saved(obj: models.Model, using: str) -> None:
    """``obj`` as the ORM leaves a row it has just inserted."""
    obj._state.adding = False
    obj._state.db = using
