# A partial index of the few disqualified attempts (the period boards leave them out by
# their ids); the foreign keys' own indexes dropped, as player_deal_idx and board_idx lead
# with the same columns and each index is one more write on every session stored or updated
# (the day's close updates hundreds of thousands).  All concurrently: the sessions table is
# the busiest one.

import django.db.models.deletion
from django.db import migrations, models

from config.migration_ops import AddIndexConcurrently, DropFieldIndexConcurrently


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
    ]
