"""Static files as production serves them (DEBUG off, collected files, ServeStatic ahead of
Django; config/static.py): hashed names in the pages and the import map, a year-long
immutable cache, brotli and gzip when asked, nosniff; a deploy with a changed module serves
the new one on the next page load, and the old one to a page loaded before it."""

from __future__ import annotations

import gzip
import http.client
import json
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import brotli
import pytest

from tests.frontend.conftest import ROOT, collectstatic, finish, start_server, stop_server

HASHED = re.compile(r"\.[0-9a-f]{12}\.(js|css|svg|png)$")
IMMUTABLE = "public, max-age=31536000, immutable"
MODULES = ROOT / "frontend" / "static" / "frontend" / "js"


def get(base: str, path: str, encoding: str | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=10)
    conn.request("GET", path, headers={"Accept-Encoding": encoding} if encoding else {})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def page_assets(base: str, path: str) -> tuple[list[str], dict[str, str]]:
    """The stylesheets and scripts a page names, and its import map's entries."""
    status, _, body = get(base, path)
    assert status == 200
    html = body.decode()
    named = re.findall(r'<(?:link rel="stylesheet" href|script type="module" src)="([^"]+)"', html)
    found = re.findall(r'<script type="importmap"[^>]*>(.*?)</script>', html, re.S)
    assert len(found) == 1, "one import map, ahead of the modules"
    return named, json.loads(found[0])["imports"]


def test_pages_name_hashed_files_served_compressed_and_immutable(live_server_url: str) -> None:
    named, imports = page_assets(live_server_url, "/play/freecell/")
    assert named, named
    assert all(HASHED.search(u) for u in named), named
    modules = sorted(p.name for p in MODULES.glob("*.js"))
    assert sorted(k.rsplit("/", 1)[-1] for k in imports) == modules
    for plain, hashed in imports.items():
        assert plain == f"/static/frontend/js/{plain.rsplit('/', 1)[-1]}"
        assert HASHED.search(hashed)
        assert hashed != plain
    for url in [*named, imports["/static/frontend/js/api.js"]]:
        status, headers, plain_body = get(live_server_url, url)
        assert status == 200
        assert "content-encoding" not in headers
        assert headers["cache-control"] == IMMUTABLE
        assert headers["x-content-type-options"] == "nosniff"
        assert "accept-encoding" in headers["vary"].lower()
        for encoding, decompress in (("br", brotli.decompress), ("gzip", gzip.decompress)):
            status, headers, body = get(live_server_url, url, encoding)
            assert status == 200
            assert headers["content-encoding"] == encoding
            assert headers["cache-control"] == IMMUTABLE
            assert len(body) < len(plain_body)
            assert decompress(body) == plain_body
    # The source file, by its plain name, is not what production serves.
    assert get(live_server_url, "/static/frontend/js/api.js")[0] == 404


def test_the_node_tests_are_neither_collected_nor_served(
    live_server_url: str, static_root: Path
) -> None:
    collected = {p.relative_to(static_root).as_posix() for p in static_root.rglob("*")}
    assert not [p for p in collected if "/tests/" in p or p.endswith("package.json")]
    assert any(p.startswith("frontend/js/api.") for p in collected)  # the listing is real
    for path in (
        "/static/frontend/js/tests/taps.test.js",
        "/static/frontend/js/package.json",
        "/static/staticfiles.json",
    ):
        assert get(live_server_url, path)[0] == 404, path


def test_in_a_browser_every_module_loads_by_its_hashed_name(
    new_table: Any, live_server_url: str
) -> None:
    t = new_table().open("freecell")
    static = [u for u in t.requests if "/static/" in u]
    modules = [u for u in static if u.endswith(".js")]
    # The table's modules bundled at collectstatic (config/bundle.py), and pwa.js with what
    # it imports beside it: one instance of each, none of the source modules loaded.
    assert sorted(u.rsplit("/", 1)[-1].split(".")[0] for u in modules) == ["i18n", "play", "pwa"], (
        static
    )
    assert any("/play.bundle." in u for u in modules), static
    assert all(HASHED.search(u) for u in static), [u for u in static if not HASHED.search(u)]
    assert not t.errors


def test_the_bundle_imports_the_modules_every_page_loads_by_their_paths(
    live_server_url: str,
) -> None:
    status, _, body = get(live_server_url, "/play/klondike/")
    assert status == 200
    bundle = re.search(
        r'<script type="module" src="(/static/frontend/js/play\.bundle\.[^"]+)"', body.decode()
    )
    assert bundle, "the table names its bundle"
    status, headers, code = get(live_server_url, bundle.group(1))
    assert status == 200
    assert headers["cache-control"] == IMMUTABLE
    text = code.decode()
    # pwa.js and i18n.js by the paths the import map sends to their hashed names, the rest
    # of the table inside (the entry's own wiring, flow.js's start).
    assert set(re.findall(r'from\s*"(\./[\w.-]+)"', text)) == {"./pwa.js", "./i18n.js"}
    assert "window.solitaire={" in text.replace(" ", "")  # play.js, the entry
    assert "ds:offline:" in text  # offline.js, which flow.js imports


@pytest.mark.slow
def test_a_deploy_with_a_changed_module_serves_it_on_the_next_page_load(
    tmp_path: Path, static_root: Path, server_env: dict[str, str], browser: Any
) -> None:
    root = tmp_path / "static"
    shutil.copytree(static_root, root)  # the first deploy: the session's collected files
    overlay = tmp_path / "overlay"
    env = {
        **server_env,
        "STATIC_ROOT": str(root),
        "STATIC_OVERLAY": str(overlay),
        "DJANGO_SETTINGS_MODULE": "tests.frontend.overlay_settings",
    }

    proc, base = start_server(env, "static-deploy-1.log")
    try:
        _, before = page_assets(base, "/account/")
    finally:
        stop_server(proc)
    old_api = before["/static/frontend/js/api.js"]
    old_body = get_file(root, old_api)

    # The second deploy: api.js changed, collected again into the same place.
    (overlay / "frontend" / "js").mkdir(parents=True)
    changed = (MODULES / "api.js").read_text() + "\nglobalThis.solitaireDeploy = 2;\n"
    (overlay / "frontend" / "js" / "api.js").write_text(changed)
    finish(collectstatic(env))

    proc, base = start_server(env, "static-deploy-2.log")
    try:
        _, after = page_assets(base, "/account/")
        new_api = after["/static/frontend/js/api.js"]
        assert new_api != old_api
        status, headers, body = get(base, new_api)
        assert status == 200
        assert body.decode() == changed
        assert headers["cache-control"] == IMMUTABLE
        # Only the changed module has a new name: its importers keep theirs (the import
        # map, not their content, sends them to the new one).
        assert {k: v for k, v in after.items() if v != before[k]} == {
            "/static/frontend/js/api.js": new_api
        }
        # A page loaded before the deploy still gets the module it was made with.
        status, _, body = get(base, old_api)
        assert status == 200
        assert body == old_body

        ctx = browser.new_context()
        try:
            page = ctx.new_page()
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(f"{base}/account/")
            page.wait_for_function("() => globalThis.solitaireDeploy === 2", timeout=10000)
            assert any(u.endswith(new_api) for u in requests)
            assert not any(u.endswith(old_api) for u in requests)
        finally:
            ctx.close()
    finally:
        stop_server(proc)


def get_file(root: Path, url: str) -> bytes:
    return (root / url.removeprefix("/static/")).read_bytes()
