"""One SQLite database per guild, through aiosqlite, with a bounded connection pool.

- Files live at ``DATA_DIR/guilds/<guild_id>.sqlite3``.
- WAL journal with ``synchronous=NORMAL``: a committed move survives the process
  crashing or being killed (the COMMIT is in the WAL file, which the next open
  replays); only a power loss or an operating-system crash can lose the last
  transactions before a checkpoint, and never corrupts the file. ``FULL`` would add
  an fsync of the WAL to every move (issue 22); docs/owners/backups.md says so.
  Foreign keys on, ``busy_timeout`` of one second (a move must be answered within
  Discord's 3 s, so a locked file is reported rather than waited out).
- Migrations are the numbered ``migrations/NNN_name.sql`` files, applied in order
  inside one transaction each; ``PRAGMA user_version`` records the last applied.
  The folder is listed once per process.
- aiosqlite runs one thread per connection, so at most ``max_open`` connections are
  kept; the least recently used idle one is closed when another guild needs one.
  No lock is shared between guilds: opening, checking and closing a connection
  blocks only the coroutines that want that same guild.
- Each connection has an asyncio lock: a transaction owns the connection until it
  commits or rolls back, so two coroutines never interleave statements.
- Each aiosqlite call is a trip to the connection's thread and a future back, so
  the hot paths make few, through aiosqlite's public calls only (issue 38):
  :meth:`Storage.write` runs a move's transaction as BEGIN, one trip per statement
  and COMMIT, a statement that returns no rows is one trip (its cursor is not
  closed), and :meth:`Storage.known_user_setting` answers from memory.
- ``DATA_DIR/active/<guild_id>`` marks a guild that may have an unfinished table, so
  a start reads only those files. The marker is written before the COMMIT that
  opens a table and removed after the COMMIT that closes the last one: a stale
  marker costs one extra file open at start, never a lost table.
- SQLite failures that are about the file, not the statement, become
  :class:`StorageError` subclasses with a sentence a player can read.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import sqlite3
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from storage import settings_cache

log = logging.getLogger(__name__)

MIGRATIONS_ROOT = Path(__file__).resolve().parent / "migrations"
#: The SQLite migrations; ``migrations/postgresql`` holds the same numbers for PostgreSQL.
MIGRATIONS_DIR = MIGRATIONS_ROOT / "sqlite"
DIALECTS = ("sqlite", "postgresql")
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

#: How long SQLite waits for another process's write lock, in ms.
BUSY_TIMEOUT_MS = 1000
#: How long a coroutine waits for its guild's connection (another transaction on it).
CONNECTION_WAIT_SECONDS = 1.0
DEFAULT_MAX_OPEN = 256
#: File handles kept free for sockets, logs and the rest of the process.
_RESERVED_FILE_HANDLES = 256
#: Handles per open guild database: the file, its -wal and its -shm.
_HANDLES_PER_DATABASE = 3

_INDEX_BUILT = ".built"


@functools.cache
def migrations(dialect: str = "sqlite") -> list[tuple[int, Path]]:
    """The numbered migrations of one dialect, in order (listed once per process)."""
    if dialect not in DIALECTS:
        raise ValueError(f"Unknown SQL dialect {dialect!r}")
    found = []
    for path in sorted((MIGRATIONS_ROOT / dialect).iterdir()):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"Migration files must be numbered 001, 002, ... without gaps; found {numbers}")
    return found


@functools.cache
def _migration_sql(number: int) -> list[str]:
    path = dict(migrations())[number]
    return _split_sql(path.read_text(encoding="utf-8"))


def pool_budget(cap: int = DEFAULT_MAX_OPEN) -> int:
    """The pool size: ``cap``, lowered to what the process's file-handle limit allows."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, ValueError, OSError):
        return cap
    if soft == resource.RLIM_INFINITY:
        return cap
    return max(1, min(cap, (soft - _RESERVED_FILE_HANDLES) // _HANDLES_PER_DATABASE))


class StorageError(RuntimeError):
    """A database problem. ``str()`` is a log line (the cause); ``sentence`` is for a
    player; ``remedy`` tells the bot's owner what to do, in the log."""

    sentence = "I could not reach this server's saved data just now, so nothing changed. Please try again."
    remedy = "Check the disk under DATA_DIR (dmesg, df); nothing needs a restart."


class GuildDataUnreadable(StorageError):
    sentence = (
        "This server's saved data cannot be read (its database file is damaged), so I cannot do that. "
        "The bot's owner should restore it from a backup; see docs/owners/troubleshooting.md."
    )
    remedy = "Restore the file from a backup, or set it aside with `python -m bot quarantine <server id>` (docs/owners/troubleshooting.md)."


class GuildDataReadOnly(StorageError):
    sentence = "I cannot save anything for this server right now (my data folder is read-only), so nothing changed."
    remedy = "Let the bot's user write DATA_DIR (a read-only mount, its owner) or free disk space; nothing needs a restart."


class GuildDataMissing(StorageError):
    """``reading(guild_id, create=False)`` for a guild with no database: an id that
    came from outside (a custom_id) never creates storage."""

    sentence = "That table no longer exists."


class GuildDataBusy(StorageError):
    sentence = "This server's saved data is busy right now, so nothing changed. Please try again in a moment."
    remedy = (
        "Something else held the database for over a second: on SQLite a backup or an open sqlite3 shell "
        "(use the online .backup, which does not block the bot), on PostgreSQL a long transaction (see pg_stat_activity)."
    )


def log_failure(logger: logging.Logger, error: BaseException, message: str, *args: object, level: int = logging.WARNING) -> None:
    """Log an expected failure (a damaged file, a full or read-only disk, a snapshot that
    must be replayed): one line, ``message`` with its cause, then what to do when the error
    is a StorageError. The traceback is no news to the owner, so it goes out at DEBUG only."""
    remedy = getattr(error, "remedy", None)
    logger.log(level, f"{message} {remedy.replace('%', '%%')}" if remedy else message, *args)
    logger.debug("The failure above, in full:", exc_info=error)


_UNREADABLE = {sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT}
_READONLY = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_FULL}
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


def classify(error: BaseException, path: Path) -> StorageError | None:
    """The StorageError for a file-level failure, or None for a statement's own error
    (an IntegrityError, say), which callers handle as before."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, PermissionError) or (isinstance(error, OSError) and error.errno in (30, 13)):
        return GuildDataReadOnly(f"{path}: {error}")
    if isinstance(error, OSError):
        return StorageError(f"{path}: {error}")
    if not isinstance(error, sqlite3.Error) or isinstance(error, sqlite3.IntegrityError):
        return None
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in _UNREADABLE:
        return GuildDataUnreadable(f"{path}: {error}")
    if primary in _READONLY:
        return GuildDataReadOnly(f"{path}: {error}")
    if primary in _BUSY:
        return GuildDataBusy(f"{path}: {error}")
    if primary == sqlite3.SQLITE_IOERR:
        return StorageError(f"{path}: {error}")
    return None


class StorageUnavailable(StorageError):
    """The database server cannot be reached or refuses the bot (PostgreSQL only)."""


class ConstraintViolation(sqlite3.IntegrityError):
    """A statement broke a constraint on PostgreSQL. It subclasses
    ``sqlite3.IntegrityError`` so callers catch one exception on both backends."""


class _Flags:
    """Set from SQLite's worker thread by a temp trigger: a table opened or closed."""

    __slots__ = ("status_changed",)

    def __init__(self) -> None:
        self.status_changed = False

    def touch(self) -> int:
        self.status_changed = True
        return 0


@dataclass
class _Slot:
    connection: aiosqlite.Connection
    flags: _Flags
    file: str  # the key of its players' settings in storage.settings_cache
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # coroutines holding or waiting for the lock; a slot in use is never evicted


async def acquire_within(lock: asyncio.Lock, seconds: float, *, alone: bool) -> None:
    """Take ``lock``, or raise TimeoutError after ``seconds``. ``alone``: no other
    coroutine holds or waits for it (the caller counts them), so it is taken at once
    with no timer at all; else under ``asyncio.timeout`` (``wait_for`` would make a
    task and a loop turn of it: about 45 us a call against 12; issue 22)."""
    if alone and not lock.locked():
        await lock.acquire()
        return
    async with asyncio.timeout(seconds):
        await lock.acquire()


@dataclass(frozen=True, slots=True)
class Write:
    """One statement of a write that ``storage.write(guild_id, writes)`` runs in one
    transaction, or that
    :func:`run_writes` runs inside a transaction already open. ``rows``: how many rows
    it must change, else the whole write is abandoned (a move's version guard).
    :mod:`storage.repos` builds them (``table_update_at_version``, ``action_insert``)."""

    sql: str
    parameters: tuple[Any, ...] = ()
    rows: int | None = None


async def execute_count(db: Any, sql: str, parameters: Sequence[Any] = ()) -> int:
    """Run one INSERT/UPDATE/DELETE on a connection of either backend and return how
    many rows it changed. On SQLite one trip to the connection's thread: the cursor is
    left to go (sqlite3 resets a statement that returns no rows once it has run; closing
    it would be a second trip); on PostgreSQL it is closed at once."""
    if getattr(db, "dialect", "sqlite") == "sqlite":
        return (await db.execute(sql, parameters)).rowcount
    cursor = await db.execute(sql, parameters)
    try:
        return cursor.rowcount
    finally:
        await cursor.close()


async def run_writes(db: Any, writes: Sequence[Write]) -> bool:
    """Run ``writes`` in order in an open transaction (either backend); False at the
    first that changed another number of rows than its ``rows`` (the caller rolls back)."""
    for write in writes:
        changed = await execute_count(db, write.sql, write.parameters)
        if write.rows is not None and changed != write.rows:
            return False
    return True


_ANY_ACTIVE = "SELECT EXISTS (SELECT 1 FROM game_tables WHERE status IN ('lobby', 'playing'))"


#: Tries of :meth:`Storage.scrub`'s checkpoint while another reader holds old pages.
SCRUB_ATTEMPTS = 5


async def _scrub_once(connection: aiosqlite.Connection) -> bool:
    """:meth:`Storage.scrub`'s work: True when the checkpoint could not finish (another
    connection reads an older snapshot)."""
    (secure,) = await _one_row(connection, "PRAGMA secure_delete")
    (temp,) = await _one_row(connection, "PRAGMA temp_store")
    try:
        await _run(connection, "PRAGMA secure_delete=ON")  # freed space is zeroed, not left as it was
        await _run(connection, "PRAGMA temp_store=MEMORY")  # VACUUM's copy never touches a temp file
        await _run(connection, "VACUUM")
        busy, _frames, _done = await _one_row(connection, "PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await _run(connection, f"PRAGMA secure_delete={int(secure)}")
        await _run(connection, f"PRAGMA temp_store={int(temp)}")
    return bool(busy)


async def _one_row(connection: aiosqlite.Connection, sql: str) -> Any:
    async with connection.execute(sql) as cursor:
        return await cursor.fetchone()


def _is_id(name: str) -> bool:
    """A guild id in a file name: ASCII digits only (``isdigit`` also takes '²', which ``int`` refuses)."""
    return name.isascii() and name.isdigit() and len(name) < 20


def _connect_target(path: Path) -> str:
    """What aiosqlite opens (a seam: tests open read-only to stand in for a read-only disk)."""
    return str(path)


class Storage:
    """Per-guild SQLite: the default backend (``DATABASE_URL`` unset).

    The interface both backends implement (see :mod:`storage.pg` for PostgreSQL):

    - ``dialect``: ``"sqlite"`` or ``"postgresql"``.
    - ``async with transaction(guild_id) as db`` / ``async with reading(guild_id) as db``:
      a connection for :mod:`storage.repos`. ``await db.execute(sql, params)`` takes
      ``?`` placeholders on both backends and returns a cursor with ``fetchone()``,
      ``fetchall()``, ``rowcount`` and ``close()`` (also usable as ``async with``); rows
      are addressable by index and by column name. ``rowcount`` of an UPDATE is the
      number of rows it changed, so ``UPDATE ... WHERE id = ? AND version = ?`` tells a
      stale write (``repos.update_table_at_version`` returns that as a bool).
      Transactions of one guild never interleave within a process; a failed one
      changes nothing.
    - ``await write(guild_id, writes)``: a transaction of :class:`storage.db.Write`
      statements in one call, False
      when one's ``rows`` guard did not hold (rolled back); what a move saves.
    - ``known_user_setting(guild_id, user_id, key)``: a player's setting from memory, or
      ``settings_cache.UNKNOWN`` when it must be read (always, on PostgreSQL).
    - ``active_guilds()``, ``refresh_marker(guild_id)``, ``has_database(guild_id)``,
      ``probe(guild_id)``, ``close()``.
    - ``await scrub(guild_id)``: after data was erased (``/privacy forget``), leave none of
      its bytes in the guild's storage where that can be done (SQLite: rewrite the file and
      empty its WAL; PostgreSQL: VACUUM, see docs/players/your-data.md). Raises
      :class:`GuildDataBusy` when another reader keeps the old pages.
    - Failures of the database itself raise :class:`StorageError` subclasses whose
      ``sentence`` a player can read; a broken constraint raises
      ``sqlite3.IntegrityError`` (:class:`ConstraintViolation` on PostgreSQL).
    """

    dialect = "sqlite"

    def __init__(self, data_dir: Path, *, max_open: int = DEFAULT_MAX_OPEN, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        if max_open < 1:
            raise ValueError("max_open must be at least 1")
        self.data_dir = Path(data_dir)
        self.guild_dir = self.data_dir / "guilds"
        self.index_dir = self.data_dir / "active"
        self.max_open = max_open
        #: Connections the file-handle limit allows, servers with a game in play included.
        self._handle_budget = max(max_open, pool_budget(2**31))
        self._settled_size = 0  # the pool's size after the last eviction pass
        self.busy_timeout_ms = busy_timeout_ms
        self._slots: OrderedDict[int, _Slot] = OrderedDict()
        self._opening: dict[int, asyncio.Future[_Slot]] = {}
        self._closers: set[asyncio.Task[None]] = set()
        self._checked: set[int] = set()  # guilds whose schema version was checked this process
        self._marked: set[int] | None = None  # guilds with an index marker (loaded lazily)
        self._reported: set[tuple[int, str]] = set()  # (guild, kind) already logged
        #: What a guild with no database reads: the schema without a row, in memory
        #: (opened at the first such read; reading never creates a file).
        self._nothing: _Slot | None = None
        self._nothing_opening = asyncio.Lock()

    def path_for(self, guild_id: int) -> Path:
        return self.guild_dir / f"{int(guild_id)}.sqlite3"

    def has_database(self, guild_id: int) -> bool:
        return self.path_for(guild_id).exists()

    def known_guilds(self) -> list[int]:
        """Guilds with a database on disk."""
        if not self.guild_dir.is_dir():
            return []
        ids = []
        for path in self.guild_dir.glob("*.sqlite3"):
            if _is_id(path.stem):
                ids.append(int(path.stem))
        return sorted(ids)

    @property
    def open_connections(self) -> int:
        return len(self._slots)

    # -- the index of guilds with unfinished tables ----------------------------------

    def _load_markers(self) -> set[int]:
        if self._marked is None:
            marked = set()
            if self.index_dir.is_dir():
                for path in self.index_dir.iterdir():
                    if _is_id(path.name):
                        marked.add(int(path.name))
            self._marked = marked
        return self._marked

    async def active_guilds(self) -> list[int]:
        """Guilds that may have an unfinished table. The first start after an upgrade
        (no index yet) checks every guild file once and writes the index."""
        if not (self.index_dir / _INDEX_BUILT).exists():
            await self._build_index()
        marked = self._load_markers()
        for guild_id in sorted(marked):
            self._drop_if_dangling(guild_id)
        return sorted(marked)

    def _drop_if_dangling(self, guild_id: int) -> None:
        """A marker says a guild's file may hold an unfinished table. One whose file is
        missing (deleted, moved, a backup restored without it) is dangling: following it
        would create an empty database, and a marker never creates storage. It is
        reported in one line and removed. A marker that is not a plain file (a directory)
        is replaced by one when the guild's file is there, else removed the same way."""
        marker = self.index_dir / str(guild_id)
        database = self.path_for(guild_id)
        plain = marker.is_file() and not marker.is_symlink()
        if plain and database.is_file():
            return
        keep = database.is_file()  # only the marker's form is wrong: the guild stays listed
        try:
            if marker.is_dir() and not marker.is_symlink():
                marker.rmdir()  # only an empty one: nothing of the owner's is deleted
            else:
                marker.unlink(missing_ok=True)
            if keep:
                marker.touch()
            done = "replaced it with one" if keep else "removed it"
        except OSError as error:
            done = f"could not {'replace' if keep else 'remove'} it ({error.strerror or error}): remove it by hand"
        if keep:
            log.warning("The active-table marker %s was not a plain file; %s.", marker, done)
            return
        self._load_markers().discard(guild_id)
        missing = "is not a file" if database.exists() else "is missing"
        log.warning("The active-table marker %s names server %s, whose database %s %s: nothing to restore there; %s.",
                    marker, guild_id, database, missing, done)

    async def _build_index(self) -> None:
        self._marked = set()
        for guild_id in self.known_guilds():
            try:
                async with self.reading(guild_id) as db:
                    async with db.execute("SELECT EXISTS (SELECT 1 FROM game_tables WHERE status IN ('lobby', 'playing'))") as cursor:
                        (active,) = await cursor.fetchone()
            except StorageError:
                active = True  # unreadable now: keep it listed, so it is retried on every start
            if active:
                self._set_marker(guild_id, True)
        try:
            self.index_dir.mkdir(parents=True, exist_ok=True)
            (self.index_dir / _INDEX_BUILT).touch()
        except OSError as error:
            log.warning("Could not write the index of active guilds in %s: %s", self.index_dir, error)

    async def refresh_marker(self, guild_id: int) -> None:
        """Drop a stale marker (a guild listed with no unfinished table), checked under
        the write lock so a table opening at the same moment keeps its marker."""
        if guild_id not in self._load_markers():
            return
        async with self.transaction(guild_id) as db:
            async with db.execute("SELECT EXISTS (SELECT 1 FROM game_tables WHERE status IN ('lobby', 'playing'))") as cursor:
                (active,) = await cursor.fetchone()
            if not active:
                self._set_marker(guild_id, False)

    def _set_marker(self, guild_id: int, active: bool) -> None:
        marked = self._load_markers()
        if active == (guild_id in marked):
            return
        path = self.index_dir / str(int(guild_id))
        try:
            if active:
                self.index_dir.mkdir(parents=True, exist_ok=True)
                path.touch()
                marked.add(guild_id)
            else:
                path.unlink(missing_ok=True)
                marked.discard(guild_id)
        except OSError as error:
            if active:
                raise classify(error, path) or StorageError(str(error)) from error
            log.warning("Could not clear the active-table marker %s: %s", path, error)

    # -- connections ---------------------------------------------------------------

    async def _slot(self, guild_id: int, create: bool = True) -> _Slot:
        while True:
            slot = self._slots.get(guild_id)
            if slot is not None:
                self._slots.move_to_end(guild_id)
                slot.users += 1
                return slot
            pending = self._opening.get(guild_id)
            if pending is not None:
                # Someone is opening this guild already: share their result (or error).
                await asyncio.shield(pending)
                continue
            future: asyncio.Future[_Slot] = asyncio.get_running_loop().create_future()
            self._opening[guild_id] = future
            try:
                slot = await self._open(guild_id, create)
            except BaseException as error:
                future.set_exception(error)
                future.exception()  # retrieved: no "never retrieved" warning when nobody waited
                raise
            finally:
                self._opening.pop(guild_id, None)
            slot.users = 1
            self._slots[guild_id] = slot
            future.set_result(slot)
            self._evict_idle()
            return slot

    def _evict_idle(self) -> None:
        """Close least recently used idle connections beyond the cap, in the background.

        Idle servers go first: a server with an unfinished table (its marker in the
        index) keeps its connection, since its next move would only open it again
        (issue 22: with more active servers than the cap, most moves reopened their
        database). Active servers are closed too only past what the process's file
        handles allow (:func:`pool_budget` without a cap: three handles each)."""
        if len(self._slots) <= self.max_open:
            return
        active = self._load_markers()
        idle = [g for g, s in self._slots.items() if s.users == 0]
        self._close_slots([g for g in idle if g not in active], self.max_open)
        self._close_slots([g for g in idle if g in active and g in self._slots], self._handle_budget)
        self._settled_size = len(self._slots)
        # If every connection is in use the pool overshoots briefly rather than
        # deadlock; the extra ones close as soon as they are idle.

    def _close_slots(self, guilds: list[int], keep: int) -> None:
        for guild_id in guilds:
            if len(self._slots) <= keep:
                break
            slot = self._slots.pop(guild_id)
            task = asyncio.create_task(self._close_quietly(slot))
            self._closers.add(task)
            task.add_done_callback(self._closers.discard)

    @staticmethod
    async def _close_quietly(slot: _Slot) -> None:
        async with slot.lock:
            with suppress(Exception):
                await slot.connection.close()

    def _report(self, guild_id: int, error: StorageError) -> StorageError:
        kind = type(error).__name__
        if (guild_id, kind) not in self._reported:
            self._reported.add((guild_id, kind))
            log.error("Guild %s: %s (%s). %s Reported once until it recovers.", guild_id, error, kind, error.remedy)
        return error

    def _failure(self, guild_id: int, error: BaseException) -> StorageError | None:
        classified = classify(error, self.path_for(guild_id))
        return self._report(guild_id, classified) if classified is not None else None

    async def _open(self, guild_id: int, create: bool = True) -> _Slot:
        path = self.path_for(guild_id)
        fresh = not path.exists()
        if fresh and not create:
            raise GuildDataMissing(f"guild {guild_id}: no database (not created for an id from outside)")
        try:
            if fresh:
                self.guild_dir.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(_connect_target(path), isolation_level=None, uri=True)
        except Exception as error:
            raise (self._failure(guild_id, error) or error) from error
        flags = _Flags()
        try:
            await connection.executescript(
                f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}; PRAGMA journal_mode=WAL;"
                " PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
            )
            connection.row_factory = aiosqlite.Row
            if fresh or guild_id not in self._checked:
                await self._migrate(connection)
                self._checked.add(guild_id)
            await connection.create_function("dh_status_changed", 0, flags.touch)
            await connection.executescript(
                "CREATE TEMP TRIGGER dh_table_opened AFTER INSERT ON main.game_tables"
                " BEGIN SELECT dh_status_changed(); END;"
                "CREATE TEMP TRIGGER dh_table_status AFTER UPDATE OF status ON main.game_tables"
                " WHEN OLD.status IS NOT NEW.status BEGIN SELECT dh_status_changed(); END;"
            )
        except BaseException as error:
            with suppress(Exception):
                await connection.close()
            if isinstance(error, Exception):
                raise (self._failure(guild_id, error) or error) from error
            raise
        self._reported = {r for r in self._reported if r[0] != guild_id}
        settings_cache.register(connection, str(path))
        return _Slot(connection, flags, str(path))

    async def _migrate(self, connection: aiosqlite.Connection, *, quiet: bool = False) -> None:
        async with connection.execute("PRAGMA user_version") as cursor:
            (current,) = await cursor.fetchone()
        for number, path in migrations():
            if number <= current:
                continue
            await connection.execute("BEGIN IMMEDIATE")
            try:
                # executescript would COMMIT first; run statement by statement instead.
                for statement in _migration_sql(number):
                    await _run(connection, statement)
                await _run(connection, f"PRAGMA user_version={number}")
                await connection.execute("COMMIT")
            except BaseException:
                await _rollback(connection)
                raise
            if not quiet:
                log.info("Applied migration %s", path.name)

    async def _empty(self) -> _Slot:
        """The database a guild with no file reads: every table, no row, in memory and
        read-only (``query_only``), one per process."""
        async with self._nothing_opening:
            if self._nothing is None:
                connection = await aiosqlite.connect(":memory:", isolation_level=None)
                try:
                    await self._migrate(connection, quiet=True)
                    await connection.execute("PRAGMA query_only=ON")
                except BaseException:
                    with suppress(Exception):
                        await connection.close()
                    raise
                connection.row_factory = aiosqlite.Row
                self._nothing = _Slot(connection, _Flags(), ":memory:")
            return self._nothing

    def _release(self, slot: _Slot) -> None:
        slot.users -= 1
        # With more active servers than the cap the pool stays above it; scanning it
        # again at every release would find nothing to close until it grows.
        if slot.users == 0 and len(self._slots) > max(self.max_open, self._settled_size):
            self._evict_idle()

    @asynccontextmanager
    async def _locked(self, guild_id: int, create: bool = True) -> AsyncIterator[_Slot]:
        slot = await self._slot(guild_id, create)
        try:
            try:
                await acquire_within(slot.lock, CONNECTION_WAIT_SECONDS, alone=slot.users == 1)
            except TimeoutError:
                raise GuildDataBusy(f"guild {guild_id}: its connection stayed busy for {CONNECTION_WAIT_SECONDS} s") from None
            try:
                yield slot
            finally:
                slot.lock.release()
        finally:
            self._release(slot)

    def _raise_failure(self, guild_id: int, error: BaseException) -> None:
        """Raise the StorageError that ``error`` means, if it is about the file; else return."""
        if isinstance(error, Exception):
            failure = self._failure(guild_id, error)
            if failure is not None:
                raise failure from error

    async def _commit(self, guild_id: int, slot: _Slot) -> None:
        """COMMIT the slot's open transaction. A table opened or closed in it: mark
        first, so a crash after the COMMIT can leave a stale marker but never an
        unlisted table."""
        if slot.flags.status_changed:
            self._set_marker(guild_id, True)
        await slot.connection.execute("COMMIT")

    async def _unmark_if_idle(self, guild_id: int, slot: _Slot) -> None:
        """After a COMMIT that opened or closed a table: drop the marker if none is left."""
        if not slot.flags.status_changed:
            return
        slot.flags.status_changed = False
        with suppress(Exception):
            async with slot.connection.execute(_ANY_ACTIVE) as cursor:
                (active,) = await cursor.fetchone()
            if not active:
                self._set_marker(guild_id, False)

    @asynccontextmanager
    async def transaction(self, guild_id: int) -> AsyncIterator[aiosqlite.Connection]:
        """Run statements atomically: committed on normal exit, rolled back on error
        (a failed COMMIT included: the connection never keeps an open transaction)."""
        async with self._locked(guild_id) as slot:
            db = slot.connection
            slot.flags.status_changed = False
            try:
                await db.execute("BEGIN IMMEDIATE")
            except Exception as error:
                await _rollback(db)
                raise (self._failure(guild_id, error) or error) from error
            try:
                yield db
                await self._commit(guild_id, slot)
            except BaseException as error:
                await _rollback(db)
                self._raise_failure(guild_id, error)
                raise
            await self._unmark_if_idle(guild_id, slot)

    async def write(self, guild_id: int, writes: Sequence[Write]) -> bool:
        """Run ``writes`` (:class:`storage.db.Write`) in one transaction: what a move
        saves. True when committed; False when a statement changed another number of
        rows than its ``rows`` (a stale version): rolled back, nothing changed.
        Failures as in :meth:`transaction` (a StorageError for the file's, the
        statement's own error otherwise), always rolled back. aiosqlite's public calls
        only (issue 38: a trip to the connection's thread per call, measured in
        bench/README.md, "aiosqlite's public API")."""
        writes = tuple(writes)
        async with self._locked(guild_id) as slot:
            db = slot.connection
            slot.flags.status_changed = False
            try:
                await db.execute("BEGIN IMMEDIATE")
                if not await run_writes(db, writes):
                    await _rollback(db)
                    return False
                await self._commit(guild_id, slot)  # a table opened or closed: marked first, then committed
            except BaseException as error:
                # Ends what is left open: a failed statement's, a failed marker's or
                # COMMIT's transaction, or a cancelled caller's (queued after the
                # statement its thread is still running).
                await _rollback_queued(db)
                self._raise_failure(guild_id, error)
                raise
            await self._unmark_if_idle(guild_id, slot)
            return True

    def known_user_setting(self, guild_id: int, user_id: int, key: str) -> Any:
        """A player's setting as :mod:`storage.settings_cache` keeps it (the value, or
        ``settings_cache.UNSET``), with no trip to the connection and no wait for its
        lock; ``settings_cache.UNKNOWN`` when it must be read (``repos.get_user_setting``
        through :meth:`reading`). Only while the guild's connection is open, so what is
        answered is what a read through it would answer (the settings are dropped
        whenever a connection opens the file afresh)."""
        slot = self._slots.get(guild_id)
        if slot is None:
            return settings_cache.UNKNOWN
        self._slots.move_to_end(guild_id)  # used, as a read through it would be
        return settings_cache.known(slot.file, user_id, key)

    @asynccontextmanager
    async def reading(self, guild_id: int, *, create: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """Read without a write lock (WAL readers never block the writer). Reading never
        creates storage: a guild with no database reads as an empty one (every table, no
        row: a read-only database in memory), and its file is created by its first write
        (:meth:`transaction`, :meth:`write`). With ``create=False`` (ids taken from
        outside, e.g. a custom_id) a guild with no database raises
        :class:`GuildDataMissing` instead (the name is from when reading created files)."""
        if create and guild_id not in self._slots and guild_id not in self._opening and not self.path_for(guild_id).exists():
            nothing = await self._empty()
            async with nothing.lock:
                yield nothing.connection
            return
        async with self._locked(guild_id, create) as slot:
            try:
                yield slot.connection
            except Exception as error:
                self._raise_failure(guild_id, error)
                raise

    async def scrub(self, guild_id: int) -> None:
        """Leave no byte of erased data in the guild's files (``/privacy forget``).

        A DELETE or UPDATE leaves the old bytes behind twice over: in the WAL (the pages
        as they were, until a checkpoint) and in the database file's free space (freed
        cells and pages are not overwritten). So the file is rebuilt (VACUUM, with
        ``secure_delete`` on and its temporary copy in memory, never in a temp file), then
        the WAL is checkpointed into it and truncated to nothing. A copy of the files
        taken afterwards holds only live rows. Another connection reading an old snapshot
        (a backup running) makes the checkpoint wait; it is tried for a few seconds, then
        :class:`GuildDataBusy` is raised (the erased rows are gone from every query
        already; running it again finishes the job)."""
        if not self.has_database(guild_id):
            return
        async with self._locked(guild_id) as slot:
            for attempt in range(SCRUB_ATTEMPTS):
                try:
                    busy = await _scrub_once(slot.connection)
                except Exception as error:
                    self._raise_failure(guild_id, error)
                    raise
                if not busy:
                    return
                await asyncio.sleep(0.2 * (attempt + 1))
        raise self._report(guild_id, GuildDataBusy(f"guild {guild_id}: another reader kept the WAL's old pages; the scrub is unfinished"))

    async def probe(self, guild_id: int) -> None:
        """Open (or reuse) the guild's connection, creating its database if it has none
        (unlike :meth:`reading`): raises StorageError if it cannot be read. The bot probes
        only servers that have a database (``has_database``)."""
        async with self._locked(guild_id):
            pass

    async def close_guild(self, guild_id: int) -> None:
        """Close one guild's connection (waiting for its transaction), e.g. before its
        file is deleted (storage/purge.py); the next use opens it afresh."""
        slot = self._slots.pop(guild_id, None)
        self._checked.discard(guild_id)
        settings_cache.forget(str(self.path_for(guild_id)))
        if slot is not None:
            await self._close_quietly(slot)

    async def close(self) -> None:
        if self._nothing is not None:
            nothing, self._nothing = self._nothing, None
            async with nothing.lock:
                with suppress(Exception):
                    await nothing.connection.close()
        while self._slots:
            _, slot = self._slots.popitem()
            async with slot.lock:
                with suppress(Exception):
                    await slot.connection.close()
        if self._closers:
            await asyncio.gather(*self._closers, return_exceptions=True)


async def _rollback(connection: aiosqlite.Connection) -> None:
    if not connection.in_transaction:
        return
    try:
        await connection.execute("ROLLBACK")
    except Exception:
        log.exception("ROLLBACK failed; closing nothing, the next BEGIN will tell")


async def _rollback_queued(connection: aiosqlite.Connection) -> None:
    """ROLLBACK queued after what the connection's thread still has to run (a cancelled
    caller's statement, whose transaction the loop's side cannot see yet): SQLite says
    "no transaction is active" when there is none, and that is the answer wanted."""
    with suppress(Exception):
        await _run(connection, "ROLLBACK")


async def _run(connection: aiosqlite.Connection, sql: str) -> None:
    """Execute and close the cursor at once: an open cursor on a statement that
    returns rows (a PRAGMA, say) would keep it "in progress" and block COMMIT."""
    cursor = await connection.execute(sql)
    await cursor.close()


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements. Migrations keep to plain DDL/DML with no
    semicolons inside literals or triggers, which ``sqlite3.complete_statement``
    confirms for each piece."""
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
