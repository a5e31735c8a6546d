"""Celery: the broker, the queues, the worker's delivery guarantees and beat's schedule."""

from __future__ import annotations

from pathlib import Path

from celery.schedules import crontab

from config.redis_client import broker

from .env import BASE_DIR, TESTING, env_bool, env_int, env_str
from .play import DAILY_TIME_ZONE
from .services import REDIS_KEY_PREFIX, REDIS_SENTINEL_MASTER, REDIS_URL, _sentinels

# Celery: JSON messages carrying ids; late acks so a worker killed mid-task loses nothing.
# Its keys under the site's prefix, through Sentinel when the site's Redis is.
CELERY_BROKER_URL, _broker_options = (
    broker(REDIS_URL, _sentinels, REDIS_SENTINEL_MASTER, REDIS_KEY_PREFIX)
    if REDIS_URL
    else ("memory://", {})
)
CELERY_RESULT_BACKEND = None
# Tests run tasks inline unless a test starts a real worker (it switches this off).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL or TESTING)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# An unacknowledged task (its worker died) is handed out again after this long.
# Workers sweep for such tasks every CELERY_RESTORE_INTERVAL seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 120),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": 1,
    **_broker_options,
}
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "solitaire")
# The day's close and the rank index's rebuild run on a queue of their own, read by workers
# started for it alone (`celery worker -Q <it>`): those hold a message for
# CELERY_CLOSE_VISIBILITY_TIMEOUT seconds, above a close's longest run, under unacknowledged
# keys of their own, so no worker hands a running close to another (config/celery.py).
CELERY_CLOSE_QUEUE = env_str("CELERY_CLOSE_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-close")
CELERY_CLOSE_VISIBILITY_TIMEOUT = env_int("CELERY_CLOSE_VISIBILITY_TIMEOUT", 7200)
CELERY_CLOSE_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "visibility_timeout": CELERY_CLOSE_VISIBILITY_TIMEOUT,
    "unacked_key": "unacked-close",
    "unacked_index_key": "unacked-close-index",
    "unacked_mutex_key": "unacked-close-mutex",
}
# Games a close works on at once, each on a connection of its own (leaderboards/closing.py).
CLOSE_WORKERS = env_int("CLOSE_WORKERS", 2)
CELERY_TASK_ROUTES = {
    "leaderboards.tasks.close_day": {"queue": CELERY_CLOSE_QUEUE},
    "leaderboards.tasks.rebuild_rank_index": {"queue": CELERY_CLOSE_QUEUE},
}
# The post-game analyses ("where was it lost?", games/daily/analysis.py) go to a queue of their
# own, which a worker of its own takes (docker-compose.yml's analyst, scripts/run.py): a
# flood of analyses never waits ahead of a win's scoring, nor takes its workers.
ANALYSIS_QUEUE = env_str("ANALYSIS_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-analysis")
# Beat's crontabs follow the daily clock: midnight is the daily time zone's midnight.
CELERY_TIMEZONE = DAILY_TIME_ZONE
# One minute past midnight, so that a worker whose clock is a little behind beat's still
# takes the new day for today.  Every task is idempotent: the hourly runs heal a missed
# midnight (beat down, every worker down) at little cost, and beat asks for both once as it
# starts (config/celery.py).
CELERY_BEAT_SCHEDULE = {
    "create-daily-deals": {
        "task": "games.tasks.create_daily_deals",
        "schedule": crontab(minute=1, hour=0),
    },
    "close-yesterday": {
        "task": "leaderboards.tasks.close_day",
        "schedule": crontab(minute=1, hour=0),
    },
    "create-daily-deals-catch-up": {
        "task": "games.tasks.create_daily_deals",
        "schedule": crontab(minute=17),
    },
    "close-yesterday-catch-up": {
        "task": "leaderboards.tasks.close_day",
        "schedule": crontab(minute=23),
    },
    # Nightly, at a quiet hour; sessions live a year, so a night missed costs nothing.
    "clear-expired-sessions": {
        "task": "games.tasks.clear_expired_sessions",
        "schedule": crontab(minute=41, hour=3),
    },
}
# Beat writes a heartbeat to Redis every BEAT_HEARTBEAT_SECONDS (config/celery.py) that
# lives BEAT_HEARTBEAT_MAX_AGE; `manage.py beat_alive` fails once it is gone.
CELERY_BEAT_SCHEDULER = "config.celery:HeartbeatScheduler"
BEAT_HEARTBEAT_SECONDS = env_int("BEAT_HEARTBEAT_SECONDS", 30)
BEAT_HEARTBEAT_MAX_AGE = env_int("BEAT_HEARTBEAT_MAX_AGE", 3 * BEAT_HEARTBEAT_SECONDS)
CELERY_BEAT_MAX_LOOP_INTERVAL = BEAT_HEARTBEAT_SECONDS
# State of this instance alone (beat's schedule: when each entry last ran), never a name
# shared in /tmp: in a container, a volume of its own.
STATE_DIR = Path(env_str("STATE_DIR", str(BASE_DIR / "var")))
CELERY_BEAT_SCHEDULE_FILENAME = str(STATE_DIR / "celerybeat-schedule")
