"""Other processes (issue 13, shards): the version read before a move, the reload
when another process moved first, and the bus notifications both ways. The rules
are in the package docstring (``bot/discord_front/tables/__init__.py``); a lone process skips
all of it."""

from __future__ import annotations

import logging

from bot.bus import TableChange
from bot.core.table import Table, TableError
from storage.repos import TableRecord

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module


class SyncMixin:
    """Part of :class:`bot.tables.TableManager`: keeping up with other processes
(the version checks and reloads are the core's :class:`bot.core.sync.Sync`)."""

    async def _load_elsewhere(self, guild_id: int, record: TableRecord) -> Table | None:
        async with self._loading:
            table = self._tables.get((guild_id, record.id))
            if table is None and await self._restore(guild_id, record, announce=False):
                table = self._tables.get((guild_id, record.id))
        return table

    async def _sync(self, table: Table) -> bool:
        return await self.sync.sync(table)

    async def _reload(self, table: Table) -> None:
        await self.sync.reload(table)

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
