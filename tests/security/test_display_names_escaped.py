"""A display name is data, never markup: pages, the admin and the live board show it as
text.  The API refuses markup in names, but older rows, an operator's edit or a future
rule change could still hold one, so every place that shows a name is checked with one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Player

MARKUP = "<svg onload=alert(1)>"  # fits the 24 characters a name may hold
ESCAPED = "&lt;svg onload=alert(1)&gt;"


def test_the_api_refuses_markup_in_a_display_name(api):
    c = api()
    r = c.patch("/api/me/", {"display_name": "<b>bold</b>"})
    assert r.status_code == 400
    assert c.get("/api/me/").json()["display_name"] == c.me["display_name"]


@pytest.mark.django_db(transaction=True)
def test_the_admin_and_the_pages_escape_a_display_name_holding_markup(api, solve_freecell):
    c = api()
    s = c.start("freecell")
    for seq, token in enumerate(solve_freecell(s["deal_number"])):
        c.move(s, seq, token)
    Player.objects.filter(pk=c.me["id"]).update(display_name=MARKUP)
    staff = Client()
    staff.force_login(
        get_user_model().objects.create_superuser("opxss", "o@x.example", "pw-12345678")
    )
    pages = {
        "players": staff.get("/admin/games/player/"),
        "sessions": staff.get("/admin/games/gamesession/"),
        "session": staff.get(f"/admin/games/gamesession/{s['id']}/change/"),
        "replay": staff.get(f"/admin/games/gamesession/{s['id']}/replay/?step=0"),
    }
    for mine in ("/", "/profile/", "/account/", "/leaderboards/freecell/", "/play/freecell/"):
        pages[mine] = c.get(mine)
    shown = 0
    for name, r in pages.items():
        assert r.status_code == 200, name
        html = r.content.decode()
        assert MARKUP not in html, name
        assert "<svg onload" not in html, name
        shown += ESCAPED in html
    assert shown >= 2  # the admin lists show the name, escaped
    board = c.get(f"/api/leaderboards/freecell/{s['date']}/").json()
    assert board["entries"][0]["player"] == MARKUP  # JSON carries it as plain data


CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")


@pytest.mark.slow
def test_a_browser_shows_markup_in_a_name_as_text_on_the_live_board():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (.ci/run installs it)")
    import psycopg

    from tests.reliability.stack import (
        Browser,
        Daphne,
        PrivatePostgres,
        PrivateRedis,
        collected_static,
        fc_solution,
        in_thread,
        migrate,
        site_env,
    )

    logs = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"
    logs.mkdir(parents=True, exist_ok=True)
    pg, rd = PrivatePostgres(), PrivateRedis()
    web = None
    try:
        pg.start()
        pg.create_database()
        rd.start()
        env = site_env(
            pg.url, rd.url, CELERY_TASK_ALWAYS_EAGER="1", STATIC_ROOT=str(collected_static())
        )
        migrate(env)
        web = Daphne(env, logs / "xss-daphne.log")
        web.start()
        player = Browser(web.base)
        s = player.start("freecell", "daily")
        for seq, token in enumerate(fc_solution(s["deal_number"])):
            assert player.move(s["id"], seq, token)[0] == 200
        with psycopg.connect(pg.url) as conn:
            conn.execute(
                "UPDATE games_player SET display_name = %s WHERE id = %s", (MARKUP, player.me["id"])
            )

        def look() -> tuple[str, int, list[str]]:
            dialogs: list[str] = []
            with sync_api.sync_playwright() as p:
                b = p.chromium.launch(
                    executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
                )
                page = b.new_page()
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                page.goto(f"{web.base}/leaderboards/freecell/")
                row = page.locator("tr[data-player]").first
                row.wait_for(timeout=20_000)
                page.wait_for_timeout(500)
                text, svgs = row.inner_text(), page.locator("tr[data-player] svg").count()
                b.close()
            return text, svgs, dialogs

        text, svgs, dialogs = in_thread(look)  # the browser tests may hold the main thread's loop
        assert MARKUP in text  # shown as text, letter for letter
        assert svgs == 0
        assert dialogs == []
    finally:
        if web is not None:
            web.close()
        rd.close()
        pg.close()
