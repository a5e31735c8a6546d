"""The lock files (``make lock``): every package pinned with its hashes, every requirement of
pyproject.toml met by its lock, the locks agreeing with each other, and this environment
installed from requirements-dev.lock (``make install``), so that the tests run on what the
image runs."""

from __future__ import annotations

import functools
import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
# The image's, the tests', the benchmarks' (everything), the image builder's compiler.
LOCKS = (
    "requirements.lock",
    "requirements-dev.lock",
    "requirements-bench.lock",
    "requirements-native.lock",
)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)(?: ; (.+?))?\s*\\$")


@functools.cache
def entries(lock: str) -> list[tuple[Requirement, list[str]]]:
    """Each pin of the lock with its hashes."""
    out: list[tuple[Requirement, list[str]]] = []
    for line in (ROOT / lock).read_text().splitlines():
        match = PIN.match(line)
        if match:
            name, ver, marker = match.groups()
            out.append((Requirement(f"{name}=={ver}" + (f" ; {marker}" if marker else "")), []))
        elif line.strip().startswith("--hash=sha256:"):
            out[-1][1].append(line.strip().split(":", 1)[1].rstrip(" \\"))
    return out


def pins(lock: str) -> dict[str, str]:
    """name -> version, for this interpreter and platform."""
    return {
        canonicalize_name(req.name): next(iter(req.specifier)).version
        for req, _ in entries(lock)
        if req.marker is None or req.marker.evaluate()
    }


def requirements(*extras: str) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = list(project["dependencies"])
    for extra in extras:
        lines += project["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


@pytest.mark.parametrize("lock", LOCKS)
def test_every_pin_has_its_hashes(lock):
    found = entries(lock)
    assert found, lock
    for req, hashes in found:
        assert hashes, req
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), req


@pytest.mark.parametrize(
    ("lock", "extras"),
    [
        ("requirements.lock", ()),
        ("requirements-dev.lock", ("dev",)),
        ("requirements-bench.lock", ("dev", "bench")),
    ],
)
def test_each_lock_meets_every_requirement_of_pyproject(lock, extras):
    locked = pins(lock)
    for req in requirements(*extras):
        if req.marker is not None and not req.marker.evaluate():
            continue
        got = locked.get(canonicalize_name(req.name))
        assert got is not None, (
            f"{lock} has {req.name} {got}, pyproject.toml asks {req}: run make lock"
        )
        assert req.specifier.contains(got, prereleases=True), (
            f"{lock} has {req.name} {got}, pyproject.toml asks {req}: run make lock"
        )


def test_the_locks_agree_on_every_version_they_share():
    everything = pins("requirements-bench.lock")
    for lock in LOCKS[:2] + LOCKS[3:]:
        for name, ver in pins(lock).items():
            assert everything.get(name) == ver, (
                f"{lock}: {name} {ver}, bench lock {everything.get(name)}"
            )


def test_this_environment_is_installed_from_the_lock():
    wrong = {}
    for name, ver in pins("requirements-dev.lock").items():
        try:
            have = version(name)
        except PackageNotFoundError:
            have = None
        if have != ver:
            wrong[name] = (have, ver)
    assert not wrong, f"installed vs locked (make install): {wrong}"
