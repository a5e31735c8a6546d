"""The site's one way to Redis (config/redis_client.py): the settings it reads, what it gives
the channel layer and Celery, and that nothing else in the site makes a Redis client of its
own (a module that did would stay on a dead primary after a Sentinel failover; the failover
itself is tests/reliability/test_redis_failover.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from config import redis_client

ROOT = Path(__file__).resolve().parents[1]


def test_sentinels_are_read_as_host_port_pairs():
    assert redis_client.parse_sentinels(["10.0.0.5:26379", "[::1]:26380"]) == [
        ("10.0.0.5", 26379),
        ("::1", 26380),
    ]
    for bad in ("10.0.0.5", ":26379", "host:port", "host:"):
        with pytest.raises(ValueError, match="host:port"):
            redis_client.parse_sentinels([bad])


def test_the_url_gives_the_database_and_password_beside_sentinels():
    assert redis_client.server_options("redis://:s3cr%40t@/2") == {"db": 2, "password": "s3cr@t"}
    assert redis_client.server_options("redis:///0") == {"db": 0}


def test_without_sentinels_every_user_has_the_url_and_celery_the_prefix():
    url = "redis://127.0.0.1:6379/3"
    assert redis_client.channel_hosts(url, [], "") == [url]
    broker, options = redis_client.broker(url, [], "", "site")
    assert broker == url
    assert options["global_keyprefix"] == "site:celery:"


def test_with_sentinels_the_channel_layer_and_celery_ask_them():
    sentinels = [("10.0.0.5", 26379), ("10.0.0.6", 26379)]
    hosts = redis_client.channel_hosts("redis://:pw@/1", sentinels, "main")
    assert hosts == [
        {
            "sentinels": sentinels,
            "master_name": "main",
            "db": 1,
            "password": "pw",
            "sentinel_kwargs": redis_client.SENTINEL_TIMEOUTS,
        }
    ]
    broker, options = redis_client.broker("redis://:pw@/1", sentinels, "main", "site")
    assert broker == "sentinel://:pw@10.0.0.5:26379/1;sentinel://:pw@10.0.0.6:26379/1"
    assert options["master_name"] == "main"
    assert options["global_keyprefix"] == "site:celery:"


def settings_of(**env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "REDIS_")) and k != "DJANGO_SETTINGS_MODULE"
    }
    code = (
        "import django, json; from django.conf import settings; django.setup(); "
        "print(json.dumps([settings.REDIS_URL, settings.CELERY_BROKER_URL, "
        "settings.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['master_name']]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={
            **base,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "1",
            "SECRET_KEY": "x" * 50,
            "DAILY_SECRET": "y" * 40,
            **env,
        },
    )


def test_sentinels_alone_configure_every_user():
    out = settings_of(
        REDIS_SENTINELS="127.0.0.1:26379,127.0.0.1:26380", REDIS_SENTINEL_MASTER="main"
    )
    assert out.returncode == 0, out.stderr[-2000:]
    url, broker, master = json.loads(out.stdout.strip().splitlines()[-1])
    assert url == "redis:///0"
    assert broker.startswith("sentinel://")
    assert master == "main"


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"REDIS_SENTINELS": "127.0.0.1:26379"}, "REDIS_SENTINEL_MASTER"),
        ({"REDIS_SENTINELS": "127.0.0.1", "REDIS_SENTINEL_MASTER": "main"}, "host:port"),
    ],
)
def test_an_incomplete_sentinel_setting_stops_the_start_with_what_to_do(env, said):
    out = settings_of(**env)
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr
    assert said in out.stderr


def test_no_module_makes_a_redis_client_of_its_own():
    made = re.compile(r"redis\.(Strict)?Redis\(|\.from_url\(|ConnectionPool\(|Sentinel\(")
    found = []
    for folder in ("config", "games", "leaderboards", "frontend", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == ROOT / "config" / "redis_client.py":
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if made.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "make Redis clients with config.redis_client:\n" + "\n".join(found)
