"""The balancer of ``make stack`` (scripts/stack.py) and of the benchmarks' production shape
(bench/processes.py): HAProxy on ``deploy/haproxy.cfg`` with this machine's limits, its
servers added through its runtime API, and how many it counts up."""

from __future__ import annotations

import os
import resource
import shutil
import socket
import time
import urllib.request
from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / "deploy" / "haproxy.cfg"


def servers_up(stats_port: int) -> int:
    """Web servers the balancer on ``stats_port`` counts up (its exporter); 0 if it is down."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{stats_port}/metrics", timeout=5) as r:
            text = r.read().decode()
    except OSError:
        return 0
    web, up = 'haproxy_server_status{proxy="web"', 'state="UP"'
    return sum(x.startswith(web) and up in x and x.endswith(" 1") for x in text.splitlines())


class Balancer:
    """HAProxy on ``deploy/haproxy.cfg``, its servers added through its runtime API with the
    file's own ``default-server`` settings (the compose servers come from Docker's DNS)."""

    def __init__(self, port: int, stats_port: int, admin: Path) -> None:
        self.admin = admin
        self.env = {
            **os.environ,
            "LB_BIND": f"127.0.0.1:{port}",
            "LB_STATS_BIND": f"127.0.0.1:{stats_port}",
            "LB_ADMIN_SOCKET": str(admin),
        }
        self.env.pop("LB_WEB_DNS", None)
        # Two open files a connection, within this machine's limit (the file's 20,000 needs
        # 40,000).
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        if hard != resource.RLIM_INFINITY and hard < 40100:
            self.env["LB_MAXCONN"] = str(max(256, (hard - 100) // 2))
        self.servers: dict[str, int] = {}

    def command(self) -> list[str]:
        haproxy = shutil.which("haproxy")
        if haproxy is None:
            raise SystemExit("haproxy is not installed (Debian: apt-get install haproxy)")
        return [haproxy, "-f", str(CONFIG)]

    def ask(self, command: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.settimeout(5)
                    s.connect(str(self.admin))
                    s.sendall(command.encode() + b"\n")
                    out = b""
                    while chunk := s.recv(65536):
                        out += chunk
                    return out.decode()
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    @staticmethod
    def server_settings() -> str:
        for line in CONFIG.read_text().splitlines():
            words = line.split()
            if words[:1] == ["default-server"]:
                kept, skip = [], False
                for word in words[1:]:
                    if skip:
                        skip = False
                    elif word in ("resolvers", "init-addr"):  # Docker's DNS only
                        skip = True
                    else:
                        kept.append(word)
                return " ".join(kept)
        return "check"

    def add(self, name: str, port: int) -> None:
        self.servers[name] = port
        out = self.ask(f"add server web/{name} 127.0.0.1:{port} {self.server_settings()}")
        if "New server registered" not in out and "Already exists" not in out:
            raise SystemExit(f"the balancer refused server {name}: {out.strip()}")
        self.ask(f"enable health web/{name}")
        self.ask(f"enable server web/{name}")

    def add_all(self) -> None:
        for name, port in list(self.servers.items()):
            self.add(name, port)
