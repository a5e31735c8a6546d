"""Which solver modules run compiled, and a guard against a compiled module that no longer
matches its source.

The FreeCell search (:mod:`.search`, :mod:`.typed`, :mod:`.depth_first`, :mod:`.race`,
:mod:`.freecell`) may be compiled with mypyc, an
optional build step (``make native``, ``scripts/native.py``; docs/operations.md).  The
compiled module and the Python source give the same searches state for state; only the
speed differs.  Python imports a compiled file in preference to its ``.py``, so a source
edited after the build would silently not run: the build records each source's hash, and
importing the solver refuses a compiled module whose source has changed since.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

MODULES = ("search", "typed", "depth_first", "race", "freecell")  # in this order: each
# imports the ones before it
STAMP = "native.json"
HERE = Path(__file__).resolve().parent


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_files(where: Path = HERE) -> dict[str, Path]:
    """The compiled extension next to each module's source, where there is one."""
    out: dict[str, Path] = {}
    try:
        for name in MODULES:
            found = sorted(where.glob(f"{name}.*.so")) + sorted(where.glob(f"{name}.*.pyd"))
            if found:
                out[name] = found[0]
    except OSError:  # a package inside a zip (the browser's offline engine) has no files
        return {}
    return out


def check(where: Path = HERE) -> None:
    """Raise ImportError when a compiled module was built from another source than the
    ``.py`` beside it."""
    files = compiled_files(where)
    if not files:
        return
    try:
        stamp = json.loads((where / STAMP).read_text())
    except (OSError, ValueError):
        stamp = {}
    for name, so in files.items():
        if stamp.get(name) != source_hash(where / f"{name}.py"):
            raise ImportError(
                f"{so} was compiled from another {name}.py than the one beside it: "
                "run `make native` to compile it again, or `make native-clean` to run "
                "the pure-Python solver"
            )


def running_compiled() -> list[str]:
    """The solver modules this process runs compiled (imports them)."""
    import importlib

    names = []
    for name in MODULES:
        mod = importlib.import_module(f"{__package__}.{name}")
        if not str(mod.__file__).endswith(".py"):
            names.append(name)
    return names
