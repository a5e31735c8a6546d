"""A private Redis that fails over: a primary, a replica and three Sentinels (Debian's
``redis-server`` and ``redis-sentinel``), each on its own port, in a directory of its own.
Sentinel's ``down-after-milliseconds`` is short so a failover takes a second or two."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.reliability.stack import free_port, stop, wait_port

MASTER = "solitaire"


class SentinelGroup:
    def __init__(self, down_after_ms: int = 1000) -> None:
        if shutil.which("redis-sentinel") is None:
            raise RuntimeError(
                "redis-sentinel is not installed (Debian: apt-get install "
                "redis-sentinel; .ci/run installs it)"
            )
        self.dir = Path(tempfile.mkdtemp(prefix="sentinel-rel-"))
        self.down_after_ms = down_after_ms
        self.ports = {"primary": free_port(), "replica": free_port()}
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    @property
    def sentinels(self) -> str:
        """``REDIS_SENTINELS`` for the site."""
        return ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)

    def _server(self, name: str, *extra: str) -> None:
        workdir = self.dir / name
        workdir.mkdir()
        log = open(self.dir / f"{name}.log", "ab")  # noqa: SIM115 - the child holds it
        self.procs[name] = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.ports[name]),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(workdir),
                *extra,
            ],
            stdout=log,
            stderr=log,
        )
        wait_port(self.ports[name], self.procs[name])

    def start(self, timeout: float = 30) -> None:
        self._server("primary")
        self._server("replica", "--replicaof", "127.0.0.1", str(self.ports["primary"]))
        for n, port in enumerate(self.sentinel_ports):
            conf = self.dir / f"sentinel-{n}.conf"  # Sentinel rewrites it as it learns
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.dir}\n"
                f"sentinel monitor {MASTER} 127.0.0.1 {self.ports['primary']} 2\n"
                f"sentinel down-after-milliseconds {MASTER} {self.down_after_ms}\n"
                f"sentinel failover-timeout {MASTER} 10000\n"
                f"sentinel parallel-syncs {MASTER} 1\n"
            )
            log = open(self.dir / f"sentinel-{n}.log", "ab")  # noqa: SIM115
            self.procs[f"sentinel-{n}"] = subprocess.Popen(
                ["redis-sentinel", str(conf)], stdout=log, stderr=log
            )
            wait_port(port, self.procs[f"sentinel-{n}"])
        # Ready once the replica is in sync and every Sentinel knows it and the two others
        # (they find each other through the primary, every two seconds).
        deadline = time.monotonic() + timeout
        while not self._ready():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the Sentinels did not settle in {timeout} s ({self.dir})")
            time.sleep(0.2)

    def _ready(self) -> bool:
        import redis

        try:
            replica = redis.Redis(port=self.ports["replica"], socket_timeout=1)
            if replica.info("replication").get("master_link_status") != "up":
                return False
            for port in self.sentinel_ports:
                s = redis.Redis(port=port, socket_timeout=1, decode_responses=True)
                if len(
                    s.execute_command("SENTINEL", "SENTINELS", MASTER)
                ) < 2 or not s.execute_command("SENTINEL", "REPLICAS", MASTER):
                    return False
        except redis.RedisError:
            return False
        return True

    def primary_port(self) -> int:
        """The primary's port as the first Sentinel that answers names it now."""
        import redis

        for port in self.sentinel_ports:
            try:
                s = redis.Redis(port=port, socket_timeout=1, decode_responses=True)
                return int(s.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)[1])
            except redis.RedisError:
                continue
        raise RuntimeError("no Sentinel answers")

    def client(self, name: str) -> Any:
        import redis

        return redis.Redis(port=self.ports[name], socket_timeout=2)

    def kill(self, name: str) -> None:
        """An outage, not a shutdown: SIGKILL, nothing saved."""
        proc = self.procs.pop(name)
        proc.kill()
        proc.wait(10)

    def close(self) -> None:
        for proc in self.procs.values():
            stop(proc, timeout=5)
        self.procs.clear()
        shutil.rmtree(self.dir, ignore_errors=True)

    def keep_logs(self, into: Path) -> None:
        for log in self.dir.glob("*.log"):
            shutil.copy(log, into / f"redis-{log.name}")
