"""The :class:`TableManager`: its state (the tables this process holds and where
they live, the bus, the publisher), the lookups every entry point starts from, and
its assembly from the package's other modules, one per concern."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord

from bot import guard
from bot.bus import Bus, LocalBus
from bot.config import Settings
from bot.games import GameRegistry
from bot.publish import Publisher, table_unit
from bot.tables.chat import ChatMixin
from bot.tables.guild_settings import GuildSettingsMixin
from bot.tables.hands import HandsMixin
from bot.tables.lobby import LobbyMixin
from bot.tables.moves import MovesMixin
from bot.tables.restore import RestoreMixin, until_restored
from bot.tables.sync import SyncMixin
from bot.tables.table import Table, TableError, _reply
from bot.tables.threads import PAUSED_SENTENCE, ThreadsMixin
from bot.tables.timers import TimersMixin
from storage import repos
from storage.db import GuildDataMissing, Storage, StorageError
from storage.repos import BadRecord

if TYPE_CHECKING:
    from discord.ext import commands


class TableManager(LobbyMixin, MovesMixin, HandsMixin, ChatMixin, TimersMixin, RestoreMixin, SyncMixin, GuildSettingsMixin, ThreadsMixin):
    """One per bot: every table this process holds. The mixins are its concerns, one
    module each; they share the state set up here and call each other through ``self``."""

    def __init__(
        self, bot: commands.Bot, storage: Storage, games: GameRegistry, *,
        settings: Settings | None = None, bus: Bus | None = None, shared: bool | None = None,
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.games = games
        self.settings = settings if settings is not None else getattr(bot, "settings", None)
        self.bus: Bus = bus if bus is not None else LocalBus(str(storage.data_dir))
        #: Other processes may change this database's tables: read versions before
        #: moves and tell the others after them. Off for the one-process default.
        if shared is None:
            shared = self.settings is not None and (not self.settings.runs_every_shard or bool(self.settings.database_url))
        self.shared = shared
        self._tables: dict[tuple[int, int], Table] = {}
        #: (guild, place) -> table id; a place is a table's thread, else its channel.
        self._by_channel: dict[tuple[int, int], int] = {}
        self._closing = False
        self._loading = asyncio.Lock()
        self.publisher = Publisher(self)
        self._listen_to_threads()

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process holds the guild's shard: its timers, computer players
        and restore are this process's job."""
        return self.settings is None or self.settings.owns(guild_id)

    async def listen(self) -> None:
        """Listen to the other processes (a no-op for a lone process)."""
        await self.bus.start(self._on_change, self._resync)

    # ================================================================ lookups

    def active_in_channel(self, guild_id: int, channel_id: int) -> Table | None:
        """The table living in this channel or thread (a game's thread, or a channel
        where games are played directly, or a channel with an open lobby)."""
        table_id = self._by_channel.get((guild_id, channel_id))
        return self._tables.get((guild_id, table_id)) if table_id is not None else None

    def no_table_here(self, guild_id: int, channel_id: int, user_id: int) -> str:
        """Why a table command found nothing here, pointing at the threads where this
        channel's games are played (commands act on the table of the thread they are
        typed in; in the parent channel, on its lobby)."""
        threads = [t for t in self._tables.values() if t.guild_id == guild_id and t.record.channel_id == channel_id and t.record.thread_id is not None]
        mine = [t for t in threads if user_id in t.record.players]
        paused = [t for t in mine if t.record.publish.get("paused")]
        if paused:
            return PAUSED_SENTENCE.format(where=f"<#{paused[0].record.thread_id}>")
        if mine:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in mine)
            return f"Your game is played in its thread, {where}: use the command there."
        if threads:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in threads)
            return f"This channel's games are played in their threads ({where}); there is no open lobby here. Open one with `/blackjack new` (or another game's `new`)."
        return "There is no lobby or game in this channel. Open a lobby with `/blackjack new` (or another game's `new`)."

    def tables(self) -> list[Table]:
        return list(self._tables.values())

    async def _get(self, guild_id: int, table_id: int) -> Table:
        table = self._tables.get((guild_id, table_id))
        if table is not None:
            return table
        await until_restored(self.bot)
        table = self._tables.get((guild_id, table_id))
        if table is not None:
            return table
        record = await self._stored_record(guild_id, table_id)
        if record is None:
            raise TableError("That game no longer exists.")
        if record.status in repos.ACTIVE and self.shared:
            # Held by another process (a DM-hand click arrives at shard 0): load it here.
            loaded = await self._load_elsewhere(guild_id, record)
            if loaded is not None:
                return loaded
        if record.status == "finished":
            spec = self.games.get(record.game)
            following = self.active_in_channel(guild_id, record.place)
            if spec is not None and following is not None and following.spec.key == spec.key:
                # A later table of the same game here (Onion's next round): point to it.
                unit = table_unit(spec)
                if following.status == "lobby":
                    raise TableError(f"That {unit} has finished; the next {unit} is waiting in its lobby here (press Join on it).")
                raise TableError(f"That {unit} has finished; the next {unit} is in play here ({spec.title} #{following.id}): "
                                 "`/hand` shows your cards in it.")
            if spec is None:
                raise TableError("That game has finished.")
            # A late click on an old hand: the board of that game offers the next one.
            from bot.publish import play_again

            raise TableError(f"That game has finished. {play_again(spec, guild_id, record)}")
        if record.status == "cancelled":
            raise TableError("That game was cancelled.")
        raise TableError("That game could not be restored and has been closed.")

    async def _stored_record(self, guild_id: int, table_id: int) -> repos.TableRecord | None:
        """A table's row by ids a custom_id named (None: no such table). Never creates
        a database for a guild id that only a custom_id named."""
        if not self.storage.has_database(guild_id):
            return None
        try:
            async with self.storage.reading(guild_id, create=False) as db:
                return await repos.get_table(db, table_id)
        except GuildDataMissing:
            return None
        except BadRecord:
            raise TableError("That game's saved data is damaged, so it has been closed. You can open a new lobby.") from None
        except StorageError as error:
            raise TableError(error.sentence) from None

    async def _table_or_reply(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> Table | None:
        """The table a component names, if this interaction may act on it: the server
        boundary is checked here, before any lookup, for every component."""
        refusal = guard.scope_refusal(interaction, guild_id)
        if refusal is None:
            try:
                table = await self._get(guild_id, table_id)
            except TableError as error:
                refusal = str(error)
            else:
                refusal = guard.scope_refusal(interaction, guild_id, table.record.players)
                if refusal is None:
                    return table
        await _reply(interaction, refusal)
        return None

    def _track(self, table: Table) -> None:
        self._tables[table.key] = table
        for key in [k for k, v in self._by_channel.items() if k[0] == table.guild_id and v == table.id]:
            del self._by_channel[key]  # a table that moved into its thread
        self._by_channel[(table.guild_id, table.record.place)] = table.id

    def _untrack(self, table: Table) -> None:
        self._tables.pop(table.key, None)
        if self._by_channel.get((table.guild_id, table.record.place)) == table.id:
            del self._by_channel[(table.guild_id, table.record.place)]
        self._cancel_timers(table)

    # ================================================================ shutting down

    async def close(self) -> None:
        self._closing = True
        for table in list(self._tables.values()):
            self._cancel_timers(table)
        await self.bus.close()
