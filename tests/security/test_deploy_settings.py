"""Production settings come from the environment and pass Django's deployment checks."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "DAILY_SECRET": secrets.token_urlsafe(32),
    "ALLOWED_HOSTS": "solitaire.example",
    "CSRF_TRUSTED_ORIGINS": "https://solitaire.example",
    "SECURE_COOKIES": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "SECURE_PROXY_SSL_HEADER": "1",
}


def check_deploy(extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if k not in PRODUCTION and not k.startswith("PYTEST")
    }
    env.update(extra)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings_from_the_environment():
    out = check_deploy(PRODUCTION)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DAILY_SECRET"])
def test_no_command_starts_on_a_public_secret_with_debug_off(missing):
    """Every future daily follows from DAILY_SECRET: a default written in the repository
    would let anyone compute them all, so with DEBUG off nothing starts without both."""
    out = check_deploy({k: v for k, v in PRODUCTION.items() if k != missing})
    assert out.returncode != 0
    assert f"{missing} must be set in the environment" in out.stderr, out.stderr[-500:]


def test_the_server_itself_refuses_to_start_on_a_public_secret():
    env = {
        k: v for k, v in os.environ.items() if k not in PRODUCTION and not k.startswith("PYTEST")
    }
    env["DEBUG"] = "0"
    out = subprocess.run(
        [sys.executable, "-m", "config.serve", "-p", "0", "config.asgi:application"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0
    assert "SECRET_KEY and DAILY_SECRET must be set" in out.stderr, out.stderr[-500:]


def test_a_local_run_makes_and_keeps_its_own_random_secrets(tmp_path):
    """DEBUG on (``make run``) without secrets: a random pair is made once, kept private,
    and read again, never a constant."""
    from config.settings import local_secrets

    path = tmp_path / "secrets.json"
    first = local_secrets(path)
    assert local_secrets(path) == first
    assert len(first["DAILY_SECRET"]) >= 40
    assert first["SECRET_KEY"] != first["DAILY_SECRET"]
    assert path.stat().st_mode & 0o077 == 0
    assert local_secrets(tmp_path / "other.json") != first


def test_check_deploy_fails_when_debug_is_left_on():
    out = check_deploy({**PRODUCTION, "DEBUG": "1"})
    assert out.returncode != 0
    assert "security.W018" in out.stdout + out.stderr


def test_no_secret_is_written_in_the_settings_or_compose_file():
    settings_text = "".join(p.read_text() for p in (ROOT / "config" / "settings").glob("*.py"))
    assert 'SECRET_KEY = env_str("SECRET_KEY"' in settings_text
    assert 'DAILY_SECRET = env_str("DAILY_SECRET"' in settings_text
    compose = (ROOT / "docker-compose.yml").read_text()
    for line in compose.splitlines():
        if "SECRET" in line and ":" in line:
            value = line.split(":", 1)[1].strip()
            assert value.startswith("${") or not value, line  # taken from the environment
