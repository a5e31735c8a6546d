"""A private PgBouncer (Debian's ``pgbouncer``) in front of a PostgreSQL, on its own port,
in transaction mode: the pooler that hands a server connection to another client between
transactions, which is what breaks prepared statements, server-side cursors and startup
parameters it does not know."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.reliability.stack import free_port, stop, wait_port


class PrivatePgBouncer:
    def __init__(self, pg_port: int, dbname: str = "solitaire", pool_size: int = 10) -> None:
        if shutil.which("pgbouncer") is None:
            raise RuntimeError(
                "pgbouncer is not installed (Debian: apt-get install pgbouncer; "
                ".ci/run installs it)"
            )
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="pgbouncer-rel-")
        os.chmod(self.dir, 0o777)  # it refuses to run as root: it runs as postgres
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"
        self.log = Path(self.dir) / "pgbouncer.log"
        (Path(self.dir) / "userlist.txt").write_text('"postgres" ""\n')
        (Path(self.dir) / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"{dbname} = host=127.0.0.1 port={pg_port} dbname={dbname}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.dir}/userlist.txt\n"
            f"pool_mode = transaction\ndefault_pool_size = {pool_size}\n"
            "max_client_conn = 2000\n"
            f"logfile = {self.log}\npidfile = {self.dir}/pgbouncer.pid\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = ["pgbouncer", f"{self.dir}/pgbouncer.ini"]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port, self.proc)

    def errors(self) -> list[str]:
        """The lines of its log that tell of a client refused or a server error."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return []
        return [
            line
            for line in text.splitlines()
            if "ERROR" in line or "unsupported startup parameter" in line
        ]

    def stop(self) -> None:
        """Gone, every client's connection with it (a restart of the pooler)."""
        if self.proc is not None:
            stop(self.proc)
            self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def hold_a_server_connection(url: str) -> Any:
    """A client that keeps a transaction open through the pooler, so the server connection
    it was given cannot be handed to anyone else meanwhile."""
    import psycopg

    conn = psycopg.connect(url)
    conn.execute("SELECT 1")  # the transaction is open: the server connection is its own
    return conn
