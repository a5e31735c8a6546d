"""What /proc says of a process and its children: memory, open sockets and files, and this
process's own limit on open files raised to its hard limit (bench/idle_sockets.py)."""

from __future__ import annotations

import os
import resource
from pathlib import Path


def raise_nofile() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def rss_kb(pid: int) -> int:
    """Resident memory of the server: the process and its children (granian serves from a
    worker process of its own)."""
    total = 0
    for p in [pid, *children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def children(pid: int) -> list[int]:
    try:
        found = [
            int(c)
            for t in Path(f"/proc/{pid}/task").iterdir()
            for c in (t / "children").read_text().split()
        ]
    except OSError:
        return []
    return [c for child in found for c in (child, *children(child))]


def sockets_open(pid: int) -> int:
    count = 0
    for p in [pid, *children(pid)]:
        for fd in os.listdir(f"/proc/{p}/fd"):
            try:
                count += os.readlink(f"/proc/{p}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
    return count


def open_fds(pid: int) -> str:
    """How many files the server has open, by kind (socket, pipe, anon_inode...)."""
    kinds: dict[str, int] = {}
    for p in [pid, *children(pid)]:
        for fd in os.listdir(f"/proc/{p}/fd"):
            try:
                kind = os.readlink(f"/proc/{p}/fd/{fd}").split(":")[0]
            except OSError:
                continue
            kinds[kind if not kind.startswith("/") else "file"] = kinds.get(kind, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
