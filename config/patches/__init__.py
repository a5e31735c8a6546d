"""The site's patches of the libraries it sits on, one module per library, each switchable.

Each module here replaces or copies private parts of one library (or of the library's
classes another one builds on) for memory or speed, and says in its docstring what it
patches, what that buys, the library's version it was written against and its entry in
``config/tripwires.py`` (which fails when a pinned library's relied-on source moves).

Every patch has a name in ``PATCHES`` and a switch: ``FRAMEWORK_PATCHES_OFF`` (a list of
names, or ``all``; config/settings/env.py) turns patches off, read once when the settings
load.  With a patch off the site does what the library does as it comes, only slower or
with more memory: the way out while a patch is suspected of a fault (docs/operations.md,
"Framework patches").  tests/frontend/test_patches_off.py serves a game through Daphne with every one off.

A patch's code stays here; where it needs the games' own objects (the play socket's
consumer, a session's row, ``GET /api/me/``'s body) the games' module hands them over.
"""

from __future__ import annotations

from django.conf import settings

# name -> (the module, what it patches); the names are FRAMEWORK_PATCHES_OFF's values.
PATCHES: dict[str, tuple[str, str]] = {
    "twisted_forms": (
        "config/patches/twisted.py",
        "Twisted's form parsing of POST bodies, off under Daphne",
    ),
    "lean_websockets": (
        "config/patches/autobahn.py",
        "Daphne's (autobahn's) websocket protocol, lighter once open",
    ),
    "request_threads": (
        "config/patches/django.py",
        "Django's ASGI handler: one kept thread, one hand-over a request",
    ),
    "cache_client": ("config/patches/django.py", "Django's Redis cache: one client per process"),
    "model_rows": (
        "config/patches/django.py",
        "a model instance from a row without Model.__init__",
    ),
    "pool_check": (
        "config/patches/psycopg_pool.py",
        "the pool's connection check, skipped for one checked a moment ago",
    ),
    "play_socket": (
        "config/patches/channels.py",
        "Channels' middleware, router and consumer loop, for the play socket",
    ),
    "static_memory": (
        "config/patches/servestatic.py",
        "ServeStatic's responder: small fixed files answered from memory",
    ),
    "lean_views": (
        "config/patches/rest_framework.py",
        "DRF's dispatch, for GET /api/me/ and a guest's POST /api/sessions/",
    ),
}


def on(name: str) -> bool:
    """Whether the patch ``name`` is on (the settings, read once at start)."""
    if name not in PATCHES:
        raise KeyError(f"no patch named {name!r}")
    return name in settings.FRAMEWORK_PATCHES
