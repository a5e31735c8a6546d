"""The Celery app: tasks live in each app's ``tasks.py`` and are found automatically.

Workers and beat log through Django's ``LOGGING`` (the same line format as the web
processes, the task's id in place of a request id), and beat writes a heartbeat that its
health check reads (``HeartbeatScheduler``, ``manage.py beat_alive``).
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from celery import Celery, signals
from celery.beat import PersistentScheduler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)


@signals.setup_logging.connect
def _django_logging(loglevel: int | str | None = None, **kwargs: Any) -> None:
    """Connected, so Celery leaves logging alone and Django's LOGGING is what applies;
    ``--loglevel`` (WARNING when not given) sets the level, as it did before."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


@signals.celeryd_init.connect
def _close_worker_transport(
    sender: Any = None, conf: Any = None, options: dict[str, Any] | None = None, **kwargs: Any
) -> None:
    """A worker that reads the close queue alone (``-Q $CELERY_CLOSE_QUEUE``) holds what it
    takes under unacknowledged keys of its own, for CELERY_CLOSE_VISIBILITY_TIMEOUT.

    The Redis transport hands a message out again once it has been unacknowledged for the
    visibility timeout, and every worker sweeps the one set of unacknowledged messages with
    its own timeout: with the close in that set, any worker with the ordinary two minutes
    would hand a long close to a second worker while the first still runs it (and a third,
    two minutes later).  Kept apart, only the close workers sweep the close's messages, with
    a timeout above the close's longest run; a close worker that dies still has its close
    handed out again (and beat's hourly catch-up asks for it anyway)."""
    from django.conf import settings

    queues = (options or {}).get("queues") or []
    if isinstance(queues, str):
        queues = queues.split(",")
    close = settings.CELERY_CLOSE_QUEUE
    if close not in queues or conf is None:
        return
    if set(queues) != {close}:
        log.warning(
            "this worker reads %s beside other queues: a close running longer than "
            "CELERY_VISIBILITY_TIMEOUT can be handed to a second worker; start a "
            "worker for it alone (celery -A config worker -Q %s)",
            close,
            close,
        )
        return
    conf.broker_transport_options = settings.CELERY_CLOSE_TRANSPORT_OPTIONS


@signals.task_prerun.connect
def _task_id_in_logs(task_id: str | None = None, **kwargs: Any) -> None:
    from config.logs import request_id_var

    request_id_var.set(f"task-{task_id}" if task_id else None)


@signals.beat_init.connect
def _catch_up(sender: Any = None, **kwargs: Any) -> None:
    """A beat that starts (a deploy, a restart) may have missed a midnight: the deals and
    the close are asked for once now; both tasks are idempotent and cheap when done."""
    for task in ("games.tasks.create_daily_deals", "leaderboards.tasks.close_day"):
        try:
            app.send_task(task)
        except Exception as exc:  # noqa: BLE001 - the hourly catch-up runs anyway
            log.warning("could not queue %s at beat start: %s", task, exc)


class HeartbeatScheduler(PersistentScheduler):
    """Beat's scheduler, writing a heartbeat to Redis as it ticks.  Written by beat itself
    (not by a task a worker runs), so it says that beat is alive, whatever the workers do."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._last_beat = 0.0
        self._redis: Any = None
        super().__init__(*args, **kwargs)

    def setup_schedule(self) -> None:
        directory = Path(self.schedule_filename).parent
        if not directory.exists():
            directory.mkdir(parents=True, exist_ok=True)
            # The default state directory is inside the checkout (a local run): keep it
            # out of version control.
            (directory / ".gitignore").write_text("*\n")
        super().setup_schedule()

    def tick(self, *args: Any, **kwargs: Any) -> float:
        interval: float = super().tick(*args, **kwargs)
        self._heartbeat()
        return interval

    def _heartbeat(self) -> None:
        from django.conf import settings

        if not settings.REDIS_URL:
            return
        now = time.monotonic()
        if now - self._last_beat < settings.BEAT_HEARTBEAT_SECONDS / 2:
            return
        from config.health import write_heartbeat

        try:
            if self._redis is None:
                from config import redis_client

                self._redis = redis_client.client(timeout=2)
            write_heartbeat(self._redis)
            self._last_beat = now
        except Exception as exc:  # noqa: BLE001 - beat goes on; its health check will tell
            log.warning("beat heartbeat not written: %s", exc)


# Every task's outcome, counted for /metrics (config/metrics.py).
from config import metrics as _metrics  # noqa: E402

_metrics.connect_celery()
