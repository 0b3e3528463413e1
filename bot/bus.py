"""A small notification bus between Deckhand processes (issue 13).

When a process commits a change to a table (a DM-hand click arrives at shard 0,
which may be another process than the one holding the guild), it says so on the
bus; the process that owns the guild's shard reloads the table and re-arms its
timers. A message only says *which* table changed and to what version: the
database stays the one source of truth, so a lost message costs a late timer at
worst, and a process resynchronises all its tables when it (re)connects.

- :class:`LocalBus`: in one process (SQLite, or tests with several bots in one
  process). Buses made with the same ``key`` (the data directory) hear each other.
- :class:`PostgresBus`: PostgreSQL ``LISTEN/NOTIFY`` on its own asyncpg
  connection, so no extra service is needed. Notifications are not stored: a
  process that was disconnected resynchronises on reconnect (``on_resync``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

log = logging.getLogger(__name__)

CHANNEL = "deckhand_tables"
RECONNECT_SECONDS = (1, 2, 5, 10, 30)


@dataclass(frozen=True)
class TableChange:
    guild_id: int
    table_id: int
    version: int
    origin: str  # the sending process's bus id, so nobody reacts to its own message

    def encode(self) -> str:
        return json.dumps({"g": self.guild_id, "t": self.table_id, "v": self.version, "o": self.origin}, separators=(",", ":"))

    @classmethod
    def decode(cls, text: str) -> TableChange | None:
        try:
            data = json.loads(text)
            change = cls(int(data["g"]), int(data["t"]), int(data["v"]), str(data["o"]))
        except (ValueError, KeyError, TypeError):
            log.warning("Ignoring a malformed bus message %r", text[:200])
            return None
        return change


Handler = Callable[[TableChange], Awaitable[None]]
Resync = Callable[[], Awaitable[None]]


class Bus(Protocol):
    """What the table manager needs from a bus."""

    origin: str

    async def start(self, on_change: Handler, on_resync: Resync) -> None: ...

    async def publish(self, guild_id: int, table_id: int, version: int) -> None: ...

    async def close(self) -> None: ...


def _new_origin() -> str:
    return secrets.token_hex(6)


class LocalBus:
    """Delivery within one process, between buses that share a ``key``."""

    _members: ClassVar[dict[str, list[LocalBus]]] = {}

    def __init__(self, key: str = "") -> None:
        self.key = key
        self.origin = _new_origin()
        self._on_change: Handler | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, on_change: Handler, on_resync: Resync) -> None:
        self._on_change = on_change
        self._members.setdefault(self.key, []).append(self)

    async def publish(self, guild_id: int, table_id: int, version: int) -> None:
        change = TableChange(guild_id, table_id, version, self.origin)
        for member in list(self._members.get(self.key, [])):
            if member is not self and member._on_change is not None:
                # Delivered in its own task, as a network message would be: the sender never waits on the receiver.
                task = asyncio.create_task(member._deliver(change), name=f"deckhand-bus-{guild_id}-{table_id}")
                member._tasks.add(task)
                task.add_done_callback(member._tasks.discard)

    async def _deliver(self, change: TableChange) -> None:
        assert self._on_change is not None
        try:
            await self._on_change(change)
        except Exception:
            log.exception("Handling a change of table %s in guild %s failed", change.table_id, change.guild_id)

    async def close(self) -> None:
        members = self._members.get(self.key, [])
        if self in members:
            members.remove(self)
        for task in list(self._tasks):
            task.cancel()


class PostgresBus:
    """``LISTEN/NOTIFY`` on one dedicated asyncpg connection (reconnecting when it drops)."""

    def __init__(self, dsn: str, *, channel: str = CHANNEL) -> None:
        self.dsn = dsn
        self.channel = channel
        self.origin = _new_origin()
        self._connection: Any = None
        self._on_change: Handler | None = None
        self._on_resync: Resync | None = None
        self._closing = False
        self._reconnect: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._send_lock = asyncio.Lock()

    async def start(self, on_change: Handler, on_resync: Resync) -> None:
        self._on_change, self._on_resync = on_change, on_resync
        await self._connect()

    async def _connect(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(self.dsn)
        await connection.add_listener(self.channel, self._heard)
        connection.add_termination_listener(self._lost)
        self._connection = connection

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        change = TableChange.decode(payload)
        if change is None or change.origin == self.origin or self._on_change is None or self._closing:
            return
        self._spawn(self._on_change, change)

    def _spawn(self, handler: Handler, change: TableChange) -> None:
        async def run() -> None:
            try:
                await handler(change)
            except Exception:
                log.exception("Handling a change of table %s in guild %s failed", change.table_id, change.guild_id)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lost(self, _connection: Any) -> None:
        if self._closing or (self._reconnect is not None and not self._reconnect.done()):
            return
        log.warning("Lost the PostgreSQL notification connection; reconnecting")
        self._reconnect = asyncio.get_running_loop().create_task(self._reconnect_loop())

    async def _reconnect_loop(self) -> None:
        attempt = 0
        while not self._closing:
            await asyncio.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1
            try:
                await self._connect()
            except Exception as error:
                log.warning("Reconnecting to PostgreSQL for notifications failed (%s); retrying", error)
                continue
            # Messages sent while we were away are gone: read every table's version again.
            if self._on_resync is not None:
                await self._on_resync()
            return

    async def publish(self, guild_id: int, table_id: int, version: int) -> None:
        change = TableChange(guild_id, table_id, version, self.origin)
        connection = self._connection
        if connection is None or connection.is_closed():
            log.warning("No notification connection: table %s in guild %s changed silently", table_id, guild_id)
            return
        try:
            async with self._send_lock:  # one asyncpg connection runs one statement at a time
                await connection.execute("SELECT pg_notify($1, $2)", self.channel, change.encode())
        except Exception as error:
            # The move is committed; the owner learns it at its next resync or move.
            log.warning("Could not send a table notification: %s", error)

    async def close(self) -> None:
        self._closing = True
        if self._reconnect is not None:
            self._reconnect.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close()
            self._connection = None


def bus_for(database_url: str | None, key: str) -> Bus:
    """PostgreSQL's LISTEN/NOTIFY when the database is PostgreSQL, else in-process."""
    if database_url and database_url.startswith(("postgresql://", "postgres://")):
        return PostgresBus(database_url)
    return LocalBus(key)
