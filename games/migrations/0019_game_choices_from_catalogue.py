"""A game's key is checked against the catalogue of game classes when it is asked
(``games.models.game_choices``), no longer against a list frozen in the migrations: a new
game needs no migration.  State only: choices are never in the database's schema."""

from django.db import migrations, models

import games.models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0018_gamesession_scoring"),
    ]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="game",
            field=models.CharField(choices=games.models.game_choices, max_length=32),
        ),
        migrations.AlterField(
            model_name="gamesession",
            name="game",
            field=models.CharField(choices=games.models.game_choices, max_length=32),
        ),
    ]
