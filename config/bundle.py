"""The table's modules as one file, written by ``collectstatic`` (config/static.py).

The table page's entry (``frontend/js/play.js``) imports some thirty modules.  Named by
``modulepreload`` they are all asked for at once, yet a first visit still pays for each:
a request to the server (the same process that is making the player's session), and a
module of its own for the browser to compile, link and evaluate before the first card.
Collected with DEBUG off, they are also bundled by esbuild (npm's ``esbuild``, which
``make install`` fetches with Pyodide) into ``frontend/js/play.bundle.js``, hashed and
compressed like every other file; the page then names that one file
(``{% module_entry %}``, ``frontend/templatetags/modules.py``).  The source modules stay as
they are and are still collected: with DEBUG on (``make run``) the page loads them
unbundled, and a deploy whose build has no esbuild serves them as before.

``pwa.js`` and what it imports (``i18n.js``) stay outside the bundle: every page loads
``pwa.js`` on its own (the base template), and a second copy inside the bundle would
register the service worker and upload the offline games twice.  The bundle imports them
by the same relative paths (``./pwa.js``), which the import map sends to their hashed
names, so the page has one instance of each.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from servestatic.storage import CompressedManifestStaticFilesStorage

from config.static import BUNDLE, ENTRY, graph

log = logging.getLogger(__name__)

# Loaded by every page itself (base.html): it and what it imports stay out of the bundle.
SHARED = "frontend/js/pwa.js"


def esbuild() -> str | None:
    """The esbuild of ``node_modules`` (``make install``), or None without it: the
    platform's own executable where npm put it (it needs no Node.js, which the image's
    last stage lacks), else npm's launcher, else one on the PATH."""
    modules = Path(settings.BASE_DIR) / "node_modules"
    for found in (*sorted(modules.glob("@esbuild/*/bin/esbuild")), modules / ".bin" / "esbuild"):
        if found.is_file():
            return str(found)
    return shutil.which("esbuild")


def build(root: Path, entry: str = ENTRY, out: str = BUNDLE) -> bool:
    """Bundle the collected ``entry`` under ``root`` into ``out`` beside it; False (and a
    warning) when there is no esbuild, so the page names the plain modules instead."""
    command = esbuild()
    if command is None:
        log.warning("esbuild not found (make install): the table's modules are not bundled")
        return False
    shared = graph(lambda name: (root / name).read_text(), SHARED)
    subprocess.run(
        [
            command,
            str(root / entry),
            "--bundle",
            "--format=esm",
            "--minify",
            "--log-level=warning",
            f"--outfile={root / out}",
            *(f"--external:./{name.rsplit('/', 1)[-1]}" for name in shared),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return True


def bundled(entry: str) -> str | None:
    """The bundle standing for ``entry`` in this deploy, or None: DEBUG on (the modules as
    they are), another entry, or no bundle collected (no esbuild at collectstatic)."""
    if entry != ENTRY or settings.DEBUG:
        return None
    manifest = getattr(staticfiles_storage, "hashed_files", None)
    return BUNDLE if manifest and BUNDLE in manifest else None


class BundledStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """ServeStatic's storage (hashed names, brotli and gzip), the table's bundle added to
    what it hashes and compresses."""

    def post_process(self, paths: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        dry_run = kwargs.get("dry_run", args[0] if args else False)
        if not dry_run and ENTRY in paths and build(Path(self.location)):
            paths = {**paths, BUNDLE: (self, BUNDLE)}
        return super().post_process(paths, *args, **kwargs)
