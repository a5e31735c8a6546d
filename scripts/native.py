"""Compile the FreeCell search with mypyc: an optional build step (docs/operations.md).

    python scripts/native.py            # compile in place (make native)
    python scripts/native.py --clean    # remove the compiled files: pure Python again
    python scripts/native.py --test     # compile in a copy under build/native and run the
                                        # solver's tests there (make test runs this)

Only the engine is compiled, from a copy holding nothing but ``games/engine`` (it imports
nothing outside the standard library), so the type checker's Django plugin never loads.
Each module is compiled on its own, which keeps its support library inside the package
rather than at the top of the project.  The build records each source's hash beside the
compiled files (``games/engine/solver/native.json``); importing the solver refuses a
compiled module whose source changed since (games/engine/solver/native.py).

The modules stay ordinary Python: without a compiler, or after --clean, the same code runs
interpreted, and the tests run both ways.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
SOLVER = ROOT / "games" / "engine" / "solver"


def _load_native() -> ModuleType:
    """games/engine/solver/native.py by its path: importing the package would run the very
    check a stale build fails, and --clean must work then."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_solver_native", SOLVER / "native.py")
    assert spec
    assert spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_native = _load_native()
MODULES, STAMP, source_hash = _native.MODULES, _native.STAMP, _native.source_hash

# What the solver's tests need besides the engine: the project's settings and apps load
# when pytest starts (tests/conftest.py, pytest-django).
COPY = ("games", "config", "leaderboards", "frontend", "tests", "pyproject.toml", "manage.py")
TESTS = (
    "tests/engine/test_solver.py",
    "tests/engine/test_solver_properties.py",
    "tests/engine/test_solver_hints.py",
    "tests/engine/test_race.py",
    "tests/engine/test_native.py",
)


def fail(message: str) -> None:
    print(f"native: {message}", file=sys.stderr)
    raise SystemExit(1)


def compiled(where: Path) -> list[Path]:
    return sorted(p for p in where.iterdir() if p.suffix in (".so", ".pyd"))


def clean(solver: Path) -> None:
    for p in compiled(solver):
        p.unlink()
    (solver / STAMP).unlink(missing_ok=True)


def build(project: Path) -> None:
    """Compile MODULES of ``project``'s solver in place, with the stamp of their sources."""
    solver = project / "games" / "engine" / "solver"
    clean(solver)
    with tempfile.TemporaryDirectory(prefix="native-") as tmp:
        work = Path(tmp)
        (work / "games").mkdir()
        shutil.copy(project / "games" / "__init__.py", work / "games")
        shutil.copytree(
            project / "games" / "engine",
            work / "games" / "engine",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", STAMP),
        )
        empty = work / "mypy.ini"
        empty.write_text("[mypy]\n")  # not the project's: its plugins load Django
        for name in MODULES:
            t0 = time.monotonic()
            print(f"native: compiling games/engine/solver/{name}.py ...", flush=True)
            r = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "mypyc",
                    "--config-file",
                    str(empty),
                    f"games/engine/solver/{name}.py",
                ],
                cwd=work,
                capture_output=True,
                text=True,
                check=False,
            )
            if r.returncode:
                print(r.stdout[-4000:], r.stderr[-4000:], file=sys.stderr)
                fail(
                    f"mypyc could not compile {name}.py (output above). It needs a C "
                    "compiler and the Python headers; `make native-clean` leaves the "
                    "pure-Python solver"
                )
            print(f"native:   done in {time.monotonic() - t0:.0f} s", flush=True)
        for p in compiled(work / "games" / "engine" / "solver"):
            shutil.copy(p, solver / p.name)
    stamp = {name: source_hash(solver / f"{name}.py") for name in MODULES}
    (solver / STAMP).write_text(json.dumps(stamp, indent=1) + "\n")


def compiled_copy(out: Path) -> Path:
    """A copy of the project at ``out`` with its FreeCell search compiled (bench/native.py
    uses it too)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(
                src,
                out / name,
                ignore=shutil.ignore_patterns(
                    "__pycache__", "*.so", "*.pyd", STAMP, "node_modules"
                ),
            )
        else:
            shutil.copy(src, out / name)
    build(out)
    return out


def test() -> int:
    """Build in a copy of the project and run the solver's tests against the build."""
    out = compiled_copy(ROOT / "build" / "native")
    env = dict(os.environ, SOLVER_NATIVE_REQUIRED="1")
    print("native: the solver's tests against the compiled modules", flush=True)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS],
        cwd=out,
        env=env,
        check=False,
    ).returncode


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--clean", action="store_true", help="remove the compiled modules")
    g.add_argument(
        "--test", action="store_true", help="build in build/native and run the solver's tests there"
    )
    a = p.parse_args()
    if a.clean:
        clean(SOLVER)
        print("native: removed; the solver runs as pure Python")
    elif a.test:
        raise SystemExit(test())
    else:
        build(ROOT)
        print(
            f"native: compiled {', '.join(MODULES)} in {SOLVER.relative_to(ROOT)}; "
            "`make native-clean` goes back to pure Python"
        )


if __name__ == "__main__":
    main()
