"""One environment-driven settings file.

With nothing configured the site runs on a bare machine: SQLite, an in-memory channel layer
and Celery tasks run inline.  ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and
Redis.  Under pytest the defaults are the local PostgreSQL and Redis, because the tests must
exercise the real services (row locks, sorted sets) that production relies on.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import sys
from pathlib import Path

import dj_database_url
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent
TESTING = "pytest" in sys.modules


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if not value:  # unset, or set empty (compose's ${NAME:-}): the default, as env_int
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def local_secrets(path: Path) -> dict[str, str]:
    """Random secrets made once for this checkout and kept in ``path`` (never committed), so
    a local run (DEBUG on) never deals from a key anybody else knows."""
    import json
    import secrets

    try:
        return dict(json.loads(path.read_text()))
    except (OSError, ValueError):
        pass
    made = {"SECRET_KEY": secrets.token_urlsafe(50), "DAILY_SECRET": secrets.token_urlsafe(32)}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(made, f)
    return made


DEBUG = env_bool("DEBUG", False)
# Every future daily follows from DAILY_SECRET, and sessions are signed with SECRET_KEY: a
# server must never run on a value written anywhere public.  With DEBUG off both must come
# from the environment; a local run (DEBUG on, `make run`) makes its own random pair; the
# test run uses throwaway values, passed on to the servers the tests start.
if TESTING:
    for _name in ("SECRET_KEY", "DAILY_SECRET"):
        os.environ.setdefault(_name, f"test-run-only-{_name.lower()}-" + "x" * 40)
_missing = [n for n in ("SECRET_KEY", "DAILY_SECRET") if not env_str(n)]
if _missing and DEBUG:
    _local = local_secrets(BASE_DIR / ".local-secrets.json")
    for _name in _missing:
        os.environ[_name] = _local[_name]
elif _missing:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"{' and '.join(_missing)} must be set in the environment when DEBUG is off (every "
        "daily deal follows from DAILY_SECRET). Make each with: python -c 'import secrets; "
        "print(secrets.token_urlsafe(50))'. For a local run use `make run`, or DEBUG=1."
    )
SECRET_KEY = env_str("SECRET_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# The daily seeds are derived from this secret: whoever knows it can predict every deal.
DAILY_SECRET = env_str("DAILY_SECRET")
DAILY_TIME_ZONE = env_str("DAILY_TIME_ZONE", "UTC")
# The daily calendar runs this many seconds ahead of the real clock (games/days.py): tests
# that cross a midnight, or a rehearsal of days to come.  Stored times stay real.  0 in use.
DAILY_CLOCK_SHIFT_SECONDS = env_int("DAILY_CLOCK_SHIFT_SECONDS", 0)
DAILY_DAYS_AHEAD = env_int("DAILY_DAYS_AHEAD", 2)
SOLVER_BUDGET_SECONDS = float(env_str("SOLVER_BUDGET_SECONDS", "10"))  # per candidate, ahead
# Solver seconds for one game's "where was it lost?" analysis (games/analysis.py), spent in
# a worker over about a dozen searches.
ANALYSIS_SECONDS = float(env_str("ANALYSIS_SECONDS", "20"))
# A daily missing at request time (the schedule missed it) is certified with a short budget;
# tests skip that so their run time does not depend on the day's deals.
SOLVER_REQUEST_BUDGET_SECONDS = float(env_str("SOLVER_REQUEST_BUDGET_SECONDS", "2"))
DAILY_CERTIFY_ON_DEMAND = env_bool("DAILY_CERTIFY_ON_DEMAND", not TESTING)
# Every hint is searched in a pool of worker processes (games/play/hint_pool.py), at most
# HINT_BUDGET_SECONDS (with its fallback, an answer within the second): HINT_WORKERS of them
# (0: hints are refused, 503), HINT_QUEUE more searches may wait for one (the player who
# used the least solver time first), and each player has HINT_SECONDS_PER_MINUTE of solver
# time a minute (0: no limit; past it 429).  A refused hint is answered after
# HINT_REFUSED_WAIT seconds, so a client looping on refusals asks about once a second.
HINT_BUDGET_SECONDS = float(env_str("HINT_BUDGET_SECONDS", "0.8"))
HINT_WORKERS = env_int("HINT_WORKERS", max(1, (os.cpu_count() or 2) - 1))
HINT_QUEUE = env_int("HINT_QUEUE", 2 * max(1, HINT_WORKERS))
HINT_SECONDS_PER_MINUTE = float(env_str("HINT_SECONDS_PER_MINUTE", "10"))
HINT_REFUSED_WAIT = float(env_str("HINT_REFUSED_WAIT", "1.0"))
# A socket move's dead-end verdict gets DEAD_END_LOOP_MS of the event loop; one that needs
# more is settled in DEAD_END_WORKERS worker processes and sent after the move's answer when
# it is a dead end (games/play/verdicts.py; 0 workers: settled on the loop, however long).
DEAD_END_LOOP_MS = float(env_str("DEAD_END_LOOP_MS", "0.5"))
DEAD_END_WORKERS = env_int("DEAD_END_WORKERS", 1)
# ...after the player has stayed DEAD_END_SETTLE_MS on the position: a search for one the
# player has already left is work for nobody.
DEAD_END_SETTLE_MS = float(env_str("DEAD_END_SETTLE_MS", "150"))
# Solver verdicts on the day's deals, shared in Redis (games/play/analysis_cache.py): each
# entry kept this many days, at most ANALYSIS_CACHE_MAX entries of each kind per daily.
ANALYSIS_CACHE_DAYS = float(env_str("ANALYSIS_CACHE_DAYS", "3"))
ANALYSIS_CACHE_MAX = env_int("ANALYSIS_CACHE_MAX", 200_000)

# Fair-play review of ranked wins (games/review.py, docs/rules.md "Fair play"): a win whose
# signals cross one of these is under review until an operator clears or disqualifies it.
# How they were chosen: docs/rules.md.  Gaps are between two of the player's operations,
# measured by the server; the finish's mechanical moves are left out.
# Where moves are written (games/play/moves.py): "rows", one row a move; "dual", the legacy
# list of the session too, while the previous release (which reads only that list) still
# serves during a deploy (docs/operations.md, "Upgrading").
MOVE_STORE = env_str("MOVE_STORE", "rows")
if MOVE_STORE not in ("rows", "dual"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"MOVE_STORE is 'rows' or 'dual', not {MOVE_STORE!r}")
REVIEW = {
    "fast_gap_ms": env_int("REVIEW_FAST_GAP_MS", 150),
    "max_fast_share": float(env_str("REVIEW_MAX_FAST_SHARE", "0.25")),
    "min_median_gap_ms": env_int("REVIEW_MIN_MEDIAN_GAP_MS", 250),
    "min_first_move_ms": env_int("REVIEW_MIN_FIRST_MOVE_MS", 1000),
    "max_line_share": float(env_str("REVIEW_MAX_LINE_SHARE", "0.9")),
}
# For a game with no hidden card, the review also solves from up to REVIEW_SOLVES points of
# a win's path (games/line_share.py), each search capped at REVIEW_SOLVE_STATES states: a
# scoring task's cost grows with both (0 solves: the certified line alone).
REVIEW_SOLVES = env_int("REVIEW_SOLVES", 3)
REVIEW_SOLVE_STATES = env_int("REVIEW_SOLVE_STATES", 20_000)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "config.apps.StaticFilesConfig",  # django.contrib.staticfiles, the tests' files left out
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # /api/docs/'s Swagger UI from this site, not a CDN
    "channels",
    "axes",  # sign-in lockouts (AXES_* below)
    "csp",  # Content-Security-Policy (CONTENT_SECURITY_POLICY below)
    "games",
    "leaderboards",
]
# The migration linter (make lint; a development tool, not in the image).
if importlib.util.find_spec("django_migration_linter") is not None:
    INSTALLED_APPS.append("django_migration_linter")
# The front end is developed alongside; the server must start before it exists.
if importlib.util.find_spec("frontend") is not None:
    INSTALLED_APPS.append("frontend")

MIDDLEWARE = [
    # First, so every answer (the other middleware's too) carries the request's id.
    "config.logs.RequestIdMiddleware",
    "config.metrics.RequestMetricsMiddleware",  # requests by view and status (/metrics)
    "django.middleware.security.SecurityMiddleware",
    "config.security.CSPMiddleware",  # django-csp, with the socket's origin added
    "config.errors.DatabaseUnavailableMiddleware",  # 503 + Retry-After in a DB outage
    "config.errors.BodyLimitMiddleware",  # JSON 413 for oversized API bodies, unread
    # A guest's POST /api/sessions/ answered here, the DRF view's answer without the layers
    # below (games/api/starts.py); every other request goes on.
    "games.api.starts.LeanStartMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "games.accounts.session_life.SessionLifeMiddleware",  # renews a guest's year-long session daily
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # the admin's lockout page
    # Last, and sync only on purpose: under ASGI, Django then runs the whole chain in one
    # thread.  A sync-only middleware higher up leaves the ones below it in async mode, and
    # each of their hooks then hops to a thread of its own (a dozen hops a request).
    "games.accounts.devices.DeviceCookieMiddleware",  # links attempts from one browser
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

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
    # DB_CHECK_AFTER_SECONDS ago (config/dbpool.py).
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
    DATABASES["default"]["ENGINE"] = "config.postgresql"  # its check: config/dbpool.py
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
        raise ImproperlyConfigured("REDIS_SENTINELS is set: set REDIS_SENTINEL_MASTER to the "
                                   "name the Sentinels monitor the primary by")
    try:
        _sentinels = parse_sentinels(REDIS_SENTINELS)
    except ValueError as exc:
        raise ImproperlyConfigured(str(exc)) from exc
    REDIS_URL = REDIS_URL or "redis:///0"
else:
    _sentinels = []

# Keys this site keeps in Redis (rank indexes, presence, Celery's) start with this.  A test
# run's own (its process id), so two runs on one Redis never clear or read each other's keys.
REDIS_KEY_PREFIX = env_str("REDIS_KEY_PREFIX",
                           f"test-solitaire-{os.getpid()}" if TESTING else "solitaire")

if REDIS_URL:
    from config.redis_client import broker, channel_hosts

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": channel_hosts(REDIS_URL, _sentinels, REDIS_SENTINEL_MASTER),
                       "prefix": f"{REDIS_KEY_PREFIX}:asgi"},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Django's cache: Redis, shared by every process (a copy kept in one process would go stale
# when another changes the thing), with short timeouts, as the rate limits' client: a Redis
# that stopped answering must not hold a request up.  Without Redis, each process its own.
if REDIS_URL:
    _redis_cache = {
        "BACKEND": "config.cache.RedisCache",  # one client per process, not per request
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_KEY_PREFIX}:cache",
        "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
    }
    # "sessions": the browser sessions read through it (games/accounts/session_life.py).
    CACHES = {"default": _redis_cache, "sessions": _redis_cache}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Idle threads kept for Django's HTTP requests under ASGI (config/threads.py); 0: Django's
# own ASGI handler, a new thread for every request.
REQUEST_THREADS = env_int("REQUEST_THREADS", 32)
# Megabytes of tables a process keeps between moves, at most (games/play/tables.py).
TABLES_MAX_MB = env_int("TABLES_MAX_MB", 100)
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

# Celery: JSON messages carrying ids; late acks so a worker killed mid-task loses nothing.
# Its keys under the site's prefix, through Sentinel when the site's Redis is.
CELERY_BROKER_URL, _broker_options = (
    broker(REDIS_URL, _sentinels, REDIS_SENTINEL_MASTER, REDIS_KEY_PREFIX) if REDIS_URL
    else ("memory://", {}))
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
# The post-game analyses ("where was it lost?", games/analysis.py) go to a queue of their
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
    "create-daily-deals": {"task": "games.tasks.create_daily_deals",
                           "schedule": crontab(minute=1, hour=0)},
    "close-yesterday": {"task": "leaderboards.tasks.close_day",
                        "schedule": crontab(minute=1, hour=0)},
    "create-daily-deals-catch-up": {"task": "games.tasks.create_daily_deals",
                                    "schedule": crontab(minute=17)},
    "close-yesterday-catch-up": {"task": "leaderboards.tasks.close_day",
                                 "schedule": crontab(minute=23)},
    # Nightly, at a quiet hour; sessions live a year, so a night missed costs nothing.
    "clear-expired-sessions": {"task": "games.tasks.clear_expired_sessions",
                               "schedule": crontab(minute=41, hour=3)},
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
# Health (config/health.py): each readiness probe waits at most HEALTH_TIMEOUT_SECONDS for
# a part, and an answer is reused for HEALTH_CACHE_SECONDS.
HEALTH_TIMEOUT_SECONDS = float(env_str("HEALTH_TIMEOUT_SECONDS", "2"))
HEALTH_CACHE_SECONDS = float(env_str("HEALTH_CACHE_SECONDS", "1"))
# Who may read /metrics (config/metrics.py): addresses or networks, comma-separated.
METRICS_ALLOWED_NETWORKS = env_list("METRICS_ALLOWED_NETWORKS", "127.0.0.0/8,::1")

# django-axes refuses a username after AXES_FAILURE_LIMIT wrong passwords from one address
# (the admin's and the API's sign-in alike), for AXES_COOLOFF_MINUTES.  Counted per username
# and address together, so nobody can lock an operator out from somewhere else; the address
# is REMOTE_ADDR, as for the rate limits, never a header a client could forge.  The count
# lives in PostgreSQL (axes' database handler), shared by every process.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "games.accounts.players.client_ip"
AXES_RESET_ON_SUCCESS = True
# A try during the lockout neither counts nor extends it: the wait told is the wait.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True  # no row per successful sign-in; failures are still counted

# Mail (password resets): printed to the console unless EMAIL_HOST names an SMTP server.
# EMAIL_BACKEND may name another of Django's backends (the browser tests write files into
# EMAIL_FILE_PATH to read the link from).
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or ("django.core.mail.backends.smtp.EmailBackend"
                        if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_SSL:  # implicit TLS (port 465) and STARTTLS cannot both be on
    EMAIL_USE_TLS = False
EMAIL_TIMEOUT = 10
if env_str("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "Daily Solitaire <noreply@localhost>"
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A reset link works once, for this long (Django's default is three days).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3 * 3600)
# A link proving an account's email works this long (games/accounts/verification.py).
EMAIL_VERIFY_TIMEOUT = env_int("EMAIL_VERIFY_TIMEOUT", 3 * 24 * 3600)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Tests create many accounts; the slow hasher would dominate their run time.
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LANGUAGE_CODE = "en-us"
LANGUAGES = [("en", "English"), ("fr", "Français")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# This process serves /static/ itself, ahead of Django (ServeStatic: config/static.py).
SERVE_STATIC = env_bool("SERVE_STATIC", True)
# With DEBUG off every file is collected under a hashed name, with .br and .gz beside it,
# and only the hashed names are kept: a name always means one content, so browsers and
# CDNs may keep it a year, and no page can load a file by a plain name whose content
# changes with a deploy.  With DEBUG on the same storage hands out plain names and nothing
# needs collecting (make run).  In-process tests render pages with nothing collected.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
                    if TESTING else "servestatic.storage.CompressedManifestStaticFilesStorage"},
}
SERVESTATIC_KEEP_ONLY_HASHED_FILES = True
# Source maps are for developer tools only: compressing them would double collectstatic's time.
SERVESTATIC_SKIP_COMPRESS_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "woff", "woff2",
                                        "gz", "br", "zip", "map"]

SESSION_COOKIE_SAMESITE = "Lax"
# A guest is its browser session: it lives a year and is renewed as the guest plays, at most
# once a day (games/session_life.py); games.tasks.clear_expired_sessions deletes the dead.
SESSION_ENGINE = "games.accounts.session_life"
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 365 * 24 * 3600)
CSRF_COOKIE_SAMESITE = "Lax"
# A form posted without its token gets the site's 403 page, saying to reload.  (The API's
# CSRF refusals are DRF's own JSON 403s.)
CSRF_FAILURE_VIEW = "frontend.errors.csrf_failure"
# SECURE=1 for a site served over HTTPS only: secure cookies, plain HTTP redirected, HSTS
# for a year with subdomains.  Each switch below still sets its own part.  The HSTS preload
# flag stays its own choice (SECURE_HSTS_PRELOAD): it consents to the browsers' built-in
# list, which is slow to leave.  `manage.py check --deploy` is clean with these (README).
SECURE = env_bool("SECURE", False)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", SECURE)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("SECURE_PROXY_SSL_HEADER", False):  # the proxy in front sets X-Forwarded-Proto
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy on every answer (django-csp; config/security.py adds the socket's
# origin, and inline styles in the admin).  Nothing but this site's own files: no inline
# script (a page's data is a <script type="application/json">, which is never run), no
# inline style, no plugin, no framing.  The one inline script element, the import map
# (config/static.py), carries the request's nonce.  Images may be data: URLs (the empty
# favicon, Swagger UI's icons).
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Rate limits (games/ratelimit.py): scope -> (calls, seconds), counted in Redis per player
# (per client address for sign-up/sign-in); 0 turns a limit off.  Generous by default: a
# person playing fast makes a few moves a second.  The test run raises them so hundreds of
# tests from one address are not throttled; the rate-limit tests set their own.
# Every frame a client sends over a socket, whatever its type (games/live/frames.py): this
# many a second on average per socket, this many at once; past that, refused unread.  A
# socket with more than SOCKET_BACKLOG frames waiting (its client does not wait for the
# answers) is closed.
SOCKET_FRAMES_PER_SECOND = env_int("SOCKET_FRAMES_PER_SECOND", 300)
SOCKET_FRAME_BURST = env_int("SOCKET_FRAME_BURST", 600)
SOCKET_BACKLOG = env_int("SOCKET_BACKLOG", 64)
RATE_LIMITS = {
    "sessions": (env_int("RATE_LIMIT_SESSIONS", 3000 if TESTING else 60), 60),
    "moves": (env_int("RATE_LIMIT_MOVES", 30000 if TESTING else 1200), 60),
    "auth": (env_int("RATE_LIMIT_AUTH", 3000 if TESTING else 30), 60),
    # New guests (first visits) per client address; a school or an office behind one
    # address makes a few a minute, a script thousands.
    "guests": (env_int("RATE_LIMIT_GUESTS", 30000 if TESTING else 20), 60),
    # Password-reset mails asked for, per client address and per address written to: each
    # one sends a mail, so this is what keeps the form from mailing someone a flood.
    "resets": (env_int("RATE_LIMIT_RESETS", 3000 if TESTING else 5), 3600),
    # Whole days (open data) and whole games (replays) per player or client address.
    "records": (env_int("RATE_LIMIT_RECORDS", 3000 if TESTING else 30), 60),
    # Mails proving an address (or telling its owner someone gave it), per address written
    # to: the sign-up and email forms answer the same and send nothing past this.
    "account_mails": (env_int("RATE_LIMIT_ACCOUNT_MAILS", 3000 if TESTING else 5), 3600),
}

# Form posts (the admin) stay well under this; API bodies have a far lower limit of their
# own (games/api/parsers.py).  It also bounds how much of a body sent without a
# Content-Length is read into memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20

REST_FRAMEWORK = {
    "DEFAULT_THROTTLE_CLASSES": ["games.ratelimit.ScopedRateLimit"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["games.api.auth.CsrfSessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],  # size, depth, NUL checks
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Daily Solitaire API",
    "DESCRIPTION": "Daily solitaire deals played against an authoritative rules engine.",
    "VERSION": "1.0.0",
    # 3.1: a nullable field beside oneOf/allOf reads as nullable to generated clients
    # (3.0's "nullable" is ignored next to a $ref).
    "OAS_VERSION": "3.1.0",
    "LICENSE": {"name": "MIT", "identifier": "MIT"},  # the LICENSE file
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the one set of review states (a session's review, a board entry's).
    # A session's status (a state, a board entry) and an analysis' status are two sets.
    "ENUM_NAME_OVERRIDES": {"ReviewStateEnum": ["none", "pending", "cleared", "disqualified"],
                            "SessionStatusEnum": ["playing", "won", "resigned"],
                            "AnalysisStatusEnum": ["pending", "done", "unknown"]},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.add_common_answers",  # 403 CSRF, 429 rate limited, 503 DB down
    ],
}

# Every line with its time (UTC), level, logger and request id (config/logs.py); one JSON
# object a line with LOG_FORMAT=json, for a log collector.
LOG_FORMAT = env_str("LOG_FORMAT", "text")
if LOG_FORMAT not in ("text", "json"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
    "formatters": {
        "text": {"()": "config.logs.TextFormatter"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["request_id"],
                             "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Errors go to Sentry when SENTRY_DSN is set (Django, Celery, the websockets); with no DSN
# the SDK is never initialised and nothing leaves the process.
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    from config.logs import init_sentry

    init_sentry(SENTRY_DSN, environment=env_str("SENTRY_ENVIRONMENT", "production"),
                release=env_str("SENTRY_RELEASE") or None,
                traces_sample_rate=float(env_str("SENTRY_TRACES_SAMPLE_RATE", "0")))
