# A partial index of the few disqualified attempts (the period boards leave them out by
# their ids), built concurrently: the sessions table is the busiest one.

from django.db import migrations, models

from config.migration_ops import AddIndexConcurrently


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
    ]
