"""The tripwires under the patched libraries (config/tripwires.py): what the patches rely on
is as recorded, a library that moved is named with the patch to read again, and every
patched library is pinned exactly, to the version recorded, in pyproject.toml and in each
lock file.  The image's build runs the same check (Dockerfile)."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from config import tripwires
from config.patches import PATCHES
from tests.test_lock import LOCKS, pins

ROOT = Path(__file__).resolve().parents[1]


def recorded() -> dict:
    return json.loads(tripwires.RECORD.read_text())


def test_what_the_patches_rely_on_is_as_recorded():
    found = tripwires.problems()
    assert not found, "\n".join(found) + "\n(see config/tripwires.py for what to do)"


def test_a_library_that_moved_is_named_with_the_patches_to_read_again():
    moved = copy.deepcopy(recorded())
    moved["daphne"]["version"] = "0.0.1"
    moved["asgiref"]["sources"]["asgiref.sync:ThreadSensitiveContext"] = "0" * 16
    del moved["servestatic"]
    found = tripwires.problems(moved)
    assert len(found) == 3, found
    assert any(
        f.startswith("daphne is ")
        and "checked against 0.0.1" in f
        and "config/patches/autobahn.py" in f
        for f in found
    ), found
    assert any(
        "asgiref.sync:ThreadSensitiveContext changed" in f and "config/patches/django.py" in f
        for f in found
    ), found
    assert any(f.startswith("servestatic: nothing recorded") for f in found), found


def test_an_object_gone_from_a_library_is_named(monkeypatch):
    patches, names = tripwires.RELIED_ON["channels"]
    monkeypatch.setitem(
        tripwires.RELIED_ON,
        "channels",
        (patches, [*names, "channels.consumer:AsyncConsumer.gone_in_5"]),
    )
    found = tripwires.problems()
    assert len(found) == 1, found
    assert "AsyncConsumer.gone_in_5 is gone" in found[0], found


def test_each_patch_named_exists_and_each_object_resolves():
    for patches, names in tripwires.RELIED_ON.values():
        for path in re.findall(r"[\w/]+\.py", patches):
            assert (ROOT / path).is_file(), path
        for name in names:
            assert len(tripwires.fingerprint(name)) == 16


def test_every_patched_library_is_pinned_exactly_to_the_recorded_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    exact = {}
    for line in project["dependencies"]:
        req = Requirement(line)
        spec = list(req.specifier)
        if len(spec) == 1 and spec[0].operator == "==":
            exact[canonicalize_name(req.name)] = spec[0].version
    for dist, was in recorded().items():
        name = canonicalize_name(dist)
        assert exact.get(name) == was["version"], (
            f"pyproject.toml must pin {dist}=={was['version']} (config/tripwires.py)"
        )
        for lock in LOCKS:
            locked = pins(lock).get(name)
            if lock != "requirements-native.lock":
                assert locked == was["version"], f"{lock}: {dist} {locked}"


@pytest.mark.parametrize("dist", sorted(tripwires.RELIED_ON))
def test_the_record_covers_each_object_of_each_library(dist):
    assert set(recorded()[dist]["sources"]) == set(tripwires.RELIED_ON[dist][1])


def test_the_image_installs_from_the_locks_and_checks_the_tripwires():
    text = (ROOT / "Dockerfile").read_text()
    builder, final = text.split("\nFROM ")[1:]
    assert "--require-hashes -r requirements.lock" in builder
    assert "--require-hashes -r scripts/requirements-native.lock" in builder
    assert "pyproject.toml" not in text  # nothing resolved from ranges at build time
    assert "python -m config.tripwires" in final
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert "!requirements.lock" in ignored
    assert "!requirements-native.lock" in ignored


PATCH_MODULES = sorted(
    p for p in (ROOT / "config" / "patches").glob("*.py") if p.name != "__init__.py"
)


@pytest.mark.parametrize("module", PATCH_MODULES, ids=lambda p: p.stem)
def test_each_patch_module_is_under_a_tripwire_and_says_what_it_patches(module):
    """Every module of config/patches/ is named with the libraries it patches, has a switch,
    and its docstring says what it patches, the versions it was written for (those
    recorded), its tripwires and what happens with it off."""
    path = f"config/patches/{module.name}"
    libraries = [dist for dist, (named, _) in tripwires.RELIED_ON.items() if path in named]
    assert libraries, f"{path} is named in no entry of config/tripwires.py RELIED_ON"
    switches = [name for name, (where, _) in PATCHES.items() if where == path]
    assert switches, f"{path} has no switch in config/patches/__init__.py PATCHES"
    doc = module.read_text().split('"""')[1]
    for part in ("Patches:", "Written for:", "Tripwires:", "Off ("):
        assert part in doc, f"{path}'s docstring says nothing under {part!r}"
    for name in switches:
        assert f"``{name}``" in doc, f"{path}'s docstring does not name its switch {name}"
    written = doc.split("Written for:")[1].split("\n\n")[0].split("(config/tripwires")[0]
    versions = dict(re.findall(r"([A-Za-z][\w-]*) (\d+(?:\.\d+)+)", written))
    assert versions, f"{path} names no library version"
    for dist, ver in versions.items():
        assert recorded()[dist]["version"] == ver, f"{path}: {dist} {ver} is not the recorded"
    assert set(versions) & set(libraries), (path, versions, libraries)


def test_every_switch_names_a_module_that_exists():
    for name, (where, _) in PATCHES.items():
        assert (ROOT / where).is_file(), (name, where)
