"""Two Deckhand "processes" in one test process, on one simulated Discord.

SimCord runs one bot per event loop (``Env`` refuses a second live env), so the
gateway side is one ``ShardedDeckhandBot`` connected to both shards, and each
*process* is what Deckhand keeps per process: its own :class:`TableManager` (the
tables in memory, their locks and timers), its own :class:`Storage` (its own
database connections) and its own bus endpoint, configured with its own
``SHARD_IDS``. Every gateway event is handed to the process that would receive it
in production: the guild's shard, ``(guild_id >> 22) % 2``, and shard 0 for DMs.
Nothing is shared between the two processes but the database (and Discord's REST
API, which in production every process reaches with the same token).
"""

from __future__ import annotations

import contextvars
import dataclasses
import logging
from pathlib import Path
from typing import Any

from bot.discord_front.app import ShardedDeckhandBot
from bot.bus import Bus, bus_for
from bot.config import Settings, shard_of
from bot.discord_front.tables import TableManager
from storage import open_storage

SHARDS = 2
TOY = ("bot.discord_front.commands", "tests.platform.toy")

#: The shard of the gateway event being handled (None: not an event, e.g. a restore).
_EVENT_SHARD: contextvars.ContextVar[int | None] = contextvars.ContextVar("event_shard", default=None)


def process_settings(data_dir: Path, shard_ids: tuple[int, ...], dsn: str | None = None) -> Settings:
    return Settings(
        token="not-a-real-token", data_dir=data_dir, log_level=logging.INFO, database_url=dsn, shard_count=SHARDS, shard_ids=shard_ids,
    )


def new_process(bot: Any, data_dir: Path, shard_ids: tuple[int, ...], dsn: str | None = None, bus: Bus | None = None) -> TableManager:
    """One process's own state: manager, connections and bus (LISTEN/NOTIFY on
    PostgreSQL, in-process on SQLite), on the shared database."""
    settings = process_settings(data_dir, shard_ids, dsn)
    storage = open_storage(data_dir, dsn)
    return TableManager(bot, storage, bot.games, settings=settings, bus=bus or bus_for(dsn, str(data_dir)))


#: Every bot made, so a test's end closes their connections (an open aiosqlite
#: connection's thread would keep the test process from exiting).
BOTS: list[TwoProcessBot] = []


async def close_all() -> None:
    while BOTS:
        bot = BOTS.pop()
        for manager in {id(m): m for m in [*bot.routes.values(), bot._first]}.values():
            await kill(manager)
        await bot.storage.close()


class TwoProcessBot(ShardedDeckhandBot):
    """Gateway for both shards; ``tables`` is the manager of the process the event belongs to."""

    def __init__(
        self, data_dir: Path, processes: tuple[tuple[int, ...], ...] = ((0,), (1,)), *, dsn: str | None = None, extensions: tuple[str, ...] = TOY,
    ) -> None:
        """``processes``: each process's SHARD_IDS (together, every shard once);
        ``dsn``: PostgreSQL for all of them, else SQLite files in ``data_dir``."""
        self.routes: dict[int, TableManager] = {}
        BOTS.append(self)
        super().__init__(process_settings(data_dir, tuple(range(SHARDS)), dsn), extensions=extensions)
        assert sorted(s for shards in processes for s in shards) == list(range(SHARDS))
        # The first process is built on the bot's own storage (its restore runs in setup_hook).
        self._first = TableManager(
            self, self.storage, self.games, settings=process_settings(data_dir, processes[0], dsn), bus=bus_for(dsn, str(data_dir)),
        )
        self._others = [new_process(self, data_dir, shards, dsn) for shards in processes[1:]]
        for manager in (self._first, *self._others):
            for shard in manager.settings.shard_ids:
                self.routes[shard] = manager

    @property
    def tables(self) -> TableManager:  # type: ignore[override]
        shard = _EVENT_SHARD.get()
        if shard is None:
            return self._first  # not an event: the base class's restore and close
        return self.routes[shard]

    @tables.setter
    def tables(self, manager: TableManager) -> None:
        self._unrouted = manager  # the base class's own manager, replaced by the routes

    def process(self, shard: int) -> TableManager:
        return self.routes[shard]

    async def setup_hook(self) -> None:
        await super().setup_hook()  # restores shard 0's process (self.tables outside an event)
        for manager in self._others:
            await manager.listen()
            await manager.restore_all()
        parsers = self._connection.parsers
        for event in ("INTERACTION_CREATE", "MESSAGE_CREATE"):
            parsers[event] = _routed(parsers[event])

    async def close(self) -> None:
        for manager in {id(m): m for m in self.routes.values()}.values():
            await manager.close()
            if manager.storage is not self.storage:
                await manager.storage.close()
        await super().close()


def _routed(parse: Any) -> Any:
    def route(data: dict[str, Any]) -> None:
        guild_id = data.get("guild_id")
        token = _EVENT_SHARD.set(shard_of(int(guild_id) if guild_id else None, SHARDS))
        try:
            parse(data)  # every task it starts copies the context, so the whole handling is routed
        finally:
            _EVENT_SHARD.reset(token)

    return route


async def kill(manager: TableManager) -> None:
    """A process dies: its timers stop and its connections close; nothing is saved on the way out."""
    await manager.close()
    await manager.storage.close()


def with_shards(settings: Settings, shard_ids: tuple[int, ...]) -> Settings:
    return dataclasses.replace(settings, shard_ids=shard_ids)
