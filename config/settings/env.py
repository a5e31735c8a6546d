"""What the environment gives: the helpers that read it, where the checkout is, whether this
is a test run, and the two secrets no server may run without."""

from __future__ import annotations

import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
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


def framework_patches(off: list[str]) -> tuple[str, ...]:
    """The patches on (config/patches/): every one but those named off, none with ``all``."""
    from config.patches import PATCHES

    unknown = sorted(set(off) - {*PATCHES, "all"})
    if unknown:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"FRAMEWORK_PATCHES_OFF names no patch {', '.join(unknown)}: it takes 'all' or "
            f"some of {', '.join(PATCHES)}"
        )
    return () if "all" in off else tuple(name for name in PATCHES if name not in off)


# The library patches on (config/patches/; docs/operations.md, "Framework patches"):
# FRAMEWORK_PATCHES_OFF=all serves with the libraries as they come, slower.
FRAMEWORK_PATCHES = framework_patches(env_list("FRAMEWORK_PATCHES_OFF"))
