"""Security headers and passwords: the Content-Security-Policy on every answer, SECURE=1
turning on what a site behind TLS needs (each switch still its own), and Django's four
password validators on sign-up.  That no page breaks under the policy is proven in a real
browser: tests/frontend/test_csp.py."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _settings(env: dict[str, str], *names: str) -> list[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SECURE", "PYTEST")) and k != "DEBUG"
    }
    base.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DAILY_SECRET": secrets.token_urlsafe(32),
            **env,
        }
    )
    code = (
        "import django; django.setup(); from django.conf import settings; "
        f"print(*[repr(getattr(settings, n)) for n in {list(names)!r}], sep='|')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1].split("|")


SWITCHED = (
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
)


def test_secure_turns_on_cookies_redirect_and_hsts_together():
    assert _settings({}, *SWITCHED) == ["False", "False", "False", "0", "False", "False"]
    assert _settings({"SECURE": "1"}, *SWITCHED) == [
        "True",
        "True",
        "True",
        "31536000",
        "True",
        "False",
    ]


def test_each_switch_still_sets_its_own_part():
    assert _settings(
        {"SECURE": "1", "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "60"}, *SWITCHED
    ) == ["True", "True", "False", "60", "True", "False"]
    assert _settings({"SECURE_COOKIES": "1"}, *SWITCHED) == [
        "True",
        "True",
        "False",
        "0",
        "False",
        "False",
    ]
    # Set but empty (compose passes ${NAME:-}): it follows SECURE.
    assert _settings(
        {"SECURE": "1", "SECURE_COOKIES": "", "SECURE_HSTS_SECONDS": ""}, *SWITCHED
    ) == ["True", "True", "True", "31536000", "True", "False"]


def test_check_deploy_is_clean_with_secure_and_the_preload_choice():
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SECURE", "PYTEST")) and k != "DEBUG"
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DAILY_SECRET": secrets.token_urlsafe(32),
            "ALLOWED_HOSTS": "solitaire.example",
            "SECURE": "1",
            "SECURE_HSTS_PRELOAD": "1",
            "SECURE_PROXY_SSL_HEADER": "1",
        }
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.django_db
def test_hsts_and_secure_cookies_reach_the_answer(settings, client):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    from django.test import Client

    r = Client().get("/api/me/", secure=True)
    assert r.status_code == 200
    assert r.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert r.cookies["sessionid"]["secure"]
    assert r.cookies["csrftoken"]["secure"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/account/", "/fair/", "/api/me/", "/api/nowhere/"])
def test_every_answer_carries_the_policy(client, path):
    r = client.get(path)
    policy = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert "object-src 'none'" in policy
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_inline_styles_are_allowed_in_the_admin_only(client):
    assert (
        "style-src 'self' 'unsafe-inline'"
        in client.get("/admin/login/").headers["Content-Security-Policy"]
    )
    assert "'unsafe-inline'" not in client.get("/").headers["Content-Security-Policy"]


def test_no_template_has_an_inline_script_or_style():
    """The policy refuses them: the site's pages keep to files (a page's data is a
    <script type="application/json">, which is never run).  The one exception is a script
    under the request's nonce (the table's start.js, inlined so its first request leaves
    while the page is read): the policy runs it because the server wrote it, and the nonce is
    new on every response, so a script injected into the page cannot carry it."""
    import re

    for template in (ROOT / "frontend" / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"\sstyle=|<style|\son[a-z]+=", text), template
        for tag in re.findall(r"<script[^>]*>", text):
            assert (
                "src=" in tag
                or 'type="importmap"' in tag
                or 'nonce="{{ request.csp_nonce }}"' in tag
            ), (template, tag)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password", "says"),
    [
        ("grace", "short1", "too short"),
        ("grace", "password123", "too common"),
        ("grace", "8675309123", "entirely numeric"),
        ("hopper_grace", "hopper_grace1", "too similar to the username"),
    ],
)
def test_sign_up_refuses_weak_passwords_with_the_reason(api, username, password, says):
    r = api().post("/api/auth/signup/", {"username": username, "password": password})
    assert r.status_code == 400, r.json()
    assert says in r.json()["reason"], r.json()
