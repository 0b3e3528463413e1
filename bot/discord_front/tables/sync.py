"""Other processes (issue 13, shards): the bus notifications both ways. The version
read before a move and the reload when another process moved first are the core's
(``bot/core/sync.py``). The rules are in the package docstring
(``bot/discord_front/tables/__init__.py``); a lone process skips all of it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.bus import Bus, TableChange
from bot.core.registry import TableRegistry
from bot.core.sync import Sync
from bot.core.table import Table, TableError

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module


class OtherProcesses:
    """Keeping up with other processes through the bus. Handed the bus, the core's
    registry and :class:`bot.core.sync.Sync`, ``owns(guild_id)`` (this process holds
    the guild's shard), ``get(guild_id, table_id)`` (``Finder.get``: loads a table
    held elsewhere) and ``closing()`` (the manager is shutting down)."""

    def __init__(
        self, *, bus: Bus, registry: TableRegistry, sync: Sync, owns: Callable[[int | None], bool],
        get: Callable[[int, int], Awaitable[Table]], closing: Callable[[], bool],
    ) -> None:
        self.bus, self.registry, self.sync = bus, registry, sync
        self._owns, self._get, self._closing = owns, get, closing

    async def listen(self) -> None:
        """Listen to the other processes (a no-op for a lone process)."""
        await self.bus.start(self.on_change, self.resync)

    async def on_change(self, change: TableChange) -> None:
        """Another process changed a table. Its owner reloads it and re-arms its
        timers; any other process drops its copy (reloaded on its next use)."""
        if self._closing():
            return
        key = (change.guild_id, change.table_id)
        table = self.registry.tables.get(key)
        if not self._owns(change.guild_id):
            if table is not None:
                async with table.lock:
                    self.registry.untrack(table)
            return
        if table is None:
            try:
                await self._get(change.guild_id, change.table_id)
            except TableError:
                pass
            return
        async with table.lock:
            if self.registry.tables.get(key) is table:
                await self.sync.reload(table)

    async def resync(self) -> None:
        """After missed notifications (a lost connection): check every table held."""
        for table in list(self.registry.tables.values()):
            async with table.lock:
                await self.sync.sync(table)

    async def tell_others(self, table: Table) -> None:
        """After a move is shown: the other processes reload the table."""
        if self.sync.shared and not self._closing():
            await self.bus.publish(table.guild_id, table.id, table.record.version)
