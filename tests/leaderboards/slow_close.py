"""The project's Celery app with the day's close held for HOLD_SECONDS before it runs (a
close of a million sessions, as far as the broker can tell), saying when it starts."""

from __future__ import annotations

import os
import time
from typing import Any

from celery.signals import task_prerun

from config.celery import app

__all__ = ["app"]


@task_prerun.connect
def _hold(task_id: str | None = None, task: Any = None, **kwargs: object) -> None:
    if task is not None and task.name == "leaderboards.tasks.close_day":
        print(f"close started {task_id}", flush=True)
        time.sleep(float(os.environ.get("HOLD_SECONDS", "8")))
