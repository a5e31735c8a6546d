"""Emails are proven by a link before they are used (games/accounts/verification.py): the
pending addresses, and every address stored before this, which was stored on the
password's word, moved to them.  Those accounts keep their address for a password reset
(a completed reset proves it) and prove it from their account page to sign in with it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def unproven(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    PendingEmail = apps.get_model("games", "PendingEmail")
    for user in User.objects.exclude(email="").only("pk", "email").iterator():
        PendingEmail.objects.create(user_id=user.pk, address=user.email)
    User.objects.exclude(email="").update(email="")


def proven_again(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    PendingEmail = apps.get_model("games", "PendingEmail")
    for pending in PendingEmail.objects.iterator():
        if not User.objects.filter(email__iexact=pending.address).exists():
            User.objects.filter(pk=pending.user_id, email="").update(email=pending.address)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0015_sealed_deals_trigger'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PendingEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('address', models.CharField(max_length=254)),
                ('asked_at', models.DateTimeField(auto_now=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='pending_email', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.RunPython(unproven, proven_again),
    ]
