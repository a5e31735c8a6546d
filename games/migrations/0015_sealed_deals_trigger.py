"""A committed deal is sealed (games/models.py ``Deal.SEALED``): beside the model's own
check, PostgreSQL refuses any UPDATE that changes a committed deal's game, seed, salt or
commitment, whatever wrote it (the admin, a queryset's update, raw SQL).  The refusal is a
check violation (SQLSTATE 23514), an IntegrityError to Django.  The reveal (revealed_at)
and the other columns stay writable here: the day's close writes the reveal.

Also the permission to see a committed deal's secrets before its reveal (each look is
audited: games/admin/deals.py).  SQLite (``make run``) has the model's check only."""

from django.db import migrations

CREATE = """
CREATE FUNCTION games_deal_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'deal % is committed: its game, seed, salt and commitment cannot change',
        OLD.id USING ERRCODE = 'check_violation',
        HINT = 'a daily is replaced by a new deal with a new commitment, before its day';
END $$;
CREATE TRIGGER games_deal_sealed BEFORE UPDATE ON games_deal FOR EACH ROW
    WHEN (OLD.commitment <> '' AND (NEW.game, NEW.seed, NEW.salt, NEW.commitment)
          IS DISTINCT FROM (OLD.game, OLD.seed, OLD.salt, OLD.commitment))
    EXECUTE FUNCTION games_deal_sealed();
"""
DROP = """
DROP TRIGGER IF EXISTS games_deal_sealed ON games_deal;
DROP FUNCTION IF EXISTS games_deal_sealed();
"""


def _run(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)  # no placeholders: the % is plpgsql's
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0014_move_rows"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="deal",
            options={"ordering": ["-date", "game"], "permissions": [
                ("view_deal_secrets", "Can see a committed deal's seed, salt and solver line "
                 "before its reveal (each look is audited)")]},
        ),
        migrations.RunPython(_run(CREATE), _run(DROP)),
    ]
