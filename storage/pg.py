"""All guilds in one PostgreSQL database, through asyncpg (``DATABASE_URL=postgresql://...``).

Why a thin adapter and not SQLAlchemy's async core: :mod:`storage.repos` already
holds every query once, in plain SQL that both SQLite and PostgreSQL accept (upserts
with ``ON CONFLICT``, ``RETURNING``, ``CASE`` instead of boolean sums). What differs
is mechanical: ``?`` placeholders become ``$1, $2...`` (translated once per query
text and cached), and asyncpg's rows are already addressable by index and by column
name like ``aiosqlite.Row``. SQLAlchemy would add a dependency, an expression layer
and a second connection pool for no query we could not already write once, and it
hides asyncpg's LISTEN/NOTIFY and row counts behind its own API.

Guild scoping: the base tables (schema ``deckhand``) carry ``guild_id`` in every key.
The bot's connections have ``search_path=deckhand_guild``, whose views show only the
rows of the guild named by the transaction-local setting ``deckhand.guild_id`` and
refuse others (``WITH CHECK OPTION``); an unset guild is an error. So the same
``SELECT * FROM game_tables WHERE id = ?`` reads one guild's row on both backends,
and no query of ``repos`` can see another guild's rows. The few cross-guild queries
(:meth:`PostgresStorage.active_guilds`, ``deckhand migrate``) name ``deckhand.``
tables explicitly.

Timeouts are short because a move must be answered within Discord's 3 s: a
connection from the pool within 1 s, a statement within 1.5 s (server side) or 2 s
(client side), a new connection within 2 s. Failures become the same
:class:`~storage.db.StorageError` sentences as on SQLite.

For part 2 (several processes): :attr:`PostgresStorage.pool` is the asyncpg pool,
:attr:`PostgresStorage.dsn` the URL (for a dedicated LISTEN connection), and a
cursor's ``rowcount`` tells how many rows an UPDATE changed.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import socket
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, NoReturn
from urllib.parse import parse_qs, unquote

import asyncpg

from storage import settings_cache
from storage.db import (
    ConstraintViolation,
    GuildDataBusy,
    GuildDataReadOnly,
    StorageError,
    StorageUnavailable,
    Write,
    acquire_within,
    migrations,
    run_writes,
)

log = logging.getLogger(__name__)

ACQUIRE_TIMEOUT_SECONDS = 1.0
CONNECT_TIMEOUT_SECONDS = 2.0
STATEMENT_TIMEOUT_MS = 1500
COMMAND_TIMEOUT_SECONDS = 2.0
#: How long a coroutine waits for another transaction of its guild in this process.
GUILD_WAIT_SECONDS = 1.0
DEFAULT_POOL_SIZE = 10
#: pg_advisory_xact_lock key taken while migrations run (two processes may start at once).
MIGRATION_LOCK = 0x4465636B  # "Deck"
SEARCH_PATH = "deckhand_guild"

_ACTIVE_GUILDS = "SELECT DISTINCT guild_id FROM deckhand.game_tables WHERE status IN ('lobby', 'playing') ORDER BY guild_id"


class DatabaseReadOnly(GuildDataReadOnly):
    sentence = "I cannot save anything right now (my database refuses writes), so nothing changed."
    remedy = "PostgreSQL refuses writes (a read-only replica, or its disk is full): point DATABASE_URL at the primary, or free space."


class DatabaseUnreachable(StorageUnavailable):
    sentence = "I could not reach my database just now, so nothing changed. Please try again in a moment."
    remedy = "Check that PostgreSQL runs and answers at DATABASE_URL's host and port; the bot carries on once it does."


class DatabaseRefused(StorageUnavailable):
    sentence = "My database refused me (the bot's owner must check its settings), so nothing changed."
    remedy = "Check the user, password and database name in DATABASE_URL, and that user's rights; the bot carries on once they work."


# ----------------------------------------------------------------- the adapter


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """``?`` placeholders to ``$1, $2, ...``, leaving quoted text and identifiers alone."""
    out, n, quote = [], 0, None
    for char in sql:
        if quote:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(char)
    return "".join(out)


_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|SHOW|TABLE)\b|\bRETURNING\b", re.IGNORECASE)
_STATUS_COUNT = re.compile(r"(\d+)$")


@functools.lru_cache(maxsize=1024)
def _returns_rows(sql: str) -> bool:
    return bool(_RETURNS_ROWS.search(sql))


class PgCursor:
    """The part of aiosqlite's cursor that repos and callers use."""

    __slots__ = ("_rows", "_next", "rowcount")

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        row = self._rows[self._next]
        self._next += 1
        return row

    async def fetchall(self) -> list[asyncpg.Record]:
        rows = self._rows[self._next:]
        self._next = len(self._rows)
        return rows

    async def close(self) -> None:
        self._rows = []

    async def __aenter__(self) -> PgCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class _PendingCursor:
    """``await db.execute(...)`` or ``async with db.execute(...) as cursor``, as aiosqlite."""

    __slots__ = ("_coro", "_cursor")

    def __init__(self, coro: Any) -> None:
        self._coro = coro
        self._cursor: PgCursor | None = None

    def __await__(self):
        return self._coro.__await__()

    async def __aenter__(self) -> PgCursor:
        self._cursor = await self._coro
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class PgConnection:
    """An asyncpg connection inside one guild's transaction, speaking aiosqlite's
    ``execute(sql, params)`` with ``?`` placeholders."""

    dialect = "postgresql"

    def __init__(self, connection: asyncpg.Connection, guild_id: int) -> None:
        self.raw = connection
        self.guild_id = guild_id

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _PendingCursor:
        return _PendingCursor(self._execute(sql, parameters))

    async def _execute(self, sql: str, parameters: Sequence[Any]) -> PgCursor:
        query = translate(sql)
        try:
            if _returns_rows(sql):
                rows = await self.raw.fetch(query, *parameters)
                return PgCursor(rows, len(rows))
            status = await self.raw.execute(query, *parameters)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConstraintViolation(str(error)) from error
        match = _STATUS_COUNT.search(status or "")
        return PgCursor([], int(match.group(1)) if match else -1)


# ---------------------------------------------------------------------- errors


def classify(error: BaseException, where: str) -> StorageError | None:
    """The StorageError for a failure of the database (not of the statement), or None."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError,
                          asyncpg.InvalidCatalogNameError, asyncpg.InsufficientPrivilegeError)):
        return DatabaseRefused(f"{where}: {type(error).__name__}: {error}")
    if isinstance(error, (asyncpg.QueryCanceledError, asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError,
                          asyncpg.SerializationError, asyncpg.TooManyConnectionsError)):
        return GuildDataBusy(f"{where}: {type(error).__name__}: {error}")
    if isinstance(error, (asyncpg.ReadOnlySQLTransactionError, asyncpg.DiskFullError)):
        return DatabaseReadOnly(f"{where}: {type(error).__name__}: {error}")
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return GuildDataBusy(f"{where}: timed out")
    if isinstance(error, (OSError, asyncpg.CannotConnectNowError, asyncpg.ConnectionDoesNotExistError,
                          asyncpg.ConnectionFailureError, asyncpg.AdminShutdownError, asyncpg.CrashShutdownError,
                          asyncpg.InterfaceError, asyncpg.InternalClientError)):
        # InternalClientError: a connection left mid-operation when the server went away
        # ("cannot switch to state …; another operation is in progress"): it is broken.
        return DatabaseUnreachable(f"{where}: {type(error).__name__}: {error}")
    if isinstance(error, asyncpg.PostgresConnectionError):
        return DatabaseUnreachable(f"{where}: {type(error).__name__}: {error}")
    return None


def redact(dsn: str) -> str:
    """The DSN without its password, for logs and messages."""
    dsn = re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", dsn)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", dsn)


# ------------------------------------------------------------- the start-up check

#: How long the start-up check waits for the server (longer than a move's 2 s: a
#: remote database's first connection may need a TLS handshake).
STARTUP_CHECK_SECONDS = 5.0


def _url_parts(dsn: str) -> tuple[str, str, str]:
    """The user, the host[:port] list and the database a URL names, for sentences
    (asyncpg's defaults when a part is left out)."""
    rest, _, query = dsn.partition("://")[2].partition("?")
    netloc, _, path = rest.partition("/")
    userinfo, at, hosts = netloc.rpartition("@")
    options = parse_qs(query)
    user = unquote(userinfo.partition(":")[0]) if at else options.get("user", [""])[0]
    hosts = hosts or options.get("host", ["the local socket"])[0]
    database = unquote(path) or options.get("dbname", [""])[0]
    return user or "(your system user)", hosts, database or user or "(named after the user)"


def startup_sentence(error: BaseException, dsn: str) -> str:
    """One sentence for why the start-up check could not use DATABASE_URL: which part
    of the URL is wrong and what to check."""
    user, hosts, database = _url_parts(dsn)
    text = str(error)
    if isinstance(error, asyncpg.InvalidPasswordError):
        return (f"PostgreSQL at {hosts} refused the password of user '{user}': check the password in DATABASE_URL "
                "(between the ':' and the '@'; a '@', ':' or '/' in it must be written %40, %3A, %2F) or PGPASSWORD.")
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return (f"PostgreSQL at {hosts} has no database '{database}': check the name at the end of DATABASE_URL, "
                f"or create it (createdb -O {user} {database}).")
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return (f"PostgreSQL at {hosts} refused user '{user}' ({text}): check the user in DATABASE_URL, "
                "and that the server's pg_hba.conf lets it connect from this machine.")
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return f"PostgreSQL at {hosts} does not let user '{user}' connect to database '{database}' ({text}): grant it CONNECT, or use the database's owner."
    if isinstance(error, asyncpg.CannotConnectNowError):
        return f"PostgreSQL at {hosts} is starting up or shutting down ({text}): start Deckhand again once it is up."
    if isinstance(error, (ValueError, asyncpg.ClientConfigurationError)):
        return f"DATABASE_URL is malformed ({text}): write it as postgresql://user:password@host:5432/database."
    if isinstance(error, socket.gaierror) or "Name or service not known" in text or "nodename nor servname" in text:
        return (f"The host in DATABASE_URL ({hosts}) is not a name this machine can resolve ({text}): "
                "check the host name after the '@', and this machine's DNS.")
    if isinstance(error, ConnectionRefusedError) or (isinstance(error, OSError) and "Errno 111" in text) or "refused" in text.lower():
        return (f"Nothing accepts connections at {hosts} (connection refused): check that PostgreSQL is running there "
                "and the host and port in DATABASE_URL (5432 unless you changed it).")
    if isinstance(error, FileNotFoundError):
        return (f"There is no PostgreSQL socket where DATABASE_URL points ({text}): check that PostgreSQL is running "
                "on this machine, or put the host after the '@'.")
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return (f"PostgreSQL at {hosts} did not answer within {STARTUP_CHECK_SECONDS:g} s: check the host and port in DATABASE_URL, "
                "and that no firewall drops the connection.")
    if isinstance(error, OSError):
        return f"Cannot connect to PostgreSQL at {hosts} ({text}): check the host and port in DATABASE_URL and the network between them."
    return f"Cannot use the database of DATABASE_URL {redact(dsn)} ({type(error).__name__}: {text}): check the URL and the server's log."


async def check_database(dsn: str, *, timeout: float = STARTUP_CHECK_SECONDS) -> str | None:
    """Connect once and run ``SELECT 1``: None when the database answers, else the
    sentence saying what to fix. Run before the bot connects to Discord."""
    try:
        connection = await asyncpg.connect(dsn, timeout=timeout, server_settings={"application_name": "deckhand-check"})
    except Exception as error:
        log.debug("The start-up check of %s failed", redact(dsn), exc_info=error)
        return startup_sentence(error, dsn)
    try:
        await connection.fetchval("SELECT 1", timeout=timeout)
    except Exception as error:
        log.debug("The start-up check of %s failed", redact(dsn), exc_info=error)
        return startup_sentence(error, dsn)
    finally:
        with suppress(Exception):
            await connection.close(timeout=timeout)
    return None


# --------------------------------------------------------------------- storage


class PostgresStorage:
    """One PostgreSQL database for every guild; the interface of :class:`storage.db.Storage`.

    The pool is created on first use (so construction needs no event loop), and the
    migrations run then, under an advisory lock, before any guild's statement.
    """

    dialect = "postgresql"

    def __init__(
        self, dsn: str, *, min_size: int = 1, max_size: int = DEFAULT_POOL_SIZE,
        acquire_timeout: float = ACQUIRE_TIMEOUT_SECONDS, statement_timeout_ms: int = STATEMENT_TIMEOUT_MS,
    ) -> None:
        self.dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self.acquire_timeout = acquire_timeout
        self.statement_timeout_ms = statement_timeout_ms
        self._pool: asyncpg.Pool | None = None
        self._starting: asyncio.Lock | None = None
        self._guild_locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self._reported: set[str] = set()

    # -- the pool ----------------------------------------------------------------------

    @property
    def pool(self) -> asyncpg.Pool | None:
        """The asyncpg pool (None before the first use or after :meth:`close`)."""
        return self._pool

    async def start(self) -> asyncpg.Pool:
        """Create the pool and apply the migrations (idempotent; done on first use too)."""
        if self._pool is not None:
            return self._pool
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._pool is not None:
                return self._pool
            try:
                await self._migrate()
                self._pool = await asyncpg.create_pool(
                    self.dsn, min_size=self.min_size, max_size=self.max_size,
                    timeout=CONNECT_TIMEOUT_SECONDS, command_timeout=COMMAND_TIMEOUT_SECONDS,
                    reset=_keep_session,
                    server_settings={
                        "search_path": SEARCH_PATH,
                        "statement_timeout": str(self.statement_timeout_ms),
                        "lock_timeout": str(self.statement_timeout_ms),
                        "application_name": "deckhand",
                    },
                )
            except Exception as error:
                self._raise(where="connecting", error=error)
            self._reported.clear()
        return self._pool

    async def connect(self, **server_settings: str) -> asyncpg.Connection:
        """A connection of its own (outside the pool: LISTEN, maintenance), same timeouts."""
        try:
            return await asyncpg.connect(
                self.dsn, timeout=CONNECT_TIMEOUT_SECONDS, command_timeout=COMMAND_TIMEOUT_SECONDS,
                server_settings={"application_name": "deckhand", **server_settings},
            )
        except Exception as error:
            self._raise(where="connecting", error=error)

    async def _migrate(self) -> None:
        # No command timeout here: a migration on a big database, or waiting for
        # another process's, may take longer than a move may.
        try:
            connection = await asyncpg.connect(
                self.dsn, timeout=CONNECT_TIMEOUT_SECONDS, server_settings={"application_name": "deckhand-migrate"}
            )
        except (ValueError, asyncpg.ClientConfigurationError) as error:
            self._raise(where="connecting", error=DatabaseRefused(f"DATABASE_URL {redact(self.dsn)} is malformed: {error}"))
        except Exception as error:
            self._raise(where="connecting", error=error)
        try:
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await connection.execute(
                    "CREATE SCHEMA IF NOT EXISTS deckhand;"
                    " CREATE TABLE IF NOT EXISTS deckhand.schema_migrations"
                    " (number INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                current = await connection.fetchval("SELECT COALESCE(MAX(number), 0) FROM deckhand.schema_migrations")
                for number, path in migrations("postgresql"):
                    if number <= current:
                        continue
                    await connection.execute(_migration_text(number))
                    await connection.execute("INSERT INTO deckhand.schema_migrations (number) VALUES ($1)", number)
                    log.info("Applied PostgreSQL migration %s", path.name)
        finally:
            with suppress(Exception):
                await connection.close()

    async def schema_version(self) -> int:
        pool = await self.start()
        return await pool.fetchval("SELECT COALESCE(MAX(number), 0) FROM deckhand.schema_migrations")

    def _raise(self, *, where: str, error: Exception) -> NoReturn:
        """Raise the StorageError for ``error`` (logged once per kind until it recovers),
        or ``error`` itself when it is the statement's own (a bad query, a constraint)."""
        classified = classify(error, f"PostgreSQL {redact(self.dsn)} ({where})")
        if classified is None:
            raise error
        kind = type(classified).__name__
        if kind not in self._reported:
            self._reported.add(kind)
            log.error("%s (%s). %s Reported once until it recovers.", classified, kind, classified.remedy)
        if classified is error:
            raise error
        raise classified from error

    # -- guild transactions ------------------------------------------------------------

    @asynccontextmanager
    async def _guild_lock(self, guild_id: int) -> AsyncIterator[None]:
        """Transactions of one guild never interleave in this process (as on SQLite)."""
        entry = self._guild_locks.get(guild_id)
        if entry is None:
            entry = self._guild_locks[guild_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            try:
                await acquire_within(lock, GUILD_WAIT_SECONDS, alone=users[0] == 1)
            except TimeoutError:
                raise GuildDataBusy(f"guild {guild_id}: another transaction held it for {GUILD_WAIT_SECONDS} s") from None
            try:
                yield
            finally:
                lock.release()
        finally:
            users[0] -= 1
            if users[0] == 0:
                self._guild_locks.pop(guild_id, None)

    @asynccontextmanager
    async def _session(self, guild_id: int, *, readonly: bool) -> AsyncIterator[PgConnection]:
        guild_id = int(guild_id)
        pool = await self.start()
        where = f"guild {guild_id}"
        try:
            raw = await pool.acquire(timeout=self.acquire_timeout)
        except Exception as error:
            self._raise(where=where, error=error)
        try:
            try:
                # One round trip: open the transaction and name its guild for the views.
                await raw.execute(
                    f"BEGIN{' READ ONLY' if readonly else ''};"
                    f" SELECT set_config('deckhand.guild_id', '{guild_id}', true)"
                )
            except Exception as error:
                if isinstance(error, asyncpg.InternalClientError):
                    raw.terminate()  # broken mid-operation: the pool replaces it
                self._raise(where=where, error=error)
            try:
                yield PgConnection(raw, guild_id)
                await raw.execute("COMMIT")
            except BaseException as error:
                if not raw.is_closed():
                    with suppress(Exception):
                        await raw.execute("ROLLBACK")
                if isinstance(error, Exception):
                    self._raise(where=where, error=error)
                raise
            self._reported.clear()
        finally:
            with suppress(Exception):
                await pool.release(raw)

    @asynccontextmanager
    async def transaction(self, guild_id: int) -> AsyncIterator[PgConnection]:
        """Run statements atomically for one guild: committed on normal exit, rolled
        back on error."""
        async with self._guild_lock(int(guild_id)):
            async with self._session(guild_id, readonly=False) as db:
                yield db

    @asynccontextmanager
    async def reading(self, guild_id: int, *, create: bool = True) -> AsyncIterator[PgConnection]:
        """Read one guild's rows (a read-only transaction; no guild lock). ``create`` is
        for the SQLite backend's sake: here reading an unknown guild creates nothing."""
        async with self._session(guild_id, readonly=True) as db:
            yield db

    async def write(self, guild_id: int, writes: Sequence[Write]) -> bool:
        """Run ``writes`` in one transaction (see :meth:`storage.db.Storage.write`):
        True when committed, False when one changed another number of rows than its
        ``rows`` (rolled back)."""
        try:
            async with self.transaction(guild_id) as db:
                if not await run_writes(db, writes):
                    raise _Abandoned
        except _Abandoned:
            return False
        return True

    def known_user_setting(self, guild_id: int, user_id: int, key: str) -> Any:
        """Never kept here: several processes may share the database, so it is always asked."""
        return settings_cache.UNKNOWN

    async def probe(self, guild_id: int) -> None:
        async with self.reading(guild_id):
            pass

    async def scrub(self, guild_id: int) -> None:
        """What can be done on PostgreSQL after data was erased (``/privacy forget``):
        VACUUM the tables that hold people's ids, so the dead row versions leave the
        tables and their indexes. PostgreSQL does not overwrite them: their bytes can stay
        in free space until reused, in the write-ahead log until its segments are
        recycled, and in backups (docs/players/your-data.md says so). A plain VACUUM takes
        no lock that blocks moves; VACUUM FULL would, for every server, so it is the
        owner's to run."""
        pool = await self.start()
        try:
            await pool.execute(f"VACUUM (ANALYZE) {', '.join(PERSONAL_TABLES)}", timeout=COMMAND_TIMEOUT_SECONDS * 20)
        except Exception as error:
            self._raise(where="vacuuming after a forget", error=error)

    def has_database(self, guild_id: int) -> bool:
        """Every guild has one here: reading an unknown guild creates nothing."""
        return True

    async def active_guilds(self) -> list[int]:
        """Guilds with an unfinished table: a query on the partial index, no marker files."""
        pool = await self.start()
        try:
            rows = await pool.fetch(_ACTIVE_GUILDS, timeout=COMMAND_TIMEOUT_SECONDS * 5)
        except Exception as error:
            self._raise(where="listing active guilds", error=error)
        return [row[0] for row in rows]

    async def refresh_marker(self, guild_id: int) -> None:
        """Nothing to refresh: the active-guild index is a query."""

    @property
    def open_connections(self) -> int:
        return 0 if self._pool is None else self._pool.get_size()

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), 5)
            except Exception:  # a connection stuck in a query, or the server gone
                pool.terminate()


#: The tables that hold people's ids (or names: a table's saved display names), which
#: :meth:`PostgresStorage.scrub` vacuums.
PERSONAL_TABLES = tuple(f"deckhand.{name}" for name in (
    "game_tables", "actions", "user_settings", "results", "carryover", "dm_channels",
    "session_results", "ratings", "rating_history",
))


class _Abandoned(Exception):
    """A write whose guard did not hold: its transaction is rolled back."""


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a connection needs on its way back to the pool: nothing beyond the ROLLBACK
    of a transaction left open, which asyncpg does before this. Our transactions set
    the guild with ``set_config(..., true)`` (transaction-local), so no session state
    outlives them, and skipping asyncpg's default ``RESET ALL; UNLISTEN *...`` saves a
    round trip per transaction. LISTEN and session settings belong on a connection of
    their own (:meth:`PostgresStorage.connect`), never on a pooled one."""


@functools.cache
def _migration_text(number: int) -> str:
    return dict(migrations("postgresql"))[number].read_text(encoding="utf-8")
