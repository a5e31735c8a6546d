from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_session_analysis'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='hide_from_race',
            field=models.BooleanField(default=False),
        ),
    ]
