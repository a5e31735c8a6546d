"""Moves get rows of their own (``Move``); the session's move list becomes ``legacy_moves``.

Safe with the previous release still serving: the list's column keeps its name ("moves")
and gains a database default, as the offline id does (the release before 0012 inserts
sessions without it); nothing is rewritten or locked for longer than a catalogue change,
and the new table is new.  Games stored in the list stay readable where they are
(games/play/moves.py reads a move from its row, else from the list); `manage.py
backfill_moves` copies them into rows in batches, whenever it suits.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0013_session_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField("gamesession", "moves", "legacy_moves"),
                migrations.AlterField(
                    model_name="gamesession", name="legacy_moves",
                    field=models.JSONField(blank=True, db_column="moves", default=list),
                ),
            ],
        ),
        migrations.AlterField(
            model_name="gamesession", name="legacy_moves",
            field=models.JSONField(blank=True, db_column="moves", db_default=[], default=list),
        ),
        migrations.AlterField(
            model_name="gamesession", name="offline_id",
            field=models.CharField(blank=True, db_default="", default="", max_length=40),
        ),
        migrations.CreateModel(
            name="Move",
            fields=[
                ("pk", models.CompositePrimaryKey("session", "seq", blank=True, editable=False,
                                                  primary_key=True, serialize=False)),
                ("seq", models.PositiveIntegerField()),
                ("token", models.CharField(max_length=16)),
                ("at_ms", models.BigIntegerField(help_text="server time, ms since the epoch")),
                ("op", models.CharField(blank=True, max_length=40, null=True)),
                ("session", models.ForeignKey(db_constraint=False, db_index=False,
                                              on_delete=django.db.models.deletion.CASCADE,
                                              related_name="+", to="games.gamesession")),
            ],
            options={"ordering": ["session", "seq"]},
        ),
    ]
