"""The real site in a real browser: Daphne on a free port over its own PostgreSQL database,
driven by Playwright with Debian's Chromium (Playwright's own browser download is not used).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
PG = os.environ.get("FRONTEND_TEST_PG", "postgres://postgres@127.0.0.1:5432")
DB_NAME = f"test_solitaire_frontend_{os.getpid()}"

try:
    from playwright import sync_api
except ImportError:  # pragma: no cover - the dev extras install it
    sync_api = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def collectstatic(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``manage.py collectstatic`` into ``env["STATIC_ROOT"]``, as the image's build does."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def finish(proc: subprocess.Popen[bytes]) -> None:
    _, err = proc.communicate(timeout=300)
    if proc.returncode:
        raise RuntimeError(f"{proc.args} failed: {err.decode()[-2000:]}")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the session's server finds its collected static files."""
    return tmp_path_factory.mktemp("static")


@pytest.fixture(scope="session")
def mail_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the session's server writes the mail it sends, one file a message."""
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="session")
def server_env(static_root: Path, mail_dir: Path) -> Iterator[dict[str, str]]:
    """The environment of the session's server, on a database of its own (created and
    dropped here, so nothing it commits leaks into the other tests' database), migrated,
    with today's dailies made and the static files collected."""
    _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}"')
    _admin_sql(f'CREATE DATABASE "{DB_NAME}"')
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "REDIS_URL": os.environ.get("FRONTEND_TEST_REDIS", "redis://127.0.0.1:6379/13"),
        # Keys of this run alone: an earlier run's counts, presence and kept boards in the
        # same Redis database do not leak into it.
        "REDIS_KEY_PREFIX": f"front-{os.getpid()}",
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "SERVE_STATIC": "1",
        "STATIC_ROOT": str(static_root),
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail_dir),
        "SOLVER_BUDGET_SECONDS": "1",
        "DEBUG": "0",
        "RATE_LIMIT_GUESTS": "0",  # every browser context is a new guest from 127.0.0.1
        "RATE_LIMIT_RESETS": "1000",  # the count outlives a run (Redis); 5 an hour would not
    }
    try:
        collecting = collectstatic(env)  # beside the migrations: it takes seconds of its own
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        # Today's dailies, made ahead as the scheduled task does in production, so that no
        # page waits for the solver to certify a deal.
        subprocess.run(
            [sys.executable, "manage.py", "create_daily_deals", "--days", "1"],
            cwd=ROOT,
            env={**env, "SOLVER_BUDGET_SECONDS": "1"},
            check=True,
            capture_output=True,
        )
        finish(collecting)
        yield env
    finally:
        _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


@pytest.fixture(scope="session")
def kept_deals(server_env: dict[str, str]) -> dict[str, str]:
    """The public ids of the deals whose lines the tests keep (tests/engine/kept_deals.py,
    yukon_deal.py), made in the test server's database: tables the same on any date."""
    from tests.engine import kept_deals, yukon_deal

    seeds = {game: seed for game, (seed, _) in kept_deals.LINES.items()}
    seeds["yukon"] = yukon_deal.SEED
    code = (
        "import json; from games.models import Deal; print(json.dumps({g: "
        "Deal.objects.get_or_create(game=g, seed=s)[0].public_id "
        f"for g, s in {seeds!r}.items()}}))"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=server_env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def start_server(
    env: dict[str, str],
    log_name: str,
    app: str = "config.asgi:application",
) -> tuple[subprocess.Popen[bytes], str]:
    """Daphne on a free port with ``env`` serving ``app``, once it accepts connections; its
    output goes to artifacts/<log_name>."""
    _mkdirs()
    port = _free_port()
    log = open(ROOT / "artifacts" / log_name, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port), app],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()  # the child holds its own copy
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"the server did not start; see artifacts/{log_name}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def live_server_url(server_env: dict[str, str]) -> Iterator[str]:
    """The site as production serves it: DEBUG off, the collected (hashed) static files."""
    proc, url = start_server(server_env, "frontend-server.log")
    try:
        yield url
    finally:
        stop_server(proc)


def _mkdirs() -> bool:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return True


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if sync_api is None:
        pytest.skip("playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (.ci/run installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()


# Every page runs under the site's Content-Security-Policy, which allows no eval: a test's
# page.wait_for_function takes a function ("() => ..."), which Playwright compiles outside
# the page's policy, never a bare expression, which it would eval in the page each poll.
CSP_LISTENER = """document.addEventListener('securitypolicyviolation', e => console.error(
    'CSP violation: ' + e.violatedDirective + ' ' + (e.blockedURI || 'inline')
    + ' at ' + e.sourceFile + ':' + e.lineNumber));"""


class Table:
    """One player at one table: helpers that read the page's state and act like a player."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.console_errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on(
            "console", lambda m: self.console_errors.append(m.text) if m.type == "error" else None
        )
        # Chromium says a blocked resource in the console; the event also catches what
        # the policy refuses without a console line of its own.
        page.add_init_script(CSP_LISTENER)

    @property
    def csp_violations(self) -> list[str]:
        return [
            e
            for e in self.console_errors
            if "Content Security Policy" in e or e.startswith("CSP violation")
        ]

    def open(self, game: str, deal: str | None = None) -> Table:
        url = f"{self.base}/play/{game}/" + (f"?deal={deal}" if deal else "")
        self.page.goto(url)
        self.page.wait_for_selector("#table[data-ready]", timeout=30000)
        return self

    @property
    def s(self) -> dict[str, Any]:
        return self.page.evaluate("window.solitaire.state.s")

    def seq(self) -> int:
        return int(self.page.evaluate("window.solitaire.state.s.seq"))

    def wait_seq(self, above: int, timeout: float = 10000) -> None:
        self.page.wait_for_function(
            f"() => window.solitaire.state.s.seq > {above}", timeout=timeout
        )

    def card(self, pile: str, index: int) -> Any:
        return self.page.locator(f'#table .card[data-pile="{pile}"][data-index="{index}"]')

    def pile(self, name: str) -> Any:
        return self.page.locator(f'#table .pile[data-pile="{name}"]')

    def source(self, move: dict[str, Any]) -> Any:
        """The card a player grabs to make ``move`` (the first card of the run)."""
        cards = self.s["view"]["piles"][move["from"]]
        return self.card(move["from"], len(cards) - move.get("count", 1))

    def settle(self) -> None:
        """Wait for the cards to stop sliding (a player aims at where cards are)."""
        self.page.wait_for_function("() => document.getAnimations().length === 0")

    def drag(self, src: Any, dest_pile: str) -> None:
        self.settle()
        box = self.box(src)
        dest = self.pile(dest_pile)
        last = dest.locator(".card").last
        target = (last if last.count() else dest).bounding_box()
        x0, y0 = box["x"] + box["width"] / 2, box["y"] + min(12, box["height"] / 4)
        x1, y1 = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
        m = self.page.mouse
        m.move(x0, y0)
        m.down()
        for k in range(1, 9):
            m.move(x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8)
        m.up()

    def box(self, card: Any) -> Any:
        """Where a card shows, once it does: a table drawn again (a state arriving, the
        connection's notice) replaces its cards, and a box asked for in between is none."""
        card.wait_for(state="visible", timeout=10000)
        for _ in range(50):
            box = card.bounding_box()
            if box is not None:
                return box
            self.page.wait_for_timeout(100)
        raise AssertionError(f"{card} never showed")

    def tap(self, card: Any) -> None:
        """Tap a card where it shows: near its top edge (lower cards may cover the rest)."""
        self.settle()
        box = self.box(card)
        card.click(position={"x": box["width"] / 2, "y": min(10, box["height"] / 4)})

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """A fetch from inside the page, with its cookies and CSRF token."""
        return self.page.evaluate(
            """async ([path, body]) => {
                const csrf = (document.cookie.match(/csrftoken=([^;]*)/) || [])[1] || '';
                const r = await fetch(path, body === null ? {} : {method: 'POST',
                    headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf},
                    body: JSON.stringify(body)});
                return {status: r.status, body: await r.json().catch(() => null)};
            }""",
            [path, body],
        )

    def shot(self, name: str) -> None:
        self.settle()
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture
def new_table(browser: Any, live_server_url: str) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(
        width: int = 1280, height: int = 800, touch: bool = False, locale: str = "en-US"
    ) -> Table:
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=touch, locale=locale
        )
        contexts.append(ctx)
        tables.append(Table(ctx.new_page(), live_server_url))
        return tables[-1]

    tables: list[Table] = []
    yield make
    for ctx in contexts:
        ctx.close()
    # Every page of every browser test runs under the Content-Security-Policy.
    violations = [v for t in tables for v in t.csp_violations]
    assert not violations, violations
