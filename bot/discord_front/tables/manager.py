"""The :class:`TableManager`: the composition root of the Discord front end. It builds
the table core (``bot/core/``) and one collaborator per Discord concern, hands each
the narrow things it uses, is the core's listener, and names the entry points the
rest of the bot calls (each one a collaborator's method)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.bus import Bus, LocalBus
from bot.config import Settings
from bot.core.facade import TableCore
from bot.core.games import GameRegistry
from bot.core.moves import Outcome
from bot.core.table import Table
from bot.discord_front.common import DiscordClock
from bot.discord_front.paused import paused_refusal
from bot.discord_front.publish import Publisher
from bot.discord_front.shares import Shares
from bot.discord_front.tables.chat import Chat
from bot.discord_front.tables.finder import Finder
from bot.discord_front.tables.hands import Hands
from bot.discord_front.tables.lobby import Lobbies, LobbyMessages
from bot.discord_front.tables.moves import Clicks
from bot.discord_front.tables.restore import Restorer
from bot.discord_front.tables.sync import OtherProcesses
from bot.discord_front.tables.threads import Threads
from bot.discord_front.tables.timers import TableTimers
from bot.pictures.picture_pool import PictureDrawer
from storage.db import Storage

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger("bot.tables")


class TableManager:
    """One per bot: every table this process holds. It holds one
    :class:`bot.core.facade.TableCore` (``self.core``) and is its listener: what
    happens without a request (a computer's move, a timer) is reported to
    :meth:`moved`, :meth:`said`, :meth:`closed`. The Discord concerns are its
    collaborators, each built here with what it needs:

    - ``finder`` (:class:`Finder`): tables by place or by a component's ids, shares;
    - ``publisher`` (:class:`Publisher`): what each person must now see, and its requests;
    - ``timers_front`` (:class:`TableTimers`): the publish retry, the core's timers;
    - ``others`` (:class:`OtherProcesses`): the bus;
    - ``lobby_messages`` (:class:`LobbyMessages`): the lobby message, a closed board;
    - ``threads`` (:class:`Threads`): a game's thread closed, a permission taken;
    - ``restorer`` (:class:`Restorer`): tables brought back after a start;
    - ``clicks`` (:class:`Clicks`): moves from clicks, votes, typed words, leaves;
    - ``lobbies`` (:class:`Lobbies`): open, join, Start, Cancel, Rematch;
    - ``hands`` (:class:`Hands`): Show hand;
    - ``chat`` (:class:`Chat`): typed words and ``/say``.
    """

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
        #: ``owns(guild_id)``: whether this process holds the guild's shard (its timers,
        #: computer players and restore are this process's job): the settings' own test.
        self.owns: Callable[[int | None], bool] = self.settings.owns if self.settings is not None else _every_guild
        #: Card pictures: the bot's drawer (a worker process or a thread), or a thread's.
        self.pictures: PictureDrawer = getattr(bot, "pictures", None) or PictureDrawer()
        given = self.settings if self.settings is not None else Settings
        shares = shares if shares is not None else Shares(
            given.member_requests_per_minute, given.server_requests_per_minute, given.views_per_minute)

        # The core (bot/core/): this manager is its listener. Its hooks reach collaborators
        # built below, so they are looked up when called.
        self.core = core = TableCore(
            storage, games, self, clock=DiscordClock(), owns=self.owns, shared=shared,
            rolled_back=lambda table: self.publisher.show(table), paused=paused_refusal,
            forgotten=lambda table: self.timers_front.cancel(table),
        )
        self.registry, self.sync, self.clock = core.registry, core.sync, core.clock
        self.guild_settings = settings_ = core.settings
        self.lobby, self.moves, self.timers = core.lobby, core.moves, core.timers

        # The Discord front end, each collaborator handed what it uses.
        self.timers_front = TableTimers(core.timers, show=lambda table, **kw: self.publisher.show(table, **kw))
        self.others = OtherProcesses(
            bus=self.bus, registry=self.registry, sync=self.sync, owns=self.owns,
            get=lambda guild_id, table_id: self.finder.get(guild_id, table_id), closing=lambda: self._closing,
        )
        self.publisher = Publisher(
            bot, storage, self.pictures, settings_,
            board_refused=lambda table, error, *, final: self.threads.board_refused(table, error, final=final),
            retry_later=self.timers_front.schedule_publish_retry, tell_others=self.others.tell_others,
            finished=lambda table: self.lobby_messages.finished(table),
        )
        self.lobby_messages = LobbyMessages(bot, self.publisher)
        self.threads = Threads(
            bot=bot, storage=storage, registry=self.registry, publisher=self.publisher, lobby_messages=self.lobby_messages,
            timers=self.timers_front, close=core.lobby.close, owns=self.owns,
        )
        self.restorer = Restorer(
            bot=bot, storage=storage, games=games, registry=self.registry, settings=settings_, clock=self.clock, owns=self.owns,
            shared=lambda: self.sync.shared, timers=self.timers_front, recheck_thread=self.threads.recheck_thread,
        )
        self.finder = Finder(
            registry=self.registry, storage=storage, games=games, bot=bot, shares=shares,
            shared=lambda: self.sync.shared, load_elsewhere=self.restorer.load_elsewhere,
        )
        self.clicks = Clicks(
            finder=self.finder, moves=core.moves, sync=self.sync, publisher=self.publisher, settings=settings_,
            timers=self.timers_front, close=core.lobby.close, closed=self.lobby_messages.closed,
        )
        self.lobbies = Lobbies(
            bot=bot, storage=storage, games=games, registry=self.registry, lobby=core.lobby, settings=settings_, finder=self.finder,
            clicks=self.clicks, messages=self.lobby_messages, publisher=self.publisher, timers=self.timers_front,
        )
        self.hands = Hands(finder=self.finder, sync=self.sync, settings=settings_, publisher=self.publisher)
        self.chat = Chat(at=self.finder.active_in_channel, publisher=self.publisher, play_as=self.clicks.play_as)
        self.threads.listen()

        # The entry points the rest of the bot calls (views, commands, cogs, the app):
        # each is the collaborator's own method, so a click enters it directly.
        f, c, lo, h = self.finder, self.clicks, self.lobbies, self.hands
        self.active_in_channel, self.no_table_here, self.tables = f.active_in_channel, f.no_table_here, f.tables
        self.table_or_reply = f.table_or_reply
        self.act, self.cast_vote, self.play_as, self.leave_game = c.act, c.cast_vote, c.play_as, c.leave_game
        self.open_lobby, self.lobby_click, self.rematch, self.start, self.cancel = lo.open_lobby, lo.lobby_click, lo.rematch, lo.start, lo.cancel
        self.join, self.leave, self.remove, self.add_computer, self.remove_computer = lo.join, lo.leave, lo.remove, lo.add_computer, lo.remove_computer
        self.show_hand = h.show_hand
        self.on_chat, self.say = self.chat.on_chat, self.chat.say
        self.find_lost = self.threads.find_lost
        self.restore_all = self.restorer.restore_all
        self.listen = self.others.listen
        self.guild_turn_seconds = settings_.guild_turn_seconds
        self.house_rules = settings_.house_rules
        self.hands_in_dm = settings_.hands_in_dm
        self.board_layout = settings_.board_layout
        self.pictures_on = settings_.pictures_on
        self.threads_on = settings_.threads_on

    @property
    def shares(self) -> Shares:
        """Each member's and server's share of the bot's global budget (bot/discord_front/shares.py)."""
        return self.finder.shares

    @shares.setter
    def shares(self, value: Shares) -> None:
        self.finder.shares = value

    @property
    def shared(self) -> bool:
        return self.sync.shared

    @shared.setter
    def shared(self, value: bool) -> None:
        self.sync.shared = value

    # ================================================================ told by the core (its TableListener)

    async def moved(self, table: Table, outcome: Outcome, *, actor: int | None = None) -> None:
        """A move to show (a computer's, a timer's): the table's show task shows it, then
        tells the other processes. Sends nothing itself."""
        self.publisher.show_move(table, outcome, actor=actor)

    async def said(self, table: Table, seat: int, text: str) -> None:
        """A computer's words go where a person's typed words are (``Chat.computer_said``)."""
        await self.chat.computer_said(table, seat, text)

    async def closed(self, table: Table, why: str) -> None:
        """Closed without a request (nobody but computers left): ``LobbyMessages.closed``."""
        await self.lobby_messages.closed(table, why)

    # ================================================================ shutting down

    async def close(self) -> None:
        self._closing = True
        tables = list(self.registry.tables.values())
        await self.core.close()  # stops every timer and computer task
        for table in tables:
            self.timers_front.cancel(table)  # and the publish retries
        await self.bus.close()


def _every_guild(guild_id: int | None) -> bool:
    """A manager without settings (tests, benchmarks) holds every guild."""
    return True
