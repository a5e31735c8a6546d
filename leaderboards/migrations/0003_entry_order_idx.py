# The board's order with its tie-break (session id), so that the close's window function,
# the rank index's rebuild and a page read from PostgreSQL walk an index instead of sorting
# a day's entries.  The new index is built, then the old one dropped, and the player's own
# index with it (entry_player_idx leads with the player), all concurrently: boards and
# scoring go on meanwhile.
#
# Entries' pages are filled to half (fillfactor 50, PostgreSQL): the close writes every win's
# final rank once, and with room in its page each new row version stays there (a HOT update:
# no new entry in any index), where full pages made every one of them an insertion into
# each index of the table.  Entries are small beside sessions (about 150 bytes a row), so
# the room costs little; pages written before this keep theirs until rewritten.

import django.db.models.deletion
from django.db import migrations, models

from config.migration_ops import (
    AddIndexConcurrently,
    DropFieldIndexConcurrently,
    RemoveIndexConcurrently,
)


def half_full_pages(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboards_entry SET (fillfactor = 50)")


def full_pages(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboards_entry RESET (fillfactor)")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('games', '0013_session_indexes'),
        ('leaderboards', '0002_fair_play'),
    ]

    operations = [
        AddIndexConcurrently(
            model_name='entry',
            index=models.Index(fields=['game', 'date', 'sort_key', 'session'], name='entry_order_idx'),
        ),
        RemoveIndexConcurrently(
            model_name='entry',
            name='entry_rank_idx',
        ),
        DropFieldIndexConcurrently(
            model_name='entry',
            name='player',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='games.player'),
        ),
        migrations.RunPython(half_full_pages, full_pages, elidable=False),
    ]
