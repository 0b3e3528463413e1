"""Other processes (issue 13, shards): the version read before a move, the reload
when another process moved first, and the bus notifications both ways. The rules
are in the package docstring (``bot/tables/__init__.py``); a lone process skips
all of it."""

from __future__ import annotations

import logging

from bot.bus import TableChange
from bot.tables.table import Table, TableError
from storage import repos
from storage.db import StorageError
from storage.repos import BadRecord, TableRecord

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module


class SyncMixin:
    """Part of :class:`bot.tables.TableManager`: keeping up with other processes."""

    async def _load_elsewhere(self, guild_id: int, record: TableRecord) -> Table | None:
        async with self._loading:
            table = self._tables.get((guild_id, record.id))
            if table is None and await self._restore(guild_id, record, announce=False):
                table = self._tables.get((guild_id, record.id))
        return table

    async def _sync(self, table: Table) -> bool:
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
        await self._reload(table)
        return True

    async def _reload(self, table: Table) -> None:
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
            self._untrack(table)
            return
        state = table.state
        if record.status == "playing":
            state = await self._load_state(table.guild_id, record, table.spec)
            if state is None:
                log.error("Table %s in guild %s changed elsewhere and could not be loaded here", table.id, table.guild_id)
                self._untrack(table)
                return
        table.record, table.state = record, state
        table.last_moved = {u: v for u, v in table.last_moved.items() if v <= record.version}
        self._track(table)
        self._arm_timers(table)

    async def _on_change(self, change: TableChange) -> None:
        """Another process changed a table. Its owner reloads it and re-arms its
        timers; any other process drops its copy (reloaded on its next use)."""
        if self._closing:
            return
        key = (change.guild_id, change.table_id)
        table = self._tables.get(key)
        if not self.owns(change.guild_id):
            if table is not None:
                async with table.lock:
                    self._untrack(table)
            return
        if table is None:
            try:
                await self._get(change.guild_id, change.table_id)
            except TableError:
                pass
            return
        async with table.lock:
            if self._tables.get(key) is table:
                await self._reload(table)

    async def _resync(self) -> None:
        """After missed notifications (a lost connection): check every table held."""
        for table in list(self._tables.values()):
            async with table.lock:
                await self._sync(table)

    async def _tell_others(self, table: Table) -> None:
        if self.shared and not self._closing:
            await self.bus.publish(table.guild_id, table.id, table.record.version)
