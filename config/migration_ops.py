"""Index operations for big tables, safe under the release still serving: on PostgreSQL the
index is built (or dropped) CONCURRENTLY, so writes go on while it builds; elsewhere (SQLite,
a local run) the plain operation.  Django's own concurrent operations refuse any database
but PostgreSQL, and the site also migrates SQLite."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres import operations as pg
from django.db.migrations.operations import AddIndex, AlterField, RemoveIndex


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


class DropFieldIndexConcurrently(AlterField):
    """A field that loses its own index (``db_index=False`` on a foreign key whose lookups
    another index leads with): on PostgreSQL the index Django made for the field, and only
    that one, is dropped CONCURRENTLY; elsewhere the plain AlterField."""

    atomic = False

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = from_state.apps.get_model(app_label, self.model_name)
        field = model._meta.get_field(self.name)
        name = schema_editor._create_index_name(model._meta.db_table, [field.column])
        schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {schema_editor.quote_name(name)}")
        return None

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        model = to_state.apps.get_model(app_label, self.model_name)
        field = model._meta.get_field(self.name)
        name = schema_editor._create_index_name(model._meta.db_table, [field.column])
        schema_editor.execute(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {schema_editor.quote_name(name)} ON "
            f"{schema_editor.quote_name(model._meta.db_table)} "
            f"({schema_editor.quote_name(field.column)})"
        )
        return None
