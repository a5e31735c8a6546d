"""The settings, every one from the environment: this module and its parts
(config/settings/), each of one subject.

With nothing configured the site runs on a bare machine: SQLite, an in-memory channel layer
and Celery tasks run inline.  ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and
Redis.  Under pytest the defaults are the local PostgreSQL and Redis, because the tests must
exercise the real services (row locks, sorted sets) that production relies on.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
from pathlib import Path

from .env import *  # noqa: F403  (each part's settings are this module's)
from .env import BASE_DIR, TESTING, env_bool, env_int, env_list, env_str
from .play import *  # noqa: F403
from .services import *  # noqa: F403
from .tasks import *  # noqa: F403

SECRET_KEY = env_str("SECRET_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

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
# Idle threads kept for Django's HTTP requests under ASGI (config/patches/django.py); 0: Django's
# own ASGI handler, a new thread for every request.
REQUEST_THREADS = env_int("REQUEST_THREADS", 32)
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
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
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
# Collecting also bundles the table's modules into one file (config/bundle.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if TESTING
        else "config.bundle.BundledStaticFilesStorage"
    },
}
SERVESTATIC_KEEP_ONLY_HASHED_FILES = True
# Source maps are for developer tools only: compressing them would double collectstatic's time.
SERVESTATIC_SKIP_COMPRESS_EXTENSIONS = [
    "jpg",
    "jpeg",
    "png",
    "gif",
    "webp",
    "woff",
    "woff2",
    "gz",
    "br",
    "zip",
    "map",
]

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

# Form posts (the admin) stay well under this; API bodies have a far lower limit of their
# own (games/api/parsers.py).  It also bounds how much of a body sent without a
# Content-Length is read into memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20

REST_FRAMEWORK = {
    "DEFAULT_THROTTLE_CLASSES": ["games.fairplay.ratelimit.ScopedRateLimit"],
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
    "ENUM_NAME_OVERRIDES": {
        "ReviewStateEnum": ["none", "pending", "cleared", "disqualified"],
        "SessionStatusEnum": ["playing", "won", "resigned"],
        "AnalysisStatusEnum": ["pending", "done", "unknown"],
    },
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
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Errors go to Sentry when SENTRY_DSN is set (Django, Celery, the websockets); with no DSN
# the SDK is never initialised and nothing leaves the process.
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    from config.logs import init_sentry

    init_sentry(
        SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        release=env_str("SENTRY_RELEASE") or None,
        traces_sample_rate=float(env_str("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )
