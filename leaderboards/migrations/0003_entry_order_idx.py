# The board's order with its tie-break (session id), so that the close's window function,
# the rank index's rebuild and a page read from PostgreSQL walk an index instead of sorting
# a day's entries.  The new index is built, then the old one dropped, and the player's own
# index with it (entry_player_idx leads with the player), all concurrently: boards and
# scoring go on meanwhile.

import django.db.models.deletion
from django.db import migrations, models

from config.migration_ops import (
    AddIndexConcurrently,
    DropFieldIndexConcurrently,
    RemoveIndexConcurrently,
)


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
    ]
