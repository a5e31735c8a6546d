# A partial index of the few disqualified attempts (the period boards leave them out by
# their ids); the foreign keys' own indexes dropped, as player_deal_idx and board_idx lead
# with the same columns, and the second (LIKE) index of each review key, which is only ever
# compared whole: each index is one more write on every session stored or updated (the
# day's close updates hundreds of thousands).  The admin's list walks the sessions newest
# first by their creation alone (admin_filter_idx led with the game and the status).  All
# concurrently: the sessions table is the busiest one.

import django.db.models.deletion
from django.db import migrations, models

from config.migration_ops import (
    AddIndexConcurrently,
    DropFieldIndexConcurrently,
    RemoveIndexConcurrently,
)

KEYS = [("client_key", "games_gamesession_client_key_e4ce2415", "session_client_key_idx"),
        ("device_key", "games_gamesession_device_key_dce63aa5", "session_device_key_idx")]


def keep_equality_index(apps, schema_editor):
    """The field's index takes the name its Meta gives it; PostgreSQL's LIKE twin goes."""
    q = schema_editor.quote_name
    for column, old, new in KEYS:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER INDEX IF EXISTS {q(old)} RENAME TO {q(new)}")
            schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {q(old + '_like')}")
        else:
            schema_editor.execute(f"DROP INDEX IF EXISTS {q(old)}")
            schema_editor.execute(f"CREATE INDEX {q(new)} ON games_gamesession ({q(column)})")


def back_to_field_index(apps, schema_editor):
    q = schema_editor.quote_name
    for column, old, new in KEYS:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER INDEX IF EXISTS {q(new)} RENAME TO {q(old)}")
            schema_editor.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {q(old + '_like')} ON "
                f"games_gamesession ({q(column)} varchar_pattern_ops)")
        else:
            schema_editor.execute(f"DROP INDEX IF EXISTS {q(new)}")
            schema_editor.execute(f"CREATE INDEX {q(old)} ON games_gamesession ({q(column)})")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('games', '0012_gamesession_offline_id'),
    ]

    operations = [
        AddIndexConcurrently(
            model_name='gamesession',
            index=models.Index(condition=models.Q(('disqualified', True)), fields=['game'], name='disqualified_idx'),
        ),
        AddIndexConcurrently(
            model_name='gamesession',
            index=models.Index(fields=['created_at'], name='session_created_idx'),
        ),
        RemoveIndexConcurrently(
            model_name='gamesession',
            name='admin_filter_idx',
        ),
        DropFieldIndexConcurrently(
            model_name='gamesession',
            name='deal',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='sessions', to='games.deal'),
        ),
        DropFieldIndexConcurrently(
            model_name='gamesession',
            name='player',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='sessions', to='games.player'),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='gamesession',
                    name='client_key',
                    field=models.CharField(blank=True, max_length=64),
                ),
                migrations.AlterField(
                    model_name='gamesession',
                    name='device_key',
                    field=models.CharField(blank=True, max_length=64),
                ),
                migrations.AddIndex(
                    model_name='gamesession',
                    index=models.Index(fields=['client_key'], name='session_client_key_idx'),
                ),
                migrations.AddIndex(
                    model_name='gamesession',
                    index=models.Index(fields=['device_key'], name='session_device_key_idx'),
                ),
            ],
            database_operations=[
                migrations.RunPython(keep_equality_index, back_to_field_index, elidable=False),
            ],
        ),
    ]
