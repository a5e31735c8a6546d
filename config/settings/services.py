"""The services under the site: PostgreSQL (and its pool), Redis (one server or Sentinel),
the channel layer and the caches."""

from __future__ import annotations

import os

import dj_database_url

from .env import BASE_DIR, FRAMEWORK_PATCHES, TESTING, env_bool, env_int, env_list, env_str

_default_db = (
    "postgres://postgres@127.0.0.1:5432/solitaire"
    if TESTING
    else f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
)
DATABASES = {"default": dj_database_url.parse(env_str("DATABASE_URL", _default_db))}
DB_CHECK_AFTER_SECONDS = float(env_str("DB_CHECK_AFTER_SECONDS", "1"))
# Behind a pooler that hands a server connection to another client after every transaction
# (PgBouncer in transaction mode; docs/operations.md, "PgBouncer"), nothing may outlive a
# transaction on the server: no prepared statement (DB_SERVER_BINDING is off with it) and no
# server-side cursor (``.iterator()`` then reads its rows whole).
DB_TRANSACTION_POOLING = env_bool("DB_TRANSACTION_POOLING", False)
DB_SERVER_BINDING = env_bool("DB_SERVER_BINDING", True) and not DB_TRANSACTION_POOLING
if DB_TRANSACTION_POOLING:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_int("DB_POOL_SIZE", 20) > 0:
    # Under ASGI every HTTP request runs in a thread of its own, so a connection kept per
    # thread (CONN_MAX_AGE) would be a new connection per request, left open until the
    # thread is collected.  A pool per process hands the same few connections round
    # instead, and checks each one as it goes out, so one that died with a database restart
    # is replaced rather than failing a request; not one checked less than
    # DB_CHECK_AFTER_SECONDS ago (config/patches/psycopg_pool.py).
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 2, "max_size": env_int("DB_POOL_SIZE", 20), "timeout": 10},
    }
    if DB_SERVER_BINDING:
        # Parameters sent beside the statement instead of quoted into its text by psycopg
        # in Python, and a statement seen five times on a connection prepared there: parsed
        # and planned once: a random start cost the database half the CPU and us a fifth
        # less (bench/statement_binding.py).  Off behind a pooler that hands a connection to
        # another client between statements (DB_TRANSACTION_POOLING).  The socket's own
        # connections prepare as these do (``prepare_threshold``, games/live/driver.py).
        DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=5)
    if "pool_check" in FRAMEWORK_PATCHES:  # its check: config/patches/psycopg_pool.py
        DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 0 if TESTING else 60)
if TESTING:
    # One test database per run, so two runs on one machine never drop each other's.
    DATABASES["default"]["TEST"] = {"NAME": f"test_solitaire_{os.getpid()}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0" if TESTING else "")
# Redis through Sentinel (config/redis_client.py): every user of Redis follows the primary
# the Sentinels name, and REDIS_URL gives only the database and the password.
REDIS_SENTINELS = env_list("REDIS_SENTINELS")
REDIS_SENTINEL_MASTER = env_str("REDIS_SENTINEL_MASTER")
if REDIS_SENTINELS:
    from django.core.exceptions import ImproperlyConfigured

    from config.redis_client import parse_sentinels

    if not REDIS_SENTINEL_MASTER:
        raise ImproperlyConfigured(
            "REDIS_SENTINELS is set: set REDIS_SENTINEL_MASTER to the "
            "name the Sentinels monitor the primary by"
        )
    try:
        _sentinels = parse_sentinels(REDIS_SENTINELS)
    except ValueError as exc:
        raise ImproperlyConfigured(str(exc)) from exc
    REDIS_URL = REDIS_URL or "redis:///0"
else:
    _sentinels = []

# Keys this site keeps in Redis (rank indexes, presence, Celery's) start with this.  A test
# run's own (its process id), so two runs on one Redis never clear or read each other's keys.
REDIS_KEY_PREFIX = env_str(
    "REDIS_KEY_PREFIX", f"test-solitaire-{os.getpid()}" if TESTING else "solitaire"
)

if REDIS_URL:
    from config.redis_client import channel_hosts

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": channel_hosts(REDIS_URL, _sentinels, REDIS_SENTINEL_MASTER),
                "prefix": f"{REDIS_KEY_PREFIX}:asgi",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Django's cache: Redis, shared by every process (a copy kept in one process would go stale
# when another changes the thing), with short timeouts, as the rate limits' client: a Redis
# that stopped answering must not hold a request up.  Without Redis, each process its own.
if REDIS_URL:
    _redis_cache = {
        # One client per process, not per request (config/patches/django.py).
        "BACKEND": "config.patches.django.RedisCache"
        if "cache_client" in FRAMEWORK_PATCHES
        else "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_KEY_PREFIX}:cache",
        "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
    }
    # "sessions": the browser sessions read through it (games/accounts/session_life.py).
    CACHES = {"default": _redis_cache, "sessions": _redis_cache}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# How long a player's row is kept in Redis for the requests that read it; 0: not at all
# (games/accounts/player_cache.py).  Off in the test run: test runs side by side share one
# Redis, and ids repeat from one test database to the next.
PLAYER_CACHE_SECONDS = env_int("PLAYER_CACHE_SECONDS", 0 if TESTING else 60)
# How long a session's cached copy lives (PostgreSQL holds the session itself); 0: none.
SESSION_CACHE_SECONDS = env_int("SESSION_CACHE_SECONDS", 600)
# A live day's board counts its unfinished attempts (and orders them) at most this often, in
# a task (leaderboards/pending.py); the week and all-time boards are computed again at most
# this often after a change (leaderboards/periods.py).  0: at every request (the test run).
BOARD_COUNT_SECONDS = env_int("BOARD_COUNT_SECONDS", 0 if TESTING else 10)
PERIOD_BOARD_SECONDS = env_int("PERIOD_BOARD_SECONDS", 0 if TESTING else 60)
