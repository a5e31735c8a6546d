"""The optional compiled solver (games/engine/solver/native.py, scripts/native.py): a
compiled module whose source changed since the build is refused, and the run that
``make test`` makes against a build really runs compiled code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from games.engine.solver import native


def test_the_compiled_run_really_runs_compiled_modules() -> None:
    loaded = native.running_compiled()
    if os.environ.get("SOLVER_NATIVE_REQUIRED") == "1":
        assert loaded == list(native.MODULES)
    else:  # the ordinary run: whatever is installed, the check above let it through
        assert set(loaded) <= set(native.MODULES)


def _package(tmp_path: Path, stamp: dict[str, str] | None) -> Path:
    for name in native.MODULES:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
    (tmp_path / "freecell.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    if stamp is not None:
        (tmp_path / native.STAMP).write_text(json.dumps(stamp))
    return tmp_path


def test_a_compiled_module_built_from_its_source_is_accepted(tmp_path: Path) -> None:
    where = _package(tmp_path, {})
    stamp = {n: native.source_hash(where / f"{n}.py") for n in native.MODULES}
    (where / native.STAMP).write_text(json.dumps(stamp))
    native.check(where)


def test_a_compiled_module_whose_source_changed_is_refused(tmp_path: Path) -> None:
    where = _package(tmp_path, {})
    stamp = {n: native.source_hash(where / f"{n}.py") for n in native.MODULES}
    (where / native.STAMP).write_text(json.dumps(stamp))
    (where / "freecell.py").write_text("# edited after the build\n")
    with pytest.raises(ImportError, match="make native"):
        native.check(where)


def test_a_compiled_module_without_a_stamp_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImportError, match="freecell"):
        native.check(_package(tmp_path, None))


def test_no_compiled_module_needs_no_stamp(tmp_path: Path) -> None:
    (tmp_path / "freecell.py").write_text("")
    native.check(tmp_path)
    assert native.compiled_files(tmp_path) == {}
