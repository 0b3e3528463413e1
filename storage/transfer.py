"""``deckhand migrate``: copy servers' per-guild SQLite data into PostgreSQL.

Each server is copied in one PostgreSQL transaction, so it is there whole or not at
all. Idempotent: a server whose rows are already in PostgreSQL exactly as in its file
is left alone. Refusing: a server that has other rows in PostgreSQL (it played there
already, or its file changed since the copy) is not touched, and the sentence says so.
Table ids are kept (the key in PostgreSQL is (guild_id, id)), so the buttons of an
unfinished table's messages keep working; the global id sequence is moved past them.

Stop the bot first (or at least do not run it on PostgreSQL for these servers yet):
a table played on SQLite during the copy would not be copied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storage.db import Storage, StorageError
from storage.pg import PostgresStorage

#: In dependency order (game_tables first: actions and results refer to it).
TABLES = ("game_tables", "actions", "results", "user_settings", "guild_settings", "carryover",
          # Issue 25: a session's result, and the ratings derived from the results (carried as they are).
          "session_results", "ratings", "rating_history", "dm_channels")
#: An advisory lock per guild while its rows are compared and copied (two runs at once).
_LOCK_CLASS = 0x4D49  # "MI"


class TransferError(Exception):
    """A sentence for the owner: this server was not copied."""


@dataclass
class Outcome:
    guild_id: int
    copied: bool  # False: PostgreSQL already had exactly this data
    rows: dict[str, int]

    def describe(self) -> str:
        counts = ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.rows.items() if n)
        if self.copied:
            return f"Server {self.guild_id}: copied ({counts or 'no rows'})."
        return f"Server {self.guild_id}: already in PostgreSQL with the same data ({counts or 'no rows'}); nothing changed."


async def read_sqlite(storage: Storage, guild_id: int) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table of one guild's file: {table: (columns, rows)}. Opening the file
    applies its pending SQLite migrations first, as a start of the bot would."""
    data = {}
    async with storage.reading(guild_id) as db:
        for table in TABLES:
            async with db.execute(f"SELECT * FROM {table}") as cursor:
                columns = [d[0] for d in cursor.description]
                rows = [tuple(row) for row in await cursor.fetchall()]
            data[table] = (columns, rows)
    return data


def _same(left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]) -> bool:
    return len(left) == len(right) and sorted(left, key=repr) == sorted(right, key=repr)


async def copy_guild(source: Storage, target: PostgresStorage, guild_id: int) -> Outcome:
    """Copy one guild; raises :class:`TransferError` (nothing changed) when it cannot."""
    guild_id = int(guild_id)
    if not source.has_database(guild_id):
        raise TransferError(f"Server {guild_id}: there is no SQLite database at {source.path_for(guild_id)}; nothing copied.")
    try:
        data = await read_sqlite(source, guild_id)
    except StorageError as error:
        raise TransferError(f"Server {guild_id}: its SQLite file cannot be read ({error}); nothing copied.") from error
    pool = await target.start()
    async with pool.acquire() as connection:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1, $2)", _LOCK_CLASS, guild_id & 0x7FFFFFFF)
            existing = {}
            for table, (columns, _rows) in data.items():
                names = ", ".join(columns)
                found = await connection.fetch(f"SELECT {names} FROM deckhand.{table} WHERE guild_id = $1", guild_id)
                existing[table] = [tuple(row) for row in found]
            counts = {table: len(rows) for table, (_c, rows) in data.items()}
            if any(existing.values()):
                if all(_same(existing[table], rows) for table, (_c, rows) in data.items()):
                    return Outcome(guild_id, copied=False, rows=counts)
                there = len(existing["game_tables"])
                raise TransferError(
                    f"Server {guild_id}: PostgreSQL already has different data for it ({there} table(s) there, "
                    f"{counts['game_tables']} in its SQLite file), so nothing was copied or overwritten. "
                    "If the PostgreSQL data is the one to keep, leave it; otherwise delete that server's rows there first."
                )
            for table, (columns, rows) in data.items():
                if not rows:
                    continue
                names = ", ".join(["guild_id", *columns])
                marks = ", ".join(f"${i}" for i in range(1, len(columns) + 2))
                try:
                    await connection.executemany(
                        f"INSERT INTO deckhand.{table} ({names}) VALUES ({marks})", [(guild_id, *row) for row in rows]
                    )
                except Exception as error:
                    raise TransferError(
                        f"Server {guild_id}: a row of {table} could not be copied ({type(error).__name__}: {error}); nothing copied."
                    ) from error
            columns, rows = data["game_tables"]
            top = max((row[columns.index("id")] for row in rows), default=0)
            if top:
                await connection.execute(
                    "SELECT setval('deckhand.game_table_ids', GREATEST($1::bigint, (SELECT last_value FROM deckhand.game_table_ids)))",
                    top,
                )
    return Outcome(guild_id, copied=True, rows=counts)


async def copy_guilds(data_dir: Path, database_url: str, guild_ids: list[int] | None) -> tuple[list[Outcome], list[str]]:
    """Copy the given guilds (None: every file under DATA_DIR). Returns what was done
    and the sentences of the guilds that were not copied."""
    source = Storage(data_dir)
    target = PostgresStorage(database_url)
    done, refused = [], []
    try:
        for guild_id in guild_ids if guild_ids is not None else source.known_guilds():
            try:
                done.append(await copy_guild(source, target, guild_id))
            except TransferError as error:
                refused.append(str(error))
    finally:
        await source.close()
        await target.close()
    return done, refused
