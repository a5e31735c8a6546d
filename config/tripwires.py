"""Tripwires under the libraries the site patches.

Several modules replace or copy private parts of the libraries they sit on, for memory or
speed (each says why in its docstring).  A new release of one of those libraries can change
such a part without changing its public interface, and the patch would then go on doing
what the old release did, quietly.  So those libraries are pinned exactly (pyproject.toml,
requirements*.lock), and this module records, for each, its version and a fingerprint of
the source of every object a patch relies on (``tripwires.json`` beside it).

    python -m config.tripwires            # exit 1, saying what moved, if anything did
    python -m config.tripwires --record   # after checking the patches against the new sources

The test suite runs the check (tests/test_tripwires.py), and so does the image's build
(Dockerfile).  To upgrade one of these libraries: change its pin in pyproject.toml, lock
again (README, "Dependencies"), run the check, read each object it names in the new release
against the patch named beside it, fix the patch if needed, then record.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("tripwires.json")

# distribution -> (the site's modules that rely on it, the objects they rely on).  An object
# is "module:qualified.name"; its source is fingerprinted (a value that is not code: its repr).
RELIED_ON: dict[str, tuple[str, list[str]]] = {
    "Twisted": ("config/daphne_http.py, config/ws_memory.py", [
        "twisted.web.http:Request.__init__",
        "twisted.web.http:Request.requestReceived",
        "twisted.web.http:HTTPChannel.pauseProducing",
        "twisted.web.http:HTTPChannel.resumeProducing",
        "twisted.web.http:HTTPChannel.stopProducing",
    ]),
    "daphne": ("config/daphne_http.py, config/ws_memory.py, config/serve.py", [
        "daphne.http_protocol:WebRequest.__init__",
        "daphne.http_protocol:HTTPFactory.buildProtocol",
        "daphne.ws_protocol:WebSocketProtocol",
        "daphne.ws_protocol:WebSocketFactory.__init__",
        "daphne.cli:build_endpoint_description_strings",
        "daphne.cli:CommandLineInterface.run",
    ]),
    "autobahn": ("config/ws_memory.py", [
        "autobahn.websocket.protocol:WebSocketProtocol._connectionMade",
        "autobahn.websocket.protocol:WebSocketProtocol.sendData",
        "autobahn.websocket.protocol:WebSocketProtocol.CONFIG_ATTRS_COMMON",
        "autobahn.websocket.protocol:WebSocketServerProtocol.CONFIG_ATTRS",
        "autobahn.websocket.protocol:WebSocketServerProtocol.processHandshake",
        "autobahn.websocket.protocol:WebSocketServerProtocol._connectionMade",
        "autobahn.twisted.websocket:WebSocketAdapterProtocol.connectionMade",
        "autobahn.twisted.websocket:WebSocketAdapterProtocol.connectionLost",
        "autobahn.twisted.websocket:WebSocketAdapterProtocol.dataReceived",
    ]),
    "asgiref": ("config/threads.py", [
        "asgiref.sync:ThreadSensitiveContext",
        "asgiref.sync:SyncToAsync.__call__",
    ]),
    "Django": ("config/threads.py, config/cache.py, config/postgresql/base.py", [
        "django.core.handlers.asgi:ASGIHandler.__call__",
        "django.core.handlers.asgi:ASGIHandler.handle",
        "django.core.handlers.base:BaseHandler.load_middleware",
        "django.core.cache.backends.redis:RedisCacheClient",
        "django.core.cache.backends.redis:RedisCache._cache",
        "django.db.backends.postgresql.base:DatabaseWrapper.pool",
    ]),
    "psycopg": ("games/live/driver.py, games/play/optimistic.py, config/dbpool.py", [
        "psycopg._preparing:PrepareManager.get",
    ]),
    "psycopg-pool": ("config/dbpool.py, config/postgresql/base.py", [
        "psycopg_pool.pool:ConnectionPool.__init__",
        "psycopg_pool.pool:ConnectionPool._check_connection",
        "psycopg_pool.pool:ConnectionPool.check_connection",
    ]),
    "channels": ("config/socket_session.py, games/live/consumer.py", [
        "channels.consumer:AsyncConsumer.__call__",
        "channels.consumer:AsyncConsumer.dispatch",
        "channels.consumer:AsyncConsumer.as_asgi",
        "channels.routing:URLRouter.__call__",
        "channels.sessions:CookieMiddleware.__call__",
        "channels.sessions:SessionMiddleware.__call__",
        "channels.generic.websocket:AsyncWebsocketConsumer.websocket_disconnect",
    ]),
    "channels_redis": ("config/redis_client.py (the channel layer's Sentinel hosts)", [
        "channels_redis.utils:create_pool",
    ]),
    "servestatic": ("config/static.py", [
        "servestatic.asgi:ServeStaticASGI.__call__",
        "servestatic.asgi:FileServerASGI",
        "servestatic.base:ServeStaticBase.find_file",
        "servestatic.base:ServeStaticBase.add_cache_headers",
        "servestatic.base:ServeStaticBase.add_files",
        "servestatic.base:ServeStaticBase.add_file_to_dictionary",
    ]),
    "django-csp": ("config/security.py", [
        "csp.middleware:CSPMiddleware",
        "csp.middleware:PolicyParts",
        "csp.utils:build_policy",
    ]),
}


def _resolve(name: str) -> Any:
    module, _, qualname = name.partition(":")
    first, *rest = qualname.split(".")
    # A module's attribute as it reads (Twisted puts some modules behind a proxy), a
    # class's as it is stored (no bound method, property or cached_property run).
    obj = getattr(importlib.import_module(module), first)
    for part in rest:
        obj = inspect.getattr_static(obj, part)
    return obj


def fingerprint(name: str) -> str:
    """The first 16 hex digits of the SHA-256 of the object's source."""
    obj = _resolve(name)
    obj = getattr(obj, "func", None) or getattr(obj, "fget", None) or obj  # cached_property
    obj = getattr(obj, "__func__", obj)  # staticmethod, classmethod
    try:
        text = inspect.getsource(obj)
    except TypeError:  # a value, not code
        text = repr(obj)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def installed() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dist, (_, names) in RELIED_ON.items():
        try:
            out[dist] = {"version": version(dist), "sources": {n: fingerprint(n) for n in names}}
        except PackageNotFoundError:
            out[dist] = {"version": None, "sources": {}}
    return out


def problems(recorded: dict[str, Any] | None = None) -> list[str]:
    """What moved since the record, one sentence each; empty when nothing did."""
    if recorded is None:
        recorded = json.loads(RECORD.read_text())
    out = []
    for dist, (patches, names) in RELIED_ON.items():
        was = recorded.get(dist)
        if was is None:
            out.append(f"{dist}: nothing recorded yet (python -m config.tripwires --record)")
            continue
        try:
            now = version(dist)
        except PackageNotFoundError:
            out.append(f"{dist}: not installed")
            continue
        if now != was["version"]:
            out.append(f"{dist} is {now}, but {patches} were checked against {was['version']}")
        for name in names:
            try:
                mark = fingerprint(name)
            except (ImportError, AttributeError) as exc:
                out.append(f"{dist}: {name} is gone ({exc}); {patches} rely on it")
                continue
            if mark != was["sources"].get(name):
                out.append(f"{dist}: {name} changed since {was['version']}; read it against "
                           f"{patches}")
    return out


def main(argv: list[str]) -> int:
    import django

    django.setup()  # a few of the modules read the settings as they load
    if argv[1:] == ["--record"]:
        RECORD.write_text(json.dumps(installed(), indent=1, sort_keys=True) + "\n")
        print(f"recorded {RECORD}")
        return 0
    found = problems()
    for line in found:
        print(f"TRIPWIRE: {line}", file=sys.stderr)
    if found:
        print("A patched library moved: see config/tripwires.py for what to do.",
              file=sys.stderr)
        return 1
    print(f"tripwires: {sum(len(n) for _, n in RELIED_ON.values())} objects in "
          f"{len(RELIED_ON)} libraries as recorded")
    return 0


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    raise SystemExit(main(sys.argv))
