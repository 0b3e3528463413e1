"""The :class:`TableManager`: its state (the tables this process holds and where
they live, the bus, the publisher), the lookups every entry point starts from, and
its assembly from the package's other modules, one per concern."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.words import i18n
from bot.discord_front import guard, votes
from bot.bus import Bus, LocalBus
from bot.config import Settings
from bot.core import computer
from bot.core.facade import TableCore
from bot.core.games import GameRegistry
from bot.core.moves import Outcome
from bot.words.i18n import _
from bot.pictures.picture_pool import PictureDrawer
from bot.discord_front.publish import Publisher, table_unit
from bot.discord_front.tables.chat import ChatMixin
from bot.discord_front.tables.hands import HandsMixin
from bot.discord_front.tables.lobby import LobbyMixin
from bot.discord_front.tables.moves import MovesMixin
from bot.discord_front.tables.restore import RestoreMixin, until_restored
from bot.discord_front.tables.sync import SyncMixin
from bot.core.table import Table, TableError
from bot.discord_front.common import DiscordClock, _reply
from bot.discord_front.shares import Shares
from bot.discord_front.tables.threads import ThreadsMixin, paused_sentence
from bot.discord_front.tables.timers import TimersMixin
from storage import repos
from storage.db import GuildDataMissing, Storage, StorageError
from storage.repos import BadRecord

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger("bot.tables")


class TableManager(LobbyMixin, MovesMixin, HandsMixin, ChatMixin, TimersMixin, RestoreMixin, SyncMixin, ThreadsMixin):
    """One per bot: every table this process holds. It holds one
    :class:`bot.core.facade.TableCore` (``self.core``) and is its listener: what
    happens without a request (a computer's move, a timer) is reported to
    :meth:`moved`, :meth:`said`, :meth:`closed`. It uses the core's collaborators
    (registry, lobby, moves, timers, sync, settings) directly; the mixins are its
    Discord concerns, one module each, and share the state set up here through ``self``."""

    def __init__(
        self, bot: commands.Bot, storage: Storage, games: GameRegistry, *,
        settings: Settings | None = None, bus: Bus | None = None, shared: bool | None = None, shares: Shares | None = None,
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
        self._closing = False
        self._loading = asyncio.Lock()
        #: Card pictures: the bot's drawer (a worker process or a thread), or a thread's.
        self.pictures: PictureDrawer = getattr(bot, "pictures", None) or PictureDrawer()
        self.publisher = Publisher(self)
        #: Each member's and server's share of the bot's global budget (bot/discord_front/shares.py).
        self.shares = shares if shares is not None else Shares(
            *((self.settings.member_requests_per_minute, self.settings.server_requests_per_minute) if self.settings is not None
              else (Settings.member_requests_per_minute, Settings.server_requests_per_minute)))
        #: Tables whose board is being tried again after a permission was taken from the bot
        #: (bot/discord_front/tables/threads.py: a refusal then is the probe's, not a new loss).
        self._access_probing: set[tuple[int, int]] = set()
        # The core (bot/core/): this manager is its listener; its collaborators are used from here.
        self.core = TableCore(
            storage, games, self, clock=DiscordClock(), owns=self.owns, shared=shared,
            rolled_back=self.publisher.show, paused=_paused_refusal, forgotten=self._cancel_timers,
        )
        self.registry, self.sync, self.clock = self.core.registry, self.core.sync, self.core.clock
        self._tables = self.registry.tables
        #: (guild, place) -> table id; a place is a table's thread, else its channel.
        self._by_channel = self.registry.by_place
        self.guild_settings = self.core.settings
        self.guild_turn_seconds = self.guild_settings.guild_turn_seconds
        self.house_rules = self.guild_settings.house_rules
        self.hands_in_dm = self.guild_settings.hands_in_dm
        self.board_layout = self.guild_settings.board_layout
        self.pictures_on = self.guild_settings.pictures_on
        self.threads_on = self.guild_settings.threads_on
        self.lobby, self.moves, self.timers = self.core.lobby, self.core.moves, self.core.timers
        self._listen_to_threads()

    @property
    def shared(self) -> bool:
        return self.sync.shared

    @shared.setter
    def shared(self, value: bool) -> None:
        self.sync.shared = value

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process holds the guild's shard: its timers, computer players
        and restore are this process's job."""
        return self.settings is None or self.settings.owns(guild_id)

    # ================================================================ told by the core (its TableListener)

    async def moved(self, table: Table, outcome: Outcome, *, actor: int | None = None) -> None:
        """A move to show (a computer's, a timer's, or one made here by ``actor``): the
        table's show task shows it, then tells the other processes. Sends nothing
        itself, so it may be called with the lock held."""
        self.publisher.show(table, ping=outcome.newly_current, final=outcome.over, events=outcome.events, actor=actor, tell=True)

    @i18n.for_everyone
    async def said(self, table: Table, seat: int, text: str) -> None:
        """A computer's words go where a person's typed words are: a message of its own in
        the game's place (a thread, or the channel), not only the board's short log."""
        try:
            await self.publisher.place(table).send(content=f"{computer.name(seat)}: {computer.spoken(text)}"[:2000],
                                                   allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("Computer %s at table %s could not say its words: %s", seat, table.id, error)
            return
        self.publisher.note_chat(table)

    @i18n.for_everyone
    async def closed(self, table: Table, why: str) -> None:
        """Closed without a request (nobody but computers left): the board and the lobby
        message say why, in the server's language (``why`` is the English sentence)."""
        why = _(why)
        await self._edit_table_closed(table, why)
        await self._edit_lobby_message(table, self._lobby_embed(table, why), None)

    async def cast_vote(self, interaction: discord.Interaction, guild_id: int, table_id: int, vote_id: str, code: str) -> None:
        """A click on a vote message's button (bot/discord_front/votes.py)."""
        await votes.cast(self, interaction, guild_id, table_id, vote_id, code)

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
            return paused_sentence(paused[0])
        if mine:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in mine)
            return _("Your game is played in its thread, {where}: use the command there.", where=where)
        if threads:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in threads)
            return _("This channel's games are played in their threads ({where}); there is no open lobby here. Open one with `/blackjack new` (or another game's `new`).", where=where)
        return _("There is no lobby or game in this channel. Open a lobby with `/blackjack new` (or another game's `new`).")

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
            raise TableError(_("That game no longer exists."))
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
                unit = _(table_unit(spec))  # "game", "round"
                if following.status == "lobby":
                    raise TableError(_("That {unit} has finished; the next {unit} is waiting in its lobby here (press Join on it).", unit=unit))
                raise TableError(_("That {unit} has finished; the next {unit} is in play here ({title} #{id}): "
                                   "`/hand` shows your cards in it.", unit=unit, title=spec.title, id=following.id))
            if spec is None:
                raise TableError(_("That game has finished."))
            # A late click on an old hand: the board of that game offers the next one.
            from bot.discord_front.publish import play_again

            raise TableError(_("That game has finished. {play_again}", play_again=play_again(spec, guild_id, record)))
        if record.status == "cancelled":
            raise TableError(_("That game was cancelled."))
        raise TableError(_("That game could not be restored and has been closed."))

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
            raise TableError(_("That game's saved data is damaged, so it has been closed. You can open a new lobby.")) from None
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

    async def _over_share(self, interaction: discord.Interaction, cost: int = 1) -> bool:
        """Count an action that costs the bot's global budget against the member's and the
        server's shares; past either, answer at once with the sentence that says how long
        to wait (True: nothing may change)."""
        refusal = await self.shares.take(interaction.guild_id, interaction.user.id, cost)
        if refusal is None:
            return False
        await _reply(interaction, refusal)
        return True

    def _track(self, table: Table) -> None:
        self.registry.track(table)

    def _untrack(self, table: Table) -> None:
        self.registry.untrack(table)

    # ================================================================ shutting down

    async def close(self) -> None:
        self._closing = True
        tables = list(self._tables.values())
        await self.core.close()  # stops every timer and computer task
        for table in tables:
            self._cancel_timers(table)  # and the publish retries
        await self.bus.close()


def _paused_refusal(table: Table) -> str | None:
    """A table whose thread a moderator closed takes no moves (bot/discord_front/tables/threads.py)."""
    if not table.record.publish.get("paused"):
        return None
    return paused_sentence(table)
