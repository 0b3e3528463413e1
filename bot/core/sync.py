"""Other processes (shards): the version read before a move and the reload when
another process moved first. A lone process (``shared`` False) skips all of it.
Telling the others (the bus) is the host's job after a move is shown."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.core.games import GameSpec
from bot.core.registry import TableRegistry
from bot.core.table import Table
from bot.rules.engine import Game
from storage import StorageBackend, repos
from storage.db import StorageError
from storage.repos import BadRecord, TableRecord

log = logging.getLogger("bot.tables")  # one logger for the tables, as when they were one module


class Sync:
    """Collaborators: the storage, the registry, ``load_state`` (bot/core/restore.py)
    and ``arm`` (the timers, re-armed after a reload)."""

    def __init__(
        self, *, storage: StorageBackend, shared: bool, registry: TableRegistry,
        load_state: Callable[[int, TableRecord, GameSpec], Awaitable[Game | None]], arm: Callable[[Table], None],
    ) -> None:
        self.storage, self.shared, self.registry, self.load_state, self.arm = storage, shared, registry, load_state, arm

    async def sync(self, table: Table) -> bool:
        """Reload the table if the database holds a newer version than this process's
        copy (another process moved or closed it). Caller holds the lock. Returns
        whether it was reloaded. One cheap read; nothing at all for a lone process."""
        if not self.shared:
            return False
        try:
            async with self.storage.reading(table.guild_id) as db:
                found = await repos.table_version(db, table.id)
        except StorageError:
            return False  # the move's own transaction reports the problem
        if found is not None and found == (table.record.version, table.record.status):
            return False
        await self.reload(table)
        return True

    async def reload(self, table: Table) -> None:
        """Replace this process's copy with the database's (caller holds the lock)."""
        async with self.storage.reading(table.guild_id) as db:
            try:
                record = await repos.get_table(db, table.id)
            except BadRecord:
                record = None
        if record is None or record.status not in repos.ACTIVE:
            if record is not None:
                table.record = record
            else:
                table.record.status = "broken"
            self.registry.untrack(table)
            return
        state = table.state
        if record.status == "playing":
            state = await self.load_state(table.guild_id, record, table.spec)
            if state is None:
                log.error("Table %s in guild %s changed elsewhere and could not be loaded here", table.id, table.guild_id)
                self.registry.untrack(table)
                return
        table.record, table.state = record, state
        table.last_moved = {u: v for u, v in table.last_moved.items() if v <= record.version}
        self.registry.track(table)
        self.arm(table)
