"""A server run under tracemalloc, for bench/idle_sockets.py --trace: where the memory goes.

    python bench/idle_trace.py OUT.json -m daphne -b 127.0.0.1 -p 8000 config.asgi:application

Runs the module named after ``-m`` as ``python -m`` would, with tracemalloc tracing one
frame per allocation (the line that allocated it: enough to tell which library did, and
cheaper than whole tracebacks).  With IDLE_TRACE_ALLOCATOR_ONLY=1 it
does not trace (tracemalloc's hooks hide Python's own allocator from its statistics).
On SIGUSR1 it writes to OUT.json, after a full collection,
the memory still allocated grouped by library (from the allocating file's path) and a
census of the live objects by type (count and ``sys.getsizeof`` sum), so two readings give
what each idle socket added, by whom.
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import signal
import sys
import sysconfig
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from types import FrameType

ROOT = str(Path(__file__).resolve().parent.parent)
STDLIB = sysconfig.get_paths()["stdlib"]


def library(filename: str) -> str:
    """twisted, autobahn, daphne, channels, asyncio... from where the allocating code is."""
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    if filename.startswith(STDLIB):
        rest = filename[len(STDLIB) :].lstrip("/")
        top = rest.split("/", 1)[0].removesuffix(".py")
        return top if top in {"asyncio", "json", "re", "uuid", "http"} else "stdlib"
    if filename.startswith(ROOT):
        return "site:" + filename[len(ROOT) :].lstrip("/").split("/", 1)[0]
    return filename if filename.startswith("<") else "other"


def obmalloc() -> dict[str, int]:
    """Python's small-object allocator, from ``sys._debugmallocstats`` (which writes to the
    C stderr): arenas held, and bytes in use, free in used pools, and in empty pools."""
    with tempfile.TemporaryFile("w+") as f:
        saved = os.dup(2)
        try:
            os.dup2(f.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read()
    wanted = {
        "# arenas allocated current": "arenas",
        "bytes in allocated blocks": "used",
        "bytes in available blocks": "free_in_pools",
        "unused pools": "empty_pools",
        "# arenas reclaimed": "arenas_freed",
    }
    found: dict[str, int] = {}
    for line in text.splitlines():
        for label, key in wanted.items():
            if label in line and "=" in line:
                found.setdefault(key, int(line.split("=")[1].replace(",", "").split()[0]))
    return found


def reading() -> dict[str, object]:
    unreachable = gc.collect()  # many: cycles the server itself had not collected yet
    stats = tracemalloc.take_snapshot().statistics("lineno") if tracemalloc.is_tracing() else []
    by_lib: Counter[str] = Counter()
    by_line: Counter[str] = Counter()
    for stat in stats:
        frame = stat.traceback[0]
        by_lib[library(frame.filename)] += stat.size
        by_line[f"{library(frame.filename)} {Path(frame.filename).name}:{frame.lineno}"] += (
            stat.size
        )
    counts: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for obj in gc.get_objects():
        kind = type(obj)
        name = f"{kind.__module__}.{kind.__qualname__}"
        counts[name] += 1
        sizes[name] += sys.getsizeof(obj)
    return {
        "unreachable": unreachable,
        "obmalloc": obmalloc(),
        "libraries": dict(by_lib),
        "lines": dict(by_line.most_common(400)),
        "counts": dict(counts),
        "sizes": dict(sizes),
    }


def take_trace(pid: int, out: str) -> dict:
    """The server's tracemalloc reading (bench/idle_trace.py writes it on SIGUSR1)."""
    was = os.stat(out).st_mtime_ns if os.path.exists(out) else 0
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if os.path.exists(out) and os.stat(out).st_mtime_ns != was:
            return json.loads(Path(out).read_text())
        time.sleep(0.5)
    raise SystemExit("no tracemalloc reading from the server")


def print_trace(traces: list[dict], sockets: int) -> None:
    """What one open socket holds (open minus before) and what stays after they closed."""
    before, opened, closed = traces[0], traces[1], traces[-1]

    def per(key: str, a: dict, b: dict, n: int = 0) -> list[tuple[str, float]]:
        names = set(a[key]) | set(b[key])
        diff = [(k, (b[key].get(k, 0) - a[key].get(k, 0)) / sockets) for k in names]
        diff.sort(key=lambda kv: -abs(kv[1]))
        return diff[:n] if n else diff

    libs = [kv for kv in per("libraries", before, opened) if abs(kv[1]) >= 1]
    print(
        f"\ntracemalloc, bytes per open socket by library (total "
        f"{sum(v for _, v in libs) / 1024:.1f} KB), and still allocated after closing:"
    )
    kept = dict(per("libraries", before, closed))
    for name, size in libs:
        print(f"    {name:28} {size:8.0f} {kept.get(name, 0):8.0f}")
    print(
        "\neach reading's own collection found unreachable: "
        + ", ".join(str(t.get("unreachable")) for t in traces)
    )
    print(
        "Python's allocator at each reading, MB (arenas held; in use, free in used pools, "
        "in empty pools; arenas given back so far):"
    )
    for t in traces:
        ob = t.get("obmalloc", {})
        print(
            "    "
            + ", ".join(
                f"{k} {v / 2**20:.1f}" if k not in ("arenas", "arenas_freed") else f"{k} {v}"
                for k, v in ob.items()
            )
        )
    print("\nthe lines that allocated most per open socket:")
    for name, size in per("lines", before, opened, 30):
        print(f"    {size:8.0f}  {name}")
    print("\nthe lines that allocated most of what is kept after closing:")
    for name, size in per("lines", before, closed, 15):
        print(f"    {size:8.1f}  {name}")
    print("\nlive objects per open socket (gc-tracked), by type: count, bytes (getsizeof)")
    sizes = dict(per("sizes", before, opened))
    for name, count in per("counts", before, opened, 30):
        print(f"    {count:6.2f} {sizes.get(name, 0):8.0f}  {name}")


def main() -> None:
    out, dash_m, module, *rest = sys.argv[1:]
    assert dash_m == "-m", "usage: idle_trace.py OUT.json -m MODULE ARGS..."

    def dump(signum: int, frame: FrameType | None) -> None:
        tmp = out + ".tmp"
        Path(tmp).write_text(json.dumps(reading()))
        os.replace(tmp, out)

    if not os.environ.get("IDLE_TRACE_ALLOCATOR_ONLY"):
        tracemalloc.start(1)  # (its hooks hide Python's allocator from _debugmallocstats)
    signal.signal(signal.SIGUSR1, dump)
    sys.argv = [module, *rest]
    sys.path.insert(0, ROOT)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
