"""Deleting a whole server's data, and remembering when to (issue 25).

When the bot leaves a server its data is kept for a grace period (the server's
``leave_grace_days`` setting), then deleted; rejoining cancels that. The date must
survive restarts, so it is stored, not held in memory:

- SQLite: ``DATA_DIR/departed/<guild_id>`` holds the time (UTC epoch seconds) after
  which the guild's file goes. A marker, like ``active/``: no file is opened to list them.
- PostgreSQL: the guild's own ``guild_settings`` row ``departed:purge_at``, listed with
  one cross-guild query (like ``active_guilds``).

:func:`purge_guild` deletes everything at once: the guild's file (and its -wal/-shm and
markers) on SQLite, every row with its guild_id on PostgreSQL. ``python -m bot purge
<guild_id>`` runs it for the owner.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from storage.db import StorageError

DEPARTED_DIR = "departed"
DEPARTED_KEY = "departed:purge_at"


def _is_id(name: str) -> bool:
    return name.isascii() and name.isdigit() and 0 < len(name) < 20


def _marker(storage: Any, guild_id: int) -> Path:
    return Path(storage.data_dir) / DEPARTED_DIR / str(int(guild_id))


async def record_departure(storage: Any, guild_id: int, purge_at: float) -> None:
    """Remember that ``guild_id``'s data goes after ``purge_at``."""
    if storage.dialect == "postgresql":
        from storage import repos

        async with storage.transaction(guild_id) as db:
            await repos.set_guild_setting(db, DEPARTED_KEY, float(purge_at))
        return
    marker = _marker(storage, guild_id)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(repr(float(purge_at)), encoding="ascii")


async def cancel_departure(storage: Any, guild_id: int) -> bool:
    """The bot is back in ``guild_id``: keep its data. True if a departure was pending."""
    if storage.dialect == "postgresql":
        pool = await storage.start()
        status = await pool.execute("DELETE FROM deckhand.guild_settings WHERE guild_id = $1 AND key = $2", int(guild_id), DEPARTED_KEY)
        return status.split()[-1] != "0"
    marker = _marker(storage, guild_id)
    if not marker.exists():
        return False
    marker.unlink(missing_ok=True)
    return True


async def departures(storage: Any) -> dict[int, float]:
    """{guild id: purge time} of every server the bot left whose data is still kept."""
    if storage.dialect == "postgresql":
        pool = await storage.start()
        rows = await pool.fetch("SELECT guild_id, value FROM deckhand.guild_settings WHERE key = $1", DEPARTED_KEY)
        found = {}
        for row in rows:
            try:
                found[int(row[0])] = float(json.loads(row[1]))
            except (TypeError, ValueError):
                found[int(row[0])] = 0.0  # unreadable: due now rather than kept forever
        return found
    folder = Path(storage.data_dir) / DEPARTED_DIR
    found = {}
    if folder.is_dir():
        for path in folder.iterdir():
            if _is_id(path.name):
                try:
                    found[int(path.name)] = float(path.read_text(encoding="ascii").strip())
                except (OSError, ValueError):
                    found[int(path.name)] = 0.0
    return found


async def guilds_with_data(storage: Any) -> list[int]:
    """Every guild with stored data (for the move-log purge)."""
    if storage.dialect == "postgresql":
        pool = await storage.start()
        rows = await pool.fetch("SELECT DISTINCT guild_id FROM deckhand.game_tables WHERE status NOT IN ('lobby', 'playing') ORDER BY guild_id")
        return [int(row[0]) for row in rows]
    return storage.known_guilds()


async def purge_guild(storage: Any, guild_id: int) -> str:
    """Delete everything kept for ``guild_id``. Returns a sentence saying what went."""
    guild_id = int(guild_id)
    if storage.dialect == "postgresql":
        return await _purge_postgres(storage, guild_id)
    await storage.close_guild(guild_id)
    data_dir = Path(storage.data_dir)
    database = data_dir / "guilds" / f"{guild_id}.sqlite3"
    existed = database.exists()
    try:
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm"),
                     data_dir / "active" / str(guild_id), _marker(storage, guild_id)):
            path.unlink(missing_ok=True)
    except OSError as error:
        raise StorageError(f"could not delete {database}: {error.strerror or error}") from error
    marked = getattr(storage, "_marked", None)
    if isinstance(marked, set):
        marked.discard(guild_id)  # the active-table index in memory
    if existed:
        return f"Deleted server {guild_id}'s database {database}."
    return f"There was no database for server {guild_id} at {database}; nothing else was kept for it."


async def _purge_postgres(storage: Any, guild_id: int) -> str:
    pool = await storage.start()
    async with pool.acquire() as connection:
        async with connection.transaction():
            tables = [row[0] for row in await connection.fetch(
                "SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t"
                " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
                " WHERE c.table_schema = 'deckhand' AND c.column_name = 'guild_id' AND t.table_type = 'BASE TABLE'"
            )]
            # game_tables last: the move logs and results refer to it.
            tables.sort(key=lambda name: name == "game_tables")
            deleted = 0
            for table in tables:
                status = await connection.execute(f'DELETE FROM deckhand."{table}" WHERE guild_id = $1', guild_id)
                deleted += int(status.split()[-1])
    if deleted:
        return f"Deleted server {guild_id}'s {deleted} row(s) from the PostgreSQL database."
    return f"There were no rows for server {guild_id} in the PostgreSQL database; nothing was kept for it."
