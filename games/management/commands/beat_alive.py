"""Exit 0 when Celery beat's heartbeat is fresh in Redis, 1 otherwise (beat's health check)."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.REDIS_URL:
            raise CommandError("REDIS_URL is not set: beat keeps no heartbeat without Redis")
        import redis

        from config import redis_client
        from config.health import heartbeat_key, read_heartbeat

        client = redis_client.new_client(timeout=3)
        try:
            beat = read_heartbeat(client)
        except (redis.RedisError, ValueError) as exc:
            raise CommandError(f"cannot read beat's heartbeat: {exc}") from exc
        finally:
            client.close()
        if beat is None:
            raise CommandError(
                f"no heartbeat from beat in the last "
                f"{settings.BEAT_HEARTBEAT_MAX_AGE} s ({heartbeat_key()})"
            )
        age = time.time() - float(beat["at"])
        if age > settings.BEAT_HEARTBEAT_MAX_AGE:
            raise CommandError(f"beat's last heartbeat is {age:.0f} s old")
        self.stdout.write(
            f"beat alive: heartbeat {age:.1f} s ago from {beat.get('host')} pid {beat.get('pid')}"
        )
