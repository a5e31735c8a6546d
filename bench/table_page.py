"""The table page as a browser gets it: its weight, its first card, screenshots of every game.

    .venv/bin/python bench/table_page.py weight            # bytes per response, /play/freecell/
    .venv/bin/python bench/table_page.py shots /work/screens
    .venv/bin/python bench/table_page.py readme            # the README's pictures, docs/img/
    .venv/bin/python bench/table_page.py first --rounds 10 # the first card, against a static file
    .venv/bin/python bench/table_page.py first --code /tmp/before --code .   # two checkouts, in turns

The site runs as production serves it: Daphne, DEBUG off, the static files collected
(hashed names, precompressed by the storage), on its own PostgreSQL database (created if
missing, migrated, today's dailies made).  Debian's Chromium loads the page through
Playwright; ``weight`` adds up every response as transferred (headers and the encoded body,
compressed where the server compressed it) once the table is drawn, and prints them per
file.  ``shots`` saves every game on a desktop (1366x768), a phone held upright (390x844)
and the same phone on its side (844x390).

``first`` times the first card of ``/play/klondike/`` (a ranked daily), from navigation to
the frame after the first card entered the table (``painted``), in a new browser context
(``cold``: a first visit, nothing cached, a new guest) and again in the same context
(``warm``: the files cached, the session found from the browser's storage), against the
navigation to a small static file (``static``, to its load event) in the same run; the
ratio is the first card over the static file.  Also printed, the medians of: the HTML's
last byte, the last module's, the last API answer's, the API requests made, the static
files, when the page made its websocket and when it opened.  Each checkout given by
``--code`` runs its own site (its own database), all measured in turns.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/solitaire_pages),
REDIS_URL (default redis://127.0.0.1:6379/0), CHROMIUM (default /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import secrets
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import ensure_database, free_port, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"desktop": (1366, 768), "phone": (390, 844), "landscape": (844, 390)}


@contextmanager
def site(root: Path = ROOT, db: str = "", prefix: str = "pages") -> Iterator[str]:
    """The site of the checkout ``root`` (this one by default) served as production serves
    it, on the database ``db`` (DATABASE_URL's, or solitaire_pages)."""
    db = db or os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_pages")
    with tempfile.TemporaryDirectory() as static_root:
        env = {
            **os.environ,
            "DATABASE_URL": db,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            "REDIS_KEY_PREFIX": prefix,
            "LOG_LEVEL": "WARNING",
            "DEBUG": "0",
            "SERVE_STATIC": "1",
            "STATIC_ROOT": static_root,
            "RATE_LIMIT_GUESTS": "0",
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "SOLVER_BUDGET_SECONDS": "1",
            "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
            "DAILY_SECRET": os.environ.get("DAILY_SECRET") or secrets.token_urlsafe(50),
        }
        ensure_database(db)
        for command in (
            ["collectstatic", "--noinput"],
            ["migrate"],
            ["create_daily_deals", "--days", "1"],
        ):
            subprocess.run(
                [sys.executable, "manage.py", *command, "-v", "0"],
                cwd=root,
                env=env,
                check=True,
                capture_output=True,
            )
        port = free_port()
        log = open(Path(static_root) / "server.log", "w")  # noqa: SIM115
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "config.asgi:application",
            ],
            cwd=root,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(port, proc)
        except SystemExit:
            print((Path(static_root) / "server.log").read_text()[-3000:], file=sys.stderr)
            raise
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            log.close()


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        try:
            yield browser
        finally:
            browser.close()


def refetch(url: str, headers: dict[str, str]) -> tuple[str, int]:
    """The response to ``url`` asked for as the browser asked (its Accept-Encoding): its
    encoding and its size as sent, status line and headers included."""
    ask = {"Accept-Encoding": headers.get("accept-encoding", "gzip, deflate, br")}
    with urllib.request.urlopen(urllib.request.Request(url, headers=ask)) as r:  # noqa: S310
        body = r.read()  # urllib leaves the body encoded
        head = sum(len(k) + len(v) + 4 for k, v in r.headers.items()) + 17
        return r.headers.get("Content-Encoding", "-"), head + len(body)


def weight(base: str, browser: Any, path: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    seen: list[Any] = []
    page.on("requestfinished", lambda r: seen.append(r))
    page.goto(base + path)
    page.wait_for_selector("#table[data-ready]", timeout=30000)
    page.wait_for_load_state("networkidle")
    rows = []
    for request in seen:
        sizes = request.sizes()
        response = request.response()
        encoding = response.header_value("content-encoding") if response else None
        size = sizes["responseHeadersSize"] + sizes["responseBodySize"]
        if not size:  # what an SVG <use> fetched: Chromium reports no sizes for it
            encoding, size = refetch(request.url, request.all_headers())
        rows.append((request.url.removeprefix(base), encoding or "-", size))
    ctx.close()
    width = max(len(r[0]) for r in rows)
    print(f"{'response':<{width}}  {'encoding':>8}  {'bytes':>7}")
    for url, encoding, size in rows:
        print(f"{url:<{width}}  {encoding:>8}  {size:>7}")
    total = sum(r[2] for r in rows)
    print(f"{'total (' + str(len(rows)) + ' responses)':<{width}}  {'':>8}  {total:>7}")


def shots(base: str, browser: Any, out: Path) -> None:
    from games.engine import DAILY_GAMES, GAMES

    out.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        for name, (w, h) in SIZES.items():
            ctx = browser.new_context(
                viewport={"width": w, "height": h}, has_touch=name != "desktop"
            )
            page = ctx.new_page()
            query = "" if game in DAILY_GAMES else "?deal=random"
            page.goto(f"{base}/play/{game}/{query}")
            page.wait_for_selector("#table[data-ready]", timeout=30000)
            page.wait_for_function("() => document.getAnimations().length === 0")
            page.screenshot(path=str(out / f"{game}-{name}.png"))
            ctx.close()
            print(out / f"{game}-{name}.png")


def to_webp(browser: Any, png: bytes, quality: float = 0.85) -> bytes:
    """The PNG re-encoded as WebP by Chromium's own encoder (a canvas), no image library."""
    page = browser.new_page()
    data = page.evaluate(
        """async ([b64, q]) => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        c.getContext('2d').drawImage(img, 0, 0);
        return c.toDataURL('image/webp', q).split(',')[1];
    }""",
        [base64.b64encode(png).decode(), quality],
    )
    page.close()
    return base64.b64decode(data)


def readme(base: str, browser: Any, out: Path) -> None:
    """The README's two pictures: FreeCell on a desktop, Klondike on a phone, as WebP."""
    out.mkdir(parents=True, exist_ok=True)
    for game, name in (("freecell", "desktop"), ("klondike", "phone")):
        w, h = SIZES[name]
        ctx = browser.new_context(viewport={"width": w, "height": h})
        page = ctx.new_page()
        page.goto(f"{base}/play/{game}/")
        page.wait_for_selector("#table[data-ready]", timeout=30000)
        page.wait_for_function("() => document.getAnimations().length === 0")
        path = out / f"{game}-{name}.webp"
        path.write_bytes(to_webp(browser, page.screenshot()))
        # The same pictures are the web manifest's screenshots (frontend/offline.py).
        (ROOT / "frontend" / "static" / "frontend" / "screenshots" / path.name).write_bytes(
            path.read_bytes()
        )
        ctx.close()
        print(path, path.stat().st_size, "bytes")


# Installed before any script of the page runs: when the first card enters the table (and
# the next frame after it, when it is on the screen), when the page makes its websocket and
# when that opens.
PROBE = """
window.__bench = {};
new MutationObserver((_, obs) => {
  if (window.__bench.card || !document.querySelector('#table .card')) return;
  window.__bench.card = performance.now();
  obs.disconnect();
  requestAnimationFrame(() => { window.__bench.painted = performance.now(); });
}).observe(document, { subtree: true, childList: true });
const Plain = window.WebSocket;
window.WebSocket = class extends Plain {
  constructor(...args) {
    super(...args);
    window.__bench.socket ??= performance.now();
    this.addEventListener('open', () => { window.__bench.open ??= performance.now(); });
  }
};
"""


def first_card(base: str, browser: Any, path: str, warm: bool) -> dict[str, float]:
    """Milliseconds from navigation to the first card of ``path`` in a new browser context (a
    first visit: empty cache, no cookies), or its second visit in that context (``warm``:
    the files cached, the session found from the browser's storage), with the steps on the
    way: the HTML's last byte, the last module's, the session's answer, the socket."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.add_init_script(PROBE)
    page = ctx.new_page()
    try:
        if warm:
            page.goto(base + path)
            page.wait_for_function("() => window.__bench.open", timeout=30000)
        page.goto(base + path)
        page.wait_for_function("() => window.__bench.painted && window.__bench.open", timeout=30000)
        return page.evaluate("""() => {
            const nav = performance.getEntriesByType('navigation')[0];
            const res = performance.getEntriesByType('resource');
            const ends = (f) => res.filter(f).map((r) => r.responseEnd);
            const api = ends((r) => r.name.includes('/api/'));
            return { html: nav.responseEnd, card: window.__bench.card,
                     painted: window.__bench.painted, socket: window.__bench.socket,
                     open: window.__bench.open,
                     modules: Math.max(0, ...ends((r) => r.name.endsWith('.js'))),
                     api: api.length ? Math.max(...api) : 0, calls: api.length,
                     files: res.filter((r) => r.name.includes('/static/')).length };
        }""")
    finally:
        ctx.close()


def static_file(base: str, browser: Any, url: str) -> float:
    """Milliseconds from navigation to the load event of a small static file, in a new
    browser context: the floor of a navigation to this server."""
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(base + url)
        return float(
            page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
        )
    finally:
        ctx.close()


def median(values: list[float]) -> float:
    values = sorted(values)
    return (
        values[len(values) // 2]
        if len(values) % 2
        else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
    )


def first(sites: list[tuple[str, str]], browser: Any, path: str, rounds: int) -> None:
    """Each site's first card of ``path`` (first and second visit) and a static file, taken
    in turns ``rounds`` times so that every site meets the machine's drift alike."""
    import json

    samples: dict[str, dict[str, list[Any]]] = {
        label: {"static": [], "cold": [], "warm": []} for label, _ in sites
    }
    files = {}
    for label, base in sites:
        with urllib.request.urlopen(base + "/play/klondike/") as r:  # noqa: S310
            page = r.read().decode()
        found = re.search(r'<script type="importmap"[^>]*>(.*?)</script>', page, re.S)
        files[label] = json.loads(found.group(1))["imports"]["/static/frontend/js/notice.js"]
        first_card(base, browser, path, warm=False)  # the process's first page, not timed
    for i in range(rounds):
        for label, base in sites:
            samples[label]["static"].append(static_file(base, browser, files[label]))
            samples[label]["cold"].append(first_card(base, browser, path, warm=False))
            samples[label]["warm"].append(first_card(base, browser, path, warm=True))
        print(f"round {i + 1}/{rounds}", file=sys.stderr, flush=True)
    print(
        f"\n{path}, {rounds} rounds in turns, medians in ms from navigation "
        f"(load average {os.getloadavg()[0]:.1f})\n"
    )
    print(
        f"{'code':14} {'visit':6} {'static':>7} {'html':>6} {'modules':>8} {'api':>6} "
        f"{'calls':>5} {'files':>5} {'card':>6} {'painted':>8} {'socket':>7} {'open':>6} "
        f"{'vs static':>9}"
    )
    for label, _ in sites:
        s = samples[label]
        floor = median(s["static"])
        for visit in ("cold", "warm"):
            m = {k: median([x[k] for x in s[visit]]) for k in s[visit][0]}
            print(
                f"{label:14} {visit:6} {floor:7.1f} {m['html']:6.1f} {m['modules']:8.1f} "
                f"{m['api']:6.1f} {m['calls']:5.0f} {m['files']:5.0f} {m['card']:6.1f} "
                f"{m['painted']:8.1f} {m['socket']:7.1f} {m['open']:6.1f} "
                f"{m['painted'] / floor:8.1f}x"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["weight", "shots", "readme", "first"])
    parser.add_argument("out", nargs="?", default="/work/screens")
    parser.add_argument(
        "--path", default=None, help="the page (weight: /play/freecell/, first: /play/klondike/)"
    )
    parser.add_argument("--rounds", type=int, default=10, help="first: samples of each")
    parser.add_argument(
        "--code",
        action="append",
        type=Path,
        help="first: a checkout whose site is measured (again for another, "
        "each on its own database; default this one)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.what == "first":
        with ExitStack() as stack:
            codes = [c.resolve() for c in (args.code or [ROOT])]
            db = os.environ.get(
                "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/solitaire_pages"
            )
            sites = [
                (
                    c.name if len(codes) > 1 else "site",
                    stack.enter_context(
                        site(c, f"{db}_{i}" if len(codes) > 1 else db, f"pages{i}")
                    ),
                )
                for i, c in enumerate(codes)
            ]
            browser = stack.enter_context(chromium())
            first(sites, browser, args.path or "/play/klondike/", args.rounds)
        return
    with site() as base, chromium() as browser:
        if args.what == "weight":
            weight(base, browser, args.path or "/play/freecell/")
        elif args.what == "readme":
            readme(base, browser, ROOT / "docs" / "img")
        else:
            shots(base, browser, Path(args.out))


if __name__ == "__main__":
    main()
