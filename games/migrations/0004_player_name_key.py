"""Player.name_key: what a display name looks like, unique among players.

Existing names get their key oldest player first; a later player whose name looks like an
earlier one's gets none and keeps the name until renaming (a NULL key collides with
nothing), so no one loses a name by this migration.
"""

from django.db import migrations, models


def backfill(apps, schema_editor):
    # The key is the one the site computes for every new name; a copy here could drift
    # from it, and then keys written now would not match the names checked later.
    from games.accounts.players import name_key

    Player = apps.get_model("games", "Player")
    seen: set[str] = set()
    batch = []
    for player in Player.objects.order_by("id").only("id", "display_name").iterator():
        key = name_key(player.display_name)
        if key in seen or len(key) > 255:  # 255: the column; no name the site took is longer
            continue
        seen.add(key)
        player.name_key = key
        batch.append(player)
        if len(batch) >= 1000:
            Player.objects.bulk_update(batch, ["name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_sealed_deals"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(
                blank=True, editable=False, max_length=255, null=True, unique=True
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
