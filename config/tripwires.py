"""Tripwires under the libraries the site patches.

The modules of config/patches/ (one a library, each patch behind a switch) replace or
copy private parts of the libraries they sit on, for memory or speed (each says why in its
docstring); a few other modules lean on a library's private parts too (named below).  A new release of one of those libraries can change
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

import ast
import hashlib
import importlib.util
import json
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("tripwires.json")

# distribution -> (the site's modules that rely on it, the objects they rely on).  An object
# is "module:qualified.name" where it is defined: a class, a function or an assignment,
# whose source text (decorators included) is fingerprinted.
RELIED_ON: dict[str, tuple[str, list[str]]] = {
    "Twisted": (
        "config/patches/twisted.py, config/patches/autobahn.py, config/drain.py",
        [
            "twisted.web.http:Request.__init__",
            "twisted.web.http:Request.requestReceived",
            "twisted.web.http:HTTPChannel.pauseProducing",
            "twisted.web.http:HTTPChannel.resumeProducing",
            "twisted.web.http:HTTPChannel.stopProducing",
            "twisted.web.http:HTTPChannel.checkPersistence",
            "twisted.web.http:HTTPChannel.requestDone",
        ],
    ),
    "daphne": (
        "config/patches/twisted.py, config/patches/autobahn.py, config/serve.py, config/drain.py",
        [
            "daphne.http_protocol:WebRequest.__init__",
            "daphne.http_protocol:HTTPFactory.buildProtocol",
            "daphne.ws_protocol:WebSocketProtocol",
            "daphne.ws_protocol:WebSocketFactory.__init__",
            "daphne.endpoints:build_endpoint_description_strings",
            "daphne.cli:CommandLineInterface.run",
            "daphne.access:AccessLogGenerator.__call__",
            "daphne.server:Server.__init__",
            "daphne.server:Server.run",
            "daphne.server:Server.listen_success",
            "daphne.server:Server.stop",
            "daphne.server:Server.create_application",
            "daphne.server:Server.application_checker",
        ],
    ),
    "autobahn": (
        "config/patches/autobahn.py",
        [
            "autobahn.websocket.protocol:WebSocketProtocol._connectionMade",
            "autobahn.websocket.protocol:WebSocketProtocol.sendData",
            "autobahn.websocket.protocol:WebSocketProtocol.CONFIG_ATTRS_COMMON",
            "autobahn.websocket.protocol:WebSocketServerProtocol.CONFIG_ATTRS",
            "autobahn.websocket.protocol:WebSocketServerProtocol.processHandshake",
            "autobahn.websocket.protocol:WebSocketServerProtocol._connectionMade",
            "autobahn.twisted.websocket:WebSocketAdapterProtocol.connectionMade",
            "autobahn.twisted.websocket:WebSocketAdapterProtocol.connectionLost",
            "autobahn.twisted.websocket:WebSocketAdapterProtocol.dataReceived",
        ],
    ),
    "asgiref": (
        "config/patches/django.py",
        [
            "asgiref.sync:ThreadSensitiveContext",
            "asgiref.sync:SyncToAsync.__call__",
        ],
    ),
    "Django": (
        "config/patches/django.py, config/patches/psycopg_pool.py",
        [
            "django.core.handlers.asgi:ASGIHandler.__call__",
            "django.core.handlers.asgi:ASGIHandler.handle",
            "django.core.handlers.base:BaseHandler.load_middleware",
            "django.core.cache.backends.redis:RedisCacheClient",
            "django.core.cache.backends.redis:RedisCache._cache",
            "django.db.backends.postgresql.base:DatabaseWrapper.pool",
            "django.db.models.base:Model.from_db",
        ],
    ),
    "psycopg": (
        "games/live/driver.py, games/play/optimistic.py, config/patches/psycopg_pool.py",
        [
            "psycopg._preparing:PrepareManager.get",
        ],
    ),
    "psycopg-pool": (
        "config/patches/psycopg_pool.py",
        [
            "psycopg_pool.pool:ConnectionPool.__init__",
            "psycopg_pool.pool:ConnectionPool._check_connection",
            "psycopg_pool.pool:ConnectionPool.check_connection",
        ],
    ),
    "channels": (
        "config/patches/channels.py",
        [
            "channels.consumer:AsyncConsumer.__call__",
            "channels.consumer:AsyncConsumer.dispatch",
            "channels.consumer:AsyncConsumer.as_asgi",
            "channels.routing:URLRouter.__call__",
            "channels.sessions:CookieMiddleware.__call__",
            "channels.sessions:SessionMiddleware.__call__",
            "channels.generic.websocket:AsyncWebsocketConsumer.websocket_disconnect",
        ],
    ),
    "channels_redis": (
        "config/redis_client.py (the channel layer's Sentinel hosts)",
        [
            "channels_redis.utils:create_pool",
        ],
    ),
    "servestatic": (
        "config/patches/servestatic.py, config/static.py",
        [
            "servestatic.asgi:ServeStaticASGI.__call__",
            "servestatic.asgi:FileServerASGI",
            "servestatic.base:ServeStaticBase.find_file",
            "servestatic.base:ServeStaticBase.add_cache_headers",
            "servestatic.base:ServeStaticBase.add_files",
            "servestatic.base:ServeStaticBase.add_file_to_dictionary",
            "servestatic.base:ServeStaticBase.immutable_file_test",
            "servestatic.responders:StaticFile.get_path_and_headers",
            "servestatic.responders:StaticFile.get_alternatives",
            "servestatic.responders:StaticFile.aget_response",
            "servestatic.utils:decode_path_info",
        ],
    ),
    "djangorestframework": (
        "config/patches/rest_framework.py, games/api/starts.py",
        [
            "rest_framework.renderers:JSONRenderer.render",
            "rest_framework.negotiation:DefaultContentNegotiation.select_renderer",
            "rest_framework.views:APIView.allowed_methods",
            "rest_framework.views:APIView.dispatch",
            "rest_framework.authentication:SessionAuthentication.authenticate",
            "rest_framework.authentication:SessionAuthentication.enforce_csrf",
        ],
    ),
    "django-csp": (
        "config/security.py",
        [
            "csp.middleware:CSPMiddleware",
            "csp.middleware:PolicyParts",
            "csp.utils:build_policy",
        ],
    ),
}


def source(name: str) -> str:
    """The source text of ``module:qualified.name``, decorators included, read from the
    module's file without importing it (importing ``daphne.server`` would install Twisted's
    reactor; a module's import may read the settings)."""
    module, _, qualname = name.partition(":")
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise ImportError(f"no source for {module}")
    text = Path(spec.origin).read_text(encoding="utf-8")
    scope: list[ast.stmt] = ast.parse(text).body
    node: ast.stmt | None = None
    for part in qualname.split("."):
        node = next((n for n in scope if _names(n) == part), None)
        if node is None:
            raise AttributeError(f"{module} has no {qualname}")
        scope = getattr(node, "body", [])
    assert node is not None
    assert node.end_lineno is not None
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    return "\n".join(text.splitlines()[first - 1 : node.end_lineno])


def _names(node: ast.stmt) -> str | None:
    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return node.name
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else ([node.target] if isinstance(node, ast.AnnAssign) else [])
    )
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    return names[0] if names else None


def fingerprint(name: str) -> str:
    """The first 16 hex digits of the SHA-256 of the object's source."""
    return hashlib.sha256(source(name).encode()).hexdigest()[:16]


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
            except (ImportError, AttributeError, OSError) as exc:
                out.append(f"{dist}: {name} is gone ({exc}); {patches} rely on it")
                continue
            if mark != was["sources"].get(name):
                out.append(
                    f"{dist}: {name} changed since {was['version']}; read it against {patches}"
                )
    return out


def main(argv: list[str]) -> int:
    if argv[1:] == ["--record"]:
        RECORD.write_text(json.dumps(installed(), indent=1, sort_keys=True) + "\n")
        print(f"recorded {RECORD}")
        return 0
    found = problems()
    for line in found:
        print(f"TRIPWIRE: {line}", file=sys.stderr)
    if found:
        print("A patched library moved: see config/tripwires.py for what to do.", file=sys.stderr)
        return 1
    print(
        f"tripwires: {sum(len(n) for _, n in RELIED_ON.values())} objects in "
        f"{len(RELIED_ON)} libraries as recorded"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
