"""A real PostgreSQL server for the tests: one per test session, in its own temporary
data directory, reached over a unix socket in that directory (no TCP port to clash).

Where the server comes from, in order:

1. ``DECKHAND_TEST_DATABASE_URL``: an existing server (its user must be allowed to
   CREATE DATABASE); nothing is started.
2. PostgreSQL's own programs (``initdb``, ``pg_ctl``): on the PATH, or Debian's
   ``/usr/lib/postgresql/<version>/bin`` (``apt-get install postgresql``; ``.ci/run``
   installs it). PostgreSQL refuses to run as root, so under root the server runs as
   the ``postgres`` user the package creates (or ``nobody``), and the data directory
   is made theirs.

Each test gets a fresh database (:meth:`PostgresServer.create_database`). Where no
server can start, tests that need one are skipped with the reason, except in CI
(``CI`` set), where that is an error: CI must test both backends.
"""

from __future__ import annotations

import concurrent.futures
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

USER = "deckhand"
_names = itertools.count(1)


class NoPostgres(Exception):
    """No PostgreSQL server could be found or started; the message says why."""


def find_bin_dir() -> Path:
    """The folder holding initdb and pg_ctl."""
    candidates = []
    explicit = os.environ.get("DECKHAND_PG_BIN")
    if explicit:
        candidates.append(Path(explicit))
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0, reverse=True)
    candidates += [Path(p) for p in versions]
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    raise NoPostgres(
        "PostgreSQL's programs (initdb, pg_ctl) are not installed: install Debian's postgresql package "
        "(apt-get install -y postgresql) or set DECKHAND_TEST_DATABASE_URL to a server the tests may create databases on"
    )


def _run_as() -> tuple[int, int] | None:
    """(uid, gid) to run the server as when we are root, else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise NoPostgres("running as root and there is no postgres or nobody user to run PostgreSQL as")


@dataclass
class PostgresServer:
    """A running server: ``admin_dsn`` reaches its ``postgres`` database."""

    admin_dsn: str
    directory: Path | None = None
    bin_dir: Path | None = None
    owner: tuple[int, int] | None = None
    options: str = ""
    _databases: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, *, durable: bool = False) -> PostgresServer:
        """Start a server (tests: no fsync, for speed; ``durable`` keeps PostgreSQL's
        defaults, fsync and synchronous commits, as a benchmark against SQLite needs)."""
        external = os.environ.get("DECKHAND_TEST_DATABASE_URL", "").strip()
        if external:
            return cls(admin_dsn=external)
        bin_dir = find_bin_dir()
        owner = _run_as()
        # Not under pytest's tmp_path: its folders are private to root, which the server user cannot enter.
        directory = Path(tempfile.mkdtemp(prefix="deckhand-pg-"))
        data = directory / "data"
        if owner:
            os.chown(directory, *owner)
        try:
            cls._call(owner, [str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
                              "--no-sync", "--no-instructions"])
            options = f"-k {directory} -c listen_addresses='' -c max_connections=200"
            if not durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            dsn = f"postgresql://{USER}@/postgres?host={quote(str(directory), safe='/')}"
            server = cls(admin_dsn=dsn, directory=directory, bin_dir=bin_dir, owner=owner, options=options)
            server.pg_ctl("start")
        except NoPostgres:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        return server

    def pg_ctl(self, action: str, *extra: str) -> None:
        """``pg_ctl start|stop ...`` on this server (waits until it is done)."""
        assert self.directory is not None and self.bin_dir is not None
        command = [str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), "-w", "-t", "30", *extra]
        if action == "start":
            command += ["-l", str(self.directory / "server.log"), "-o", self.options]
        self._call(self.owner, [*command, action])

    @staticmethod
    def _call(owner: tuple[int, int] | None, command: list[str]) -> None:
        kwargs = {"user": owner[0], "group": owner[1], "extra_groups": []} if owner else {}
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd="/", **kwargs)
        except (OSError, subprocess.SubprocessError) as error:
            raise NoPostgres(f"{Path(command[0]).name} could not run: {error}") from error
        if result.returncode != 0:
            raise NoPostgres(f"{Path(command[0]).name} failed: {(result.stderr or result.stdout).strip()[-500:]}")

    def dsn_for(self, database: str) -> str:
        base, _, query = self.admin_dsn.partition("?")
        head, _, _old = base.rpartition("/")
        return f"{head}/{database}" + (f"?{query}" if query else "")

    def create_database(self, prefix: str = "test") -> str:
        """A fresh empty database; returns its DSN."""
        import asyncio

        import asyncpg

        name = f"deckhand_{prefix}_{os.getpid()}_{next(_names)}"

        async def create() -> None:
            connection = await asyncpg.connect(self.admin_dsn, timeout=10)
            try:
                await connection.execute(f'CREATE DATABASE "{name}"')
            finally:
                await connection.close()

        # In a thread of its own: a test's event loop may be running in this one.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, create()).result(timeout=30)
        self._databases.append(name)
        return self.dsn_for(name)

    def stop(self) -> None:
        if self.directory is None:
            return
        try:
            self.pg_ctl("stop", "-m", "immediate")
        except NoPostgres:
            pass
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None
