"""Persistence behind one interface with two backends, chosen by ``DATABASE_URL``:

- unset: one SQLite database per guild under ``DATA_DIR`` (:class:`storage.db.Storage`);
- ``postgresql://...``: one PostgreSQL database for all guilds (:class:`storage.pg.PostgresStorage`).

Both are used the same way: ``async with storage.transaction(guild_id) as db:
await repos.something(db, ...)`` (see the ``Storage`` docstring for the whole interface).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from storage.db import Storage, StorageError, pool_budget

if TYPE_CHECKING:
    from storage.db import Write
    from storage.repos import Connection

__all__ = ["Storage", "StorageBackend", "StorageError", "open_storage", "is_postgres_url"]


@runtime_checkable
class StorageBackend(Protocol):
    """What both backends implement (the whole contract is in ``storage.db.Storage``'s
    docstring): ``dialect``, ``transaction``/``reading`` yielding a connection for
    :mod:`storage.repos` (``execute`` with ``?`` placeholders, cursors with ``rowcount``),
    ``write`` (a transaction of :class:`storage.db.Write` in one call, what a move
    saves), ``known_user_setting`` (a player's setting from memory, or
    ``settings_cache.UNKNOWN``), the active-guild index, and StorageError sentences for
    failures."""

    dialect: str

    def transaction(self, guild_id: int) -> AbstractAsyncContextManager[Connection]: ...

    def reading(self, guild_id: int, *, create: bool = True) -> AbstractAsyncContextManager[Connection]: ...

    async def write(self, guild_id: int, writes: Sequence[Write]) -> bool: ...

    def known_user_setting(self, guild_id: int, user_id: int, key: str) -> Any: ...

    def has_database(self, guild_id: int) -> bool: ...

    async def probe(self, guild_id: int) -> None: ...

    async def active_guilds(self) -> list[int]: ...

    async def refresh_marker(self, guild_id: int) -> None: ...

    async def close(self) -> None: ...


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and url.split("://", 1)[0] in ("postgresql", "postgres")


def open_storage(data_dir: Path, database_url: str | None = None, *, max_open: int = 256, **options: Any) -> StorageBackend:
    """The backend the settings ask for. Nothing connects until the first use."""
    if database_url:
        if not is_postgres_url(database_url):
            raise ValueError("DATABASE_URL must start with postgresql:// (or be left unset for SQLite files).")
        from storage.pg import PostgresStorage

        return PostgresStorage(database_url, **options)
    return Storage(data_dir, max_open=pool_budget(max_open))
