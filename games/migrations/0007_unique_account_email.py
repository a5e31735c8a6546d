"""One account per email address (games/accounts/recovery.py): a unique index on the
lower-cased address, empty addresses (most accounts, and every guest's) left out.  Django's
own ``auth_user`` has no such constraint; an index is the one place two racing sign-ups
cannot both pass.  The same SQL works on PostgreSQL and SQLite (both have expression and
partial indexes)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0006_review_queue"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE UNIQUE INDEX games_account_email_unique ON auth_user (LOWER(email)) "
            "WHERE email <> ''",
            "DROP INDEX games_account_email_unique",
        ),
    ]
