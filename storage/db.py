"""One SQLite database per guild, through aiosqlite, with a bounded connection pool.

- Files live at ``DATA_DIR/guilds/<guild_id>.sqlite3``.
- WAL journal, ``synchronous=FULL`` (a committed move survives a crash or power
  loss), foreign keys on.
- Migrations are the numbered ``migrations/NNN_name.sql`` files, applied in order
  inside one transaction each; ``PRAGMA user_version`` records the last applied.
- aiosqlite runs one thread per connection, so at most ``max_open`` connections are
  kept; the least recently used idle one is closed when another guild needs one.
- Each connection has an asyncio lock: a transaction owns the connection until it
  commits or rolls back, so two coroutines never interleave statements.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, Path]]:
    found = []
    for path in sorted(MIGRATIONS_DIR.iterdir()):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"Migration files must be numbered 001, 002, ... without gaps; found {numbers}")
    return found


class StorageError(RuntimeError):
    """A database problem, phrased for a log line."""


@dataclass
class _Slot:
    connection: aiosqlite.Connection
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # coroutines holding or waiting for the lock; a slot in use is never evicted


class Storage:
    def __init__(self, data_dir: Path, *, max_open: int = 16) -> None:
        if max_open < 1:
            raise ValueError("max_open must be at least 1")
        self.data_dir = Path(data_dir)
        self.guild_dir = self.data_dir / "guilds"
        self.max_open = max_open
        self._slots: OrderedDict[int, _Slot] = OrderedDict()
        self._opening: dict[int, asyncio.Lock] = {}
        self._pool_lock = asyncio.Lock()

    def path_for(self, guild_id: int) -> Path:
        return self.guild_dir / f"{int(guild_id)}.sqlite3"

    def known_guilds(self) -> list[int]:
        """Guilds with a database on disk (for restoring tables on start)."""
        if not self.guild_dir.is_dir():
            return []
        ids = []
        for path in self.guild_dir.glob("*.sqlite3"):
            if path.stem.isdigit():
                ids.append(int(path.stem))
        return sorted(ids)

    @property
    def open_connections(self) -> int:
        return len(self._slots)

    # -- connections ---------------------------------------------------------------

    async def _slot(self, guild_id: int) -> _Slot:
        async with self._pool_lock:
            slot = self._slots.get(guild_id)
            if slot is not None:
                self._slots.move_to_end(guild_id)
                slot.users += 1
                return slot
            await self._evict_for_one_more()
            connection = await self._open(guild_id)
            slot = _Slot(connection, users=1)
            self._slots[guild_id] = slot
            return slot

    async def _evict_for_one_more(self) -> None:
        while len(self._slots) >= self.max_open:
            idle = next((gid for gid, s in self._slots.items() if s.users == 0), None)
            if idle is None:
                # Every connection is mid-transaction: allow a brief overshoot rather
                # than deadlock; it is closed again as soon as it is idle.
                log.warning("All %d database connections are busy; opening one more", self.max_open)
                return
            slot = self._slots.pop(idle)
            await slot.connection.close()

    async def _open(self, guild_id: int) -> aiosqlite.Connection:
        self.guild_dir.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(self.path_for(guild_id), isolation_level=None)
        try:
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=5000"):
                await _run(connection, f"PRAGMA {pragma}")
            connection.row_factory = aiosqlite.Row
            await self._migrate(connection)
        except BaseException:
            await connection.close()
            raise
        return connection

    async def _migrate(self, connection: aiosqlite.Connection) -> None:
        async with connection.execute("PRAGMA user_version") as cursor:
            (current,) = await cursor.fetchone()
        for number, path in migrations():
            if number <= current:
                continue
            sql = path.read_text(encoding="utf-8")
            await connection.execute("BEGIN IMMEDIATE")
            try:
                # executescript would COMMIT first; run statement by statement instead.
                for statement in _split_sql(sql):
                    await _run(connection, statement)
                await _run(connection, f"PRAGMA user_version={number}")
                await connection.execute("COMMIT")
            except BaseException:
                await connection.execute("ROLLBACK")
                raise
            log.info("Applied migration %s", path.name)

    async def _release(self, guild_id: int, slot: _Slot) -> None:
        slot.users -= 1
        if slot.users == 0 and len(self._slots) > self.max_open:
            async with self._pool_lock:
                if slot.users == 0 and self._slots.get(guild_id) is slot and len(self._slots) > self.max_open:
                    del self._slots[guild_id]
                    await slot.connection.close()

    @asynccontextmanager
    async def transaction(self, guild_id: int) -> AsyncIterator[aiosqlite.Connection]:
        """Run statements atomically: committed on normal exit, rolled back on error."""
        slot = await self._slot(guild_id)
        try:
            async with slot.lock:
                db = slot.connection
                await db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                except BaseException:
                    await db.execute("ROLLBACK")
                    raise
                else:
                    await db.execute("COMMIT")
        finally:
            await self._release(guild_id, slot)

    @asynccontextmanager
    async def reading(self, guild_id: int) -> AsyncIterator[aiosqlite.Connection]:
        """Read without a write lock (WAL readers never block the writer)."""
        slot = await self._slot(guild_id)
        try:
            async with slot.lock:
                yield slot.connection
        finally:
            await self._release(guild_id, slot)

    async def close(self) -> None:
        async with self._pool_lock:
            while self._slots:
                _, slot = self._slots.popitem()
                async with slot.lock:
                    await slot.connection.close()


async def _run(connection: aiosqlite.Connection, sql: str) -> None:
    """Execute and close the cursor at once: an open cursor on a statement that
    returns rows (a PRAGMA, say) would keep it "in progress" and block COMMIT."""
    cursor = await connection.execute(sql)
    await cursor.close()


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements. Migrations keep to plain DDL/DML with no
    semicolons inside literals or triggers, which ``sqlite3.complete_statement``
    confirms for each piece."""
    import sqlite3

    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        stripped = line.strip()
        if not buffer and (not stripped or stripped.startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise StorageError(f"Unterminated SQL statement in a migration: {buffer.strip()[:80]}")
    return statements
