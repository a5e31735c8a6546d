"""The project's Celery app with every task held for a few seconds before it runs, so a test
can kill the worker while a task is in progress."""

from __future__ import annotations

import time

from celery.signals import task_prerun

from config.celery import app

__all__ = ["app"]


@task_prerun.connect
def _hold(**kwargs: object) -> None:
    print("task started, holding", flush=True)
    time.sleep(30)
