"""Restore: every unfinished table brought back after a start (its state from the
snapshot, or a replay of its seed, options and action log; its timers; its buttons
through their dynamic custom_ids). A table that cannot be brought back is closed,
with a sentence where its players are (its thread, else its channel), and never
stops the others."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.discord_front import guard
from bot.discord_front import languages
from bot.rules.engine import Game
from bot.core.clock import Clock
from bot.core.games import GameRegistry, GameSpec
from bot.core.registry import TableRegistry
from bot.core.restore import load_state
from bot.core.settings import GuildSettings
from bot.core.table import Table
from bot.words.i18n import _
from bot.discord_front.common import now_ts
from storage import repos
from storage.db import GuildDataMissing, Storage, StorageError, log_failure
from storage.repos import BadRecord, TableRecord

if TYPE_CHECKING:
    from bot.discord_front.tables.timers import TableTimers

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module


class Restorer:
    """Restore after a start, and a table another process holds loaded here. Handed
    the bot (its channels, for the closing notices), the storage, the games, the core's
    registry, server settings and clock, ``owns(guild_id)``, ``shared()``, the
    timers (:class:`bot.discord_front.tables.timers.TableTimers`) and
    ``recheck_thread(table)`` (``Threads.recheck_thread``: a paused table's thread,
    seen again after the restart)."""

    def __init__(
        self, *, bot: Any, storage: Storage, games: GameRegistry, registry: TableRegistry, settings: GuildSettings, clock: Clock,
        owns: Callable[[int | None], bool], shared: Callable[[], bool], timers: TableTimers,
        recheck_thread: Callable[[Table], Awaitable[None]],
    ) -> None:
        self.bot, self.storage, self.games, self.registry, self.settings, self.clock = bot, storage, games, registry, settings, clock
        self._owns, self._shared, self.timers, self._recheck_thread = owns, shared, timers, recheck_thread
        self._loading = asyncio.Lock()

    async def load_elsewhere(self, guild_id: int, record: TableRecord) -> Table | None:
        """A table another process holds (a DM-hand click arrives at shard 0), loaded here."""
        async with self._loading:
            table = self.registry.tables.get((guild_id, record.id))
            if table is None and await self.restore(guild_id, record, announce=False):
                table = self.registry.tables.get((guild_id, record.id))
        return table

    async def restore_all(self) -> int:
        """Bring back every unfinished table after a start: state, timers, and (via
        the dynamic custom_ids) its buttons. Returns how many were restored.

        Only guilds the storage index lists are read. Each row is restored on its
        own: a row that cannot be read is closed with a message and frees its
        channel; it never stops the other tables of its server."""
        restored = 0
        for guild_id in await self.storage.active_guilds():
            if not self._owns(guild_id):
                continue  # another process's shard: it restores its own
            try:
                # create=False: a marker never creates storage (storage drops dangling ones; this covers a file deleted since).
                async with self.storage.reading(guild_id, create=False) as db:
                    rows = await repos.active_rows(db)
            except GuildDataMissing:
                continue
            except StorageError as error:  # expected (a damaged file, a disk error): one line
                log_failure(log, error, "Guild %s: its unfinished tables stay closed until its database can be read (%s).",
                            guild_id, type(error).__name__, level=logging.ERROR)
                continue
            except Exception:
                log.exception("Could not read the database of guild %s; its tables stay closed until fixed", guild_id)
                continue
            if not rows:
                with contextlib.suppress(StorageError):
                    await self.storage.refresh_marker(guild_id)  # a stale index entry costs one open, once
            for row in rows:
                try:
                    record = TableRecord.from_row(row)
                except BadRecord as error:
                    await self._close_bad_row(guild_id, row, str(error))
                    continue
                if (guild_id, record.id) in self.registry.tables:
                    continue
                try:
                    if await self.restore(guild_id, record):
                        restored += 1
                except Exception:
                    log.exception("Restoring table %s in guild %s failed", record.id, guild_id)
                    self._forget(guild_id, record)
                    await self._mark_broken(guild_id, record, _("Something in its saved data could not be used."))
        return restored

    def _forget(self, guild_id: int, record: TableRecord) -> None:
        table = self.registry.tables.get((guild_id, record.id))
        if table is not None:
            self.registry.untrack(table)

    async def _close_bad_row(self, guild_id: int, row: Any, why: str) -> None:
        """Close a row that does not decode, by its id alone, and say so where its
        players are (its thread, else its channel) if the row still names them."""
        table_id = row["id"]
        log.error("Table %s in guild %s has a damaged row (%s); closing it", table_id, guild_id, why)
        await self._set_broken(guild_id, table_id)
        channel_id, thread_id = _snowflake(row["channel_id"]), _snowflake(_column(row, "thread_id"))
        if channel_id is not None:
            if self.registry.by_place.get((guild_id, thread_id or channel_id)) is not None:
                return  # that place has a good table: do not confuse its players
            await self._announce_closed(
                guild_id, channel_id, _("A game here could not be restored after a restart, because its saved data was damaged, and has been closed."), thread_id=thread_id,
            )

    async def _set_broken(self, guild_id: int, table_id: int) -> None:
        try:
            async with self.storage.transaction(guild_id) as db:
                await repos.update_table(db, table_id, now=now_ts(), status="broken", deadline=None)
        except Exception:
            log.exception("Could not mark table %s in guild %s as broken", table_id, guild_id)

    async def _announce_closed(self, guild_id: int, channel_id: int, text: str, *, thread_id: int | None = None) -> None:
        """Say it where the players are: the game's thread if it still takes messages,
        else the parent channel, naming the thread it was played in."""
        quiet = discord.AllowedMentions.none()
        if thread_id is not None:
            thread = self.bot.get_partial_messageable(thread_id, guild_id=guild_id)
            try:
                await thread.send(guard.fit(_("⚠️ {text} Sorry! You can open a new lobby in {channel}.", text=text, channel=f"<#{channel_id}>")), allowed_mentions=quiet)
                return
            except discord.HTTPException as error:  # deleted, locked: the parent then
                log.info("Could not post the closing notice of a table in its thread %s: %s", thread_id, error)
            text = _("{text} It was played in the thread {thread}.", text=text, thread=f"<#{thread_id}>")
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(guard.fit(_("⚠️ {text} Sorry! You can open a new lobby.", text=text)), allowed_mentions=quiet)

    async def restore(self, guild_id: int, record: TableRecord, *, announce: bool = True) -> bool:
        # Timers and computers may show the table before anyone there clicks again.
        await languages.load_server(self.bot, self.settings, guild_id)
        spec = self.games.get(record.game)
        if spec is None and not announce:
            return False
        if spec is None:
            log.warning("Table %s in guild %s is for an unknown game %r; leaving it closed", record.id, guild_id, guard.clip(record.game, 60))
            await self._mark_broken(guild_id, record, _("This server no longer runs {game}.", game=guard.clip(record.game, 40)))
            return False
        if self.registry.by_place.get((guild_id, record.channel_id)) not in (None, record.id):
            if not announce:
                return False
            await self._mark_broken(guild_id, record, _("Its channel already has a lobby or game."))
            return False
        table = Table(guild_id, record, spec)
        if record.status == "playing":
            state = await self._load_state(guild_id, record, spec)
            if state is None:
                if announce:
                    await self._mark_broken(guild_id, record, _("Its saved state was damaged and could not be replayed."))
                return False
            table.state = state
        self.registry.track(table)
        if record.status == "playing" and self._owns(guild_id) and record.publish.get("paused"):
            # Paused for a closed thread (bot/discord_front/tables/threads.py): it may have been
            # reopened or deleted while the bot was away. (The retry slot: cancelled with the table.)
            table.needs_publish = True
            table.publish_retry = asyncio.create_task(self._recheck_thread(table), name=f"deckhand-thread-{guild_id}-{record.id}")
        elif record.status == "playing" and self._owns(guild_id):
            self.timers.arm(table)
            if record.message_id is None:
                table.needs_publish = True
                self.timers.schedule_publish_retry(table)
        return True

    async def _load_state(self, guild_id: int, record: TableRecord, spec: GameSpec) -> Game | None:
        return await load_state(self.storage, self.clock, guild_id, record, spec, shared=self._shared())

    async def _mark_broken(self, guild_id: int, record: TableRecord, why: str) -> None:
        await self._set_broken(guild_id, record.id)
        await self._announce_closed(
            guild_id, record.channel_id,
            _("The {game} game #{id} could not be restored after a restart and has been closed. {why}", game=guard.clip(record.game, 40), id=record.id, why=why),
            thread_id=record.thread_id,
        )


def _snowflake(value: Any) -> int | None:
    """A channel id read from a row that may be damaged (None: not a usable id)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 1 << 63:
        return value
    return None


def _column(row: Any, name: str) -> Any:
    try:
        return row[name]
    except (IndexError, KeyError):
        return None


RESTORE_WAIT_SECONDS = 2.0


async def until_restored(bot: Any) -> None:
    """Wait (bounded) for the start-up restore, which runs while the bot connects."""
    task = getattr(bot, "restore_task", None)
    if task is not None and not task.done():
        await asyncio.wait({task}, timeout=RESTORE_WAIT_SECONDS)
