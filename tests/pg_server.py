"""A throwaway PostgreSQL server for tests: `initdb` into a temporary directory, started on a free port.

Uses the server binaries on this machine (Debian's `postgresql` package; `.ci/run` installs it). As root,
the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

REQUIRED_ENV = "TESTS_REQUIRE_POSTGRES"  # set by .ci/run: a missing server is then a failure, not a skip


def binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


class PostgresServer:
    def __init__(self, port: int):
        self.bin = binaries()
        if self.bin is None:
            raise FileNotFoundError("PostgreSQL server binaries (pg_ctl, initdb) not found: apt-get install postgresql")
        # Directly under /tmp: pytest's own temporary directories are private to the user running the tests.
        self.root, self.port = Path(tempfile.mkdtemp(prefix="feedback-pg-")), port
        self.data = self.root / "pgdata"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://test@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True, text=True, timeout=120)

    def start(self) -> "PostgresServer":
        if self.as_user:
            shutil.chown(self.root, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "test", "-A", "trust", "--no-sync")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
