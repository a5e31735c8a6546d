"""Index operations for big tables, safe under the release still serving: on PostgreSQL the
index is built (or dropped) CONCURRENTLY, so writes go on while it builds; elsewhere (SQLite,
a local run) the plain operation.  Django's own concurrent operations refuse any database
but PostgreSQL, and the site also migrates SQLite."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres import operations as pg
from django.db.migrations.operations import AddIndex, RemoveIndex


class AddIndexConcurrently(pg.AddIndexConcurrently):
    def database_forwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_forwards(self, app_label, schema_editor, *states)

    def database_backwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_backwards(self, app_label, schema_editor, *states)


class RemoveIndexConcurrently(pg.RemoveIndexConcurrently):
    def database_forwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, *states)
        else:
            RemoveIndex.database_forwards(self, app_label, schema_editor, *states)

    def database_backwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, *states)
        else:
            RemoveIndex.database_backwards(self, app_label, schema_editor, *states)
