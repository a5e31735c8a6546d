"""Static files: served by ServeStatic ahead of Django, and the import map of the modules.

ServeStatic rather than WhiteNoise: it is WhiteNoise's maintained fork with an ASGI
application of its own, so a file is answered on Daphne's event loop without entering
Django (WhiteNoise speaks WSGI only, and under ASGI its middleware would run every static
request through Django's thread).  It serves the precompressed ``.br`` and ``.gz`` files
that its storage writes at ``collectstatic`` time, to clients that ask for them.

With DEBUG off the files are the collected ones (``STATIC_ROOT``), every name hashed
(``CompressedManifestStaticFilesStorage``), so a name always means one content: those are
cached for a year as immutable.  The modules import each other by relative paths
(``./api.js``); the import map (``{% import_map %}`` in the base template, built from the
manifest) sends each such path to its hashed name, so a page only ever loads the modules
of one deploy.  With DEBUG on (``make run``) nothing is collected: the files come straight
from the apps' ``static`` folders, looked up afresh on every request, and the names are
plain.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from wsgiref.headers import Headers

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestStaticFilesStorage, staticfiles_storage
from servestatic import ServeStaticASGI
from servestatic.asgi import FileServerASGI

from config import patches
from config.patches.servestatic import SmallFiles

YEAR = 365 * 24 * 3600
MODULES = "frontend/js/"  # the site's ES modules, the ones that import each other
# The table's modules as one file, written at collectstatic (config/bundle.py): imported by
# no module, so the import map leaves it out.
ENTRY = "frontend/js/play.js"
BUNDLE = "frontend/js/play.bundle.js"

# Pyodide (the browser's Python, for offline play: frontend/offline.py), from the npm
# package `make install` fetches (package.json pins its version).  Its loader finds its
# files by their own names beside it (indexURL), so they keep them, under a path that names
# the version instead: a new version is a new address, so each may be cached for a year.
# Only the files the loader fetches are served; `make install` writes their .br and .gz.
PYODIDE_DIR = Path(settings.BASE_DIR) / "node_modules" / "pyodide"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


@functools.lru_cache(maxsize=1)  # every page asks; "not installed" is read once too
def pyodide_url() -> str | None:
    """``/pyodide/<version>/``, or None when the package is not installed."""
    try:
        version = json.loads((PYODIDE_DIR / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None
    return f"/pyodide/{version}/"


def _ignored(name: str) -> bool:
    patterns: list[str] = getattr(apps.get_app_config("staticfiles"), "ignore_patterns", [])
    base = name.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(base, p) for p in patterns)


def _nosniff(headers: Headers, path: str, url: str) -> None:
    # A module or stylesheet is only ever taken for the type it is sent as.
    headers["X-Content-Type-Options"] = "nosniff"


class StaticFiles(SmallFiles, ServeStaticASGI):
    """``/static/`` for this process (``SERVE_STATIC``), everything else to ``application``;
    small files that never change from memory (config/patches/servestatic.py)."""

    FOREVER = YEAR

    def __init__(self, application: Any) -> None:
        self.prefix = settings.STATIC_URL
        self.pyodide = pyodide_url()
        debug = bool(settings.DEBUG)
        self.from_memory = not debug and patches.on("static_memory")
        super().__init__(
            application,
            autorefresh=debug,
            max_age=0 if debug else 60,
            add_headers_function=_nosniff,
        )
        if debug:
            # Looked up on every request (autorefresh), so an edited file is served as it
            # is now; the first app's file wins, as with Django's own finders.
            for finder in reversed(list(finders.get_finders())):
                for storage in reversed(list(getattr(finder, "storages", {}).values())):
                    prefix = getattr(storage, "prefix", None)
                    self.add_files(
                        storage.location, self.prefix + (f"{prefix.strip('/')}/" if prefix else "")
                    )
        else:
            # Every file ever collected into STATIC_ROOT, the previous deploys' hashed
            # names too when it is kept between deploys: a page loaded just before a
            # deploy still gets the modules it was made with.  Not the manifest.
            if Path(settings.STATIC_ROOT).is_dir():  # else nothing was collected to serve
                self.add_files(settings.STATIC_ROOT, self.prefix)
            self.files.pop(self.prefix + ManifestStaticFilesStorage.manifest_name, None)
        if self.pyodide:
            for name in PYODIDE_FILES:
                path = PYODIDE_DIR / name
                if path.is_file():
                    self.add_file_to_dictionary(self.pyodide + name, str(path))

    def find_file(self, url: str) -> Any:
        if _ignored(url.removeprefix(self.prefix)):
            return None
        return super().find_file(url)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path and self.from_memory and await self.small(scope, send):
            return
        if self.pyodide and path.startswith(self.pyodide):  # served from the table above
            # With DEBUG on every other file is looked up afresh; these never change.
            found = self.files.get(path)
            if found is not None:
                await FileServerASGI(found)(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    def add_cache_headers(self, headers: Headers, path: str, url: str) -> None:
        if self.immutable_file_test(path, url) or (self.pyodide and url.startswith(self.pyodide)):
            # A hashed name, or Pyodide's under its version: the content never changes.
            headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        else:
            super().add_cache_headers(headers, path, url)


COLLECT = "python manage.py collectstatic --noinput"


class NotCollected(RuntimeError):
    """With DEBUG off the pages name the collected, hashed files: without them every page
    (the 404 page and /api/docs/ too) is a 500.  ``str`` says what to run."""


def check_collected() -> None:
    """Raise NotCollected when the pages cannot name their static files: DEBUG off, the
    manifest storage, and no manifest entry for the site's stylesheet (nothing collected in
    STATIC_ROOT, or a manifest from another version of the site)."""
    if settings.DEBUG or not isinstance(staticfiles_storage, ManifestStaticFilesStorage):
        return
    try:
        staticfiles_storage.url("frontend/css/site.css")
    except ValueError:
        raise NotCollected(
            f"the static files are not collected: run `{COLLECT}` (the image's build does; "
            "STATIC_ROOT says where they go), then restart the server"
        ) from None


_map_cache: dict[int, str] = {}


def import_map() -> str | None:
    """The import map's JSON (the plain path of each module -> its hashed name), or None
    when the names are not hashed (DEBUG on, or a storage without a manifest)."""
    if settings.DEBUG or not isinstance(staticfiles_storage, ManifestStaticFilesStorage):
        return None
    manifest = staticfiles_storage.hashed_files  # loaded once, when the storage is made
    text = _map_cache.get(id(manifest))
    if text is None:
        imports = {
            staticfiles_storage.base_url + name: staticfiles_storage.url(name)
            for name in manifest
            if name.startswith(MODULES) and name.endswith(".js") and name != BUNDLE
        }
        text = json.dumps({"imports": dict(sorted(imports.items()))}, separators=(",", ":"))
        # As json_script does, so that the text cannot close the element it sits in.
        text = text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026")
        _map_cache.clear()
        _map_cache[id(manifest)] = text
    return text


# A static import of a module beside it: ``import { a } from './a.js';`` (the site's modules
# import only those, one statement each; offline.js's dynamic import of Pyodide is left out).
_IMPORT = re.compile(r"""^import\s[^'"]*?['"]\./([\w.-]+\.js)['"]""", re.M)
_graph_cache: dict[tuple[int, str], tuple[str, ...]] = {}


def _module_source(name: str) -> str:
    """A module's text: the collected file with DEBUG off (what is served), else the app's."""
    if isinstance(staticfiles_storage, ManifestStaticFilesStorage) and not settings.DEBUG:
        with staticfiles_storage.open(staticfiles_storage.stored_name(name)) as f:
            text: str = f.read().decode()
            return text
    found = finders.find(name)
    return Path(found).read_text() if isinstance(found, str) else ""


def module_graph(entry: str) -> tuple[str, ...]:
    """``entry`` (``frontend/js/play.js``) and every module it imports, directly or not, in
    the order they are first met: what ``<link rel="modulepreload">`` names, so the browser
    fetches them all at once instead of one wave of imports after another.  Read once per
    deploy (per manifest) with DEBUG off, on every page with DEBUG on (edited files)."""
    manifest = getattr(staticfiles_storage, "hashed_files", None)
    key = (id(manifest), entry)
    if not settings.DEBUG and key in _graph_cache:
        return _graph_cache[key]
    found = graph(_module_source, entry)
    if not settings.DEBUG:
        _graph_cache[key] = found
    return found


def graph(source: Callable[[str], str], entry: str) -> tuple[str, ...]:
    """``entry`` and every module it imports, directly or not, in the order they are first
    met, each module's text read by ``source``."""
    seen: dict[str, None] = {}
    todo = [entry]
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen[name] = None
        folder = name.rsplit("/", 1)[0]
        todo += [f"{folder}/{m}" for m in _IMPORT.findall(source(name))]
    return tuple(seen)
