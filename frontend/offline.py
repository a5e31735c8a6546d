"""Installable and playable offline: the web manifest, the service worker, the offline page
and the engine's zip for the browser (docs/frontend.md, "Offline").

The browser plays offline on the same engine as the server: ``games/engine`` (pure
standard-library Python) and ``frontend/offline_table.py`` zipped from the source at the
first request of each process (never a committed copy that could drift), unpacked into
Pyodide.  The zip's address names its content's hash, so it is cached for a year and a
deploy that changes the engine changes the address.  The service worker's text names every
file it caches and a version made from them, so a deploy gives browsers a new worker.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from config.bundle import bundled
from config.static import ENTRY, PYODIDE_FILES, _ignored, pyodide_url
from games.engine import GAMES

ROOT = Path(settings.BASE_DIR)
ENGINE = ROOT / "games" / "engine"
TABLE = Path(__file__).with_name("offline_table.py")
STATIC = Path(__file__).with_name("static")
YEAR = 365 * 24 * 3600
THEME = "#0b4a2e"  # the header's felt (site.css)
ICONS = [
    ("frontend/icons/icon-192.png", "192x192", "any"),
    ("frontend/icons/icon-512.png", "512x512", "any"),
    ("frontend/icons/maskable-512.png", "512x512", "maskable"),
]
# The install dialog's pictures: the README's own (bench/table_page.py readme writes both),
# one per form factor, each within the 2.3:1 and 320-3840 px that browsers ask of them.
# Not in the service worker's shell: every visitor would download them.
SCREENSHOTS = "frontend/screenshots/"


def _screenshots() -> list[dict[str, str]]:
    return [
        {
            "src": static(SCREENSHOTS + name),
            "sizes": size,
            "type": "image/webp",
            "form_factor": factor,
            "label": label,
        }
        for name, size, factor, label in (
            ("freecell-desktop.webp", "1366x768", "wide", _("FreeCell on a desktop")),
            ("klondike-phone.webp", "390x844", "narrow", _("Klondike on a phone")),
        )
    ]


@lru_cache(maxsize=1)
def engine_zip() -> tuple[bytes, str]:
    """The engine package and the offline table as one zip, and its content's hash."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        # Fixed dates: the same source always makes the same bytes, so the same address.
        def put(name: str, data: bytes) -> None:
            z.writestr(
                zipfile.ZipInfo(name, (2000, 1, 1, 0, 0, 0)),
                data,
                compress_type=zipfile.ZIP_DEFLATED,
            )

        put("games/__init__.py", b"")  # the package without the Django app's modules
        for path in sorted(ENGINE.rglob("*.py")):
            put(path.relative_to(ROOT).as_posix(), path.read_bytes())
        put("offline_table.py", TABLE.read_bytes())
    data = buf.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:12]


def engine_url() -> str:
    return f"/offline/engine.{engine_zip()[1]}.zip"


def page_data() -> dict[str, Any]:
    """What the pages' scripts need to turn offline mode on and to play offline."""
    return {"engine": engine_url(), "pyodide": pyodide_url()}


def _static_urls() -> list[str]:
    """Every file of the site's pages (modules, styles, icons), under the names served; the
    table's bundle too, made at collectstatic rather than found in the tree (config/bundle.py)."""
    names = [p.relative_to(STATIC).as_posix() for p in sorted(STATIC.rglob("*")) if p.is_file()]
    made = [bundle] if (bundle := bundled(ENTRY)) else []
    return [static(n) for n in [*names, *made] if not _ignored(n) and not n.startswith(SCREENSHOTS)]


@lru_cache(maxsize=1)
def _worker() -> str:
    shell = ["/", "/offline/", *_static_urls(), "/manifest.webmanifest"]
    # Offline mode: every table (so any game can be played), the engine and Pyodide.
    tables = [f"/play/{key}/" for key in GAMES]
    base = pyodide_url()
    runtime = [engine_url(), *([base + n for n in PYODIDE_FILES] if base else [])]
    source = render_to_string("frontend/sw.js", {"config": "{}"})
    version = hashlib.sha256(json.dumps([shell, tables, runtime, source]).encode()).hexdigest()[:12]
    config = {"version": version, "shell": shell, "tables": tables, "runtime": runtime}
    # As json_script does: the text cannot end the script it sits in.
    text = json.dumps(config, separators=(",", ":")).replace("<", "\\u003C")
    return render_to_string("frontend/sw.js", {"config": text})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: at the site's root, so its scope covers every page.  Never cached by the
    HTTP cache (browsers check it for a new version on every navigation anyway)."""
    response = HttpResponse(_worker(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    from django.utils import translation

    from .language import request_language

    lang = request_language(request)  # the player's choice, or the browser's
    body = {
        # Stable whatever start_url becomes: the browser knows the installed app by it.
        "id": "/",
        "lang": lang,
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "name": _("Daily Solitaire"),
        "short_name": _("Solitaire"),
        "description": _("The same solitaire deals for everyone, every day."),
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": static(src), "sizes": size, "type": "image/png", "purpose": purpose}
            for src, size, purpose in ICONS
        ],
        "screenshots": _screenshots(),
    }
    response = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    response["Content-Language"] = lang
    patch_vary_headers(response, ["Cookie", "Accept-Language"])  # the language chosen
    return response


@require_GET
@cache_control(public=True, max_age=YEAR, immutable=True)
def engine(request: HttpRequest, digest: str) -> HttpResponse:
    data, current = engine_zip()
    if digest != current:  # another deploy's engine: this process does not have it
        raise Http404("no such engine")
    return HttpResponse(data, content_type="application/zip")
