"""The lookups every entry point starts from: a table by its place (a channel or a
thread) or by the ids a component's custom_id names, with the server boundary checked
first; and the member's and server's shares of the bot's request budget."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.core.games import GameRegistry
from bot.core.registry import TableRegistry
from bot.core.table import Table, TableError
from bot.discord_front import guard
from bot.discord_front.common import _reply
from bot.discord_front.paused import paused_sentence
from bot.discord_front.publish import play_again, table_unit
from bot.discord_front.shares import Shares
from bot.discord_front.tables.restore import until_restored
from bot.words.i18n import _
from storage import repos
from storage.db import GuildDataMissing, Storage, StorageError
from storage.repos import BadRecord

log = logging.getLogger("bot.tables")


class Finder:
    """Tables by place or by ids. Handed the core's registry (what this process holds),
    the storage (a table's row by its ids), the games, the bot (to wait for the
    start-up restore), the members' shares, whether other processes share the storage
    (``shared()``), and ``load_elsewhere(guild_id, record)``: restore a table another
    process holds (``Restorer.load_elsewhere``)."""

    def __init__(
        self, *, registry: TableRegistry, storage: Storage, games: GameRegistry, bot: Any, shares: Shares,
        shared: Callable[[], bool], load_elsewhere: Callable[[int, repos.TableRecord], Awaitable[Table | None]],
    ) -> None:
        self.registry, self.storage, self.games, self.bot, self.shares = registry, storage, games, bot, shares
        self._shared, self._load_elsewhere = shared, load_elsewhere

    def active_in_channel(self, guild_id: int, channel_id: int) -> Table | None:
        """The table living in this channel or thread (a game's thread, or a channel
        where games are played directly, or a channel with an open lobby)."""
        table_id = self.registry.by_place.get((guild_id, channel_id))
        return self.registry.tables.get((guild_id, table_id)) if table_id is not None else None

    def tables(self) -> list[Table]:
        return list(self.registry.tables.values())

    def no_table_here(self, guild_id: int, channel_id: int, user_id: int) -> str:
        """Why a table command found nothing here, pointing at the threads where this
        channel's games are played (commands act on the table of the thread they are
        typed in; in the parent channel, on its lobby)."""
        threads = [t for t in self.registry.tables.values() if t.guild_id == guild_id and t.record.channel_id == channel_id and t.record.thread_id is not None]
        mine = [t for t in threads if user_id in t.record.players]
        paused = [t for t in mine if t.record.publish.get("paused")]
        if paused:
            return paused_sentence(paused[0])
        if mine:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in mine)
            return _("Your game is played in its thread, {where}: use the command there.", where=where)
        if threads:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in threads)
            return _("This channel's games are played in their threads ({where}); there is no open lobby here. Open one with `/blackjack new` (or another game's `new`).", where=where)
        return _("There is no lobby or game in this channel. Open a lobby with `/blackjack new` (or another game's `new`).")

    async def get(self, guild_id: int, table_id: int) -> Table:
        tables = self.registry.tables
        table = tables.get((guild_id, table_id))
        if table is not None:
            return table
        await until_restored(self.bot)
        table = tables.get((guild_id, table_id))
        if table is not None:
            return table
        record = await self.stored_record(guild_id, table_id)
        if record is None:
            raise TableError(_("That game no longer exists."))
        if record.status in repos.ACTIVE and self._shared():
            # Held by another process (a DM-hand click arrives at shard 0): load it here.
            loaded = await self._load_elsewhere(guild_id, record)
            if loaded is not None:
                return loaded
        if record.status == "finished":
            spec = self.games.get(record.game)
            following = self.active_in_channel(guild_id, record.place)
            if spec is not None and following is not None and following.spec.key == spec.key:
                # A later table of the same game here (Onion's next round): point to it.
                unit = _(table_unit(spec))  # "game", "round"
                if following.status == "lobby":
                    raise TableError(_("That {unit} has finished; the next {unit} is waiting in its lobby here (press Join on it).", unit=unit))
                raise TableError(_("That {unit} has finished; the next {unit} is in play here ({title} #{id}): "
                                   "`/hand` shows your cards in it.", unit=unit, title=spec.title, id=following.id))
            if spec is None:
                raise TableError(_("That game has finished."))
            # A late click on an old hand: the board of that game offers the next one.
            raise TableError(_("That game has finished. {play_again}", play_again=play_again(spec, guild_id, record)))
        if record.status == "cancelled":
            raise TableError(_("That game was cancelled."))
        raise TableError(_("That game could not be restored and has been closed."))

    async def stored_record(self, guild_id: int, table_id: int) -> repos.TableRecord | None:
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
            raise TableError(_("That game's saved data is damaged, so it has been closed. You can open a new lobby.")) from None
        except StorageError as error:
            raise TableError(error.sentence) from None

    async def table_or_reply(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> Table | None:
        """The table a component names, if this interaction may act on it: the server
        boundary is checked here, before any lookup, for every component."""
        refusal = guard.scope_refusal(interaction, guild_id)
        if refusal is None:
            try:
                table = await self.get(guild_id, table_id)
            except TableError as error:
                refusal = str(error)
            else:
                refusal = guard.scope_refusal(interaction, guild_id, table.record.players)
                if refusal is None:
                    return table
        await _reply(interaction, refusal)
        return None

    async def over_hand_views(self, interaction: discord.Interaction) -> bool:
        """Count one drawing of the member's hand against their share of views; past it,
        answer at once with the sentence that says how long to wait (True: draw nothing)."""
        wait = await self.shares.take_view(interaction.user.id)
        if wait is None:
            return False
        await _reply(interaction, _("Slow down: you asked to see your hand very often, so I did not draw it again; try again in {seconds} s.",
                                    seconds=wait))
        return True

    async def over_share(self, interaction: discord.Interaction, cost: int = 1) -> bool:
        """Count an action that costs the bot's global budget against the member's and the
        server's shares; past either, answer at once with the sentence that says how long
        to wait (True: nothing may change)."""
        refusal = await self.shares.take(interaction.guild_id, interaction.user.id, cost)
        if refusal is None:
            return False
        await _reply(interaction, refusal)
        return True
