"""Tables: lobbies, seats, moves, turn timers, persistence and restore.

One :class:`TableManager` per bot. It is the only place where a game's pure rules
meet Discord and the database, and it is the same for every game.

The order of every move is fixed, and it is what keeps games safe:

1. take the table's lock (two clicks at the same instant apply exactly once: the
   second sees a newer version and is told its button is stale);
2. validate and apply through the rules (an illegal move raises a readable
   :class:`RuleError` and changes nothing);
3. commit the new snapshot and the action to SQLite;
4. only then show the effect: the acting player's hand is updated in place by the
   interaction's own response, the next player's open hand (or DM) tells them, and the
   board is edited, or posted anew to ping whoever could not be told through a hand
   (``bot/publish.py``).

That is two or three REST calls for most moves. A failed Discord call never loses a move:
the state is already committed, the table message is re-posted on the next
update or by a retry, and the turn timer keeps running.

Several processes (issue 13, shards): a move may reach any process (a DM-hand
click arrives at shard 0). The in-memory lock serialises moves in one process; the
database serialises them across processes: the commit's UPDATE only matches the
version the move was applied to, so of two clicks at the same instant in two
processes exactly one commits, and the loser reloads the table and shows the
stale-click sentence. A process whose copy is older than the database's (a cheap
version read before the move) reloads it first. Timers and computer players run
only in the process that owns the guild's shard; a process that changed a table
says so on the bus (bot/bus.py), and the owner reloads it and re-arms them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import computer, guard, views
from bot.bus import Bus, LocalBus, TableChange
from bot.config import Settings
from bot.engine import Action, Event, Game, RuleError
from bot.games import GameRegistry, GameSpec
from bot.publish import Publisher
from storage import repos
from storage.db import Storage, StorageError
from storage.repos import BadRecord, TableRecord

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

DEFAULT_TURN_SECONDS = 120
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 15, 3600
IDLE_STRIKES_TO_REMOVE = 3
REPOST_AFTER_SECONDS = 50 * 60  # edits of messages older than 1 h have a tighter rate limit
RECENT_LINES = 6
PUBLISH_RETRY_SECONDS = 10
PUBLISH_RETRIES = 5
STALE_CLICK = "⚠️ That button was from an earlier moment in the game, so nothing was played. Here is your hand now."
MAX_WAIT_FOR_LOCK = 1.0  # with the database's own bounded wait, a move is answered (or deferred) within 3 s


def reads_chat(client: discord.Client) -> bool:
    """Whether typed chat reaches the bot: it asked for the Message Content intent and
    the application is allowed it (``gateway_message_content`` for verified bots,
    ``gateway_message_content_limited`` under 100 servers). Unknown flags (before
    login) count as allowed: the intent alone decides."""
    if not client.intents.message_content:
        return False
    application = client.application
    if application is None:
        return True
    flags = application.flags
    return bool(flags.gateway_message_content or flags.gateway_message_content_limited)


def replied_to(message: discord.Message) -> int | None:
    """The author a message replies to (a human), if Discord gave us the message."""
    reference = message.reference
    if reference is None:
        return None
    resolved = reference.resolved or reference.cached_message
    author = getattr(resolved, "author", None)
    if author is None or author.bot:
        return None
    return author.id


def now_ts() -> float:
    # discord.utils.utcnow is the clock discord.py itself uses (and the one tests control).
    return discord.utils.utcnow().timestamp()


class TableError(Exception):
    """A refusal for the user, phrased as one sentence."""


@dataclass
class Table:
    guild_id: int
    record: TableRecord
    spec: GameSpec
    state: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    obligation_timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    publish_retry: asyncio.Task[None] | None = None
    needs_publish: bool = False
    #: user -> the table version just after their latest move (in memory only: after
    #: a restart an old click can at worst be applied once, if it is still legal).
    last_moved: dict[int, int] = field(default_factory=dict)
    #: The task playing the computer seats' next move (bot/computer.py), if any.
    computer: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def key(self) -> tuple[int, int]:
        return (self.guild_id, self.record.id)

    @property
    def status(self) -> str:
        return self.record.status

    def names(self) -> dict[int, str]:
        # The game's own players too: a computer that took a leaver's seat.
        seated = self.state.players if self.state is not None else []
        return {p: computer.name(p) for p in [*self.record.players, *seated]}

    def describe(self) -> str:
        stage = "waiting in its lobby" if self.status == "lobby" else "in play"
        return f"a {self.spec.title} table hosted by <@{self.record.host_id}>, {stage}"


class TableManager:
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
        if mine:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in mine)
            return f"Your game is played in its thread, {where}: use the command there."
        if threads:
            where = ", ".join(f"<#{t.record.thread_id}>" for t in threads)
            return f"This channel's games are played in their threads ({where}); there is no open lobby here. Open one with `/blackjack new` (or another game's `new`)."
        return "There is no table in this channel. Open one with `/blackjack new` (or another game's `new`)."

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
        if not self.storage.has_database(guild_id):
            # Never create a database for a guild id that only a custom_id named.
            raise TableError("That table no longer exists.")
        try:
            async with self.storage.reading(guild_id) as db:
                record = await repos.get_table(db, table_id)
        except BadRecord:
            raise TableError("That table's saved data is damaged, so it has been closed. You can open a new table.") from None
        except StorageError as error:
            raise TableError(error.sentence) from None
        if record is None:
            raise TableError("That table no longer exists.")
        if record.status in repos.ACTIVE and self.shared:
            # Held by another process (a DM-hand click arrives at shard 0): load it here.
            loaded = await self._load_elsewhere(guild_id, record)
            if loaded is not None:
                return loaded
        if record.status == "finished":
            spec = self.games.get(record.game)
            how = f"`/{spec.key} new`" if spec is not None else "a game's `new` command"
            raise TableError(f"That game has finished. Start a new one with {how}.")
        if record.status == "cancelled":
            raise TableError("That table was cancelled.")
        raise TableError("That table could not be restored and has been closed.")

    async def _load_elsewhere(self, guild_id: int, record: TableRecord) -> Table | None:
        async with self._loading:
            table = self._tables.get((guild_id, record.id))
            if table is None and await self._restore(guild_id, record, announce=False):
                table = self._tables.get((guild_id, record.id))
        return table

    # ================================================================ other processes

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

    # ================================================================ settings

    async def guild_turn_seconds(self, guild_id: int) -> int:
        async with self.storage.reading(guild_id) as db:
            value = await repos.get_guild_setting(db, "turn_timer", DEFAULT_TURN_SECONDS)
        return int(value) if isinstance(value, int) else DEFAULT_TURN_SECONDS

    async def house_rules(self, guild_id: int, spec: GameSpec) -> dict[str, str]:
        async with self.storage.reading(guild_id) as db:
            stored = await repos.guild_settings_with_prefix(db, f"house:{spec.key}:")
        chosen = {}
        for rule in spec.house_rules:
            value = stored.get(f"house:{spec.key}:{rule.key}", rule.default)
            chosen[rule.key] = value if value in rule.choices else rule.default
        return chosen

    async def hands_in_dm(self, guild_id: int, user_id: int) -> bool:
        async with self.storage.reading(guild_id) as db:
            return await repos.get_user_setting(db, user_id, "hands", "here") == "dm"

    async def board_layout(self, guild_id: int) -> str:
        """Per server: the board as an embed ("classic", the default) or in Components V2 ("v2")."""
        async with self.storage.reading(guild_id) as db:
            return "classic" if await repos.get_guild_setting(db, "layout", "v2") == "classic" else "v2"

    async def pictures_on(self, guild_id: int) -> bool:
        """Per server: card pictures on the board (the default), or text only."""
        async with self.storage.reading(guild_id) as db:
            return await repos.get_guild_setting(db, "pictures", "on") != "off"

    async def threads_on(self, guild_id: int) -> bool:
        """Per server: each game in its own thread (the default), or in the channel."""
        async with self.storage.reading(guild_id) as db:
            return await repos.get_guild_setting(db, "threads", "on") != "off"

    # ================================================================ lobbies

    async def open_lobby(
        self, interaction: discord.Interaction, spec: GameSpec, options: dict[str, Any] | None = None, *,
        players: Sequence[int] = (), seat_choices: dict[int, str] | None = None, house_rules: bool = True, note: str = "",
    ) -> None:
        """Open a lobby where the command was typed. In a thread (a Rematch, or a
        command typed in one) the game is then played in that thread; in a channel,
        Start opens a thread for it. ``players`` seats people at once (a Rematch)."""
        guild_id, channel_id, host = interaction.guild_id, interaction.channel_id, interaction.user.id
        if guild_id is None or channel_id is None:
            await _reply(interaction, "Tables are played in a server channel, not in DMs.")
            return
        existing = self.active_in_channel(guild_id, channel_id)
        if existing is not None:
            # One lobby per channel, one game per thread: two at one place would share its buttons and commands.
            what = "thread" if isinstance(interaction.channel, discord.Thread) else "channel"
            why = ("Two lobbies here would share Join, Start and `/join`" if existing.status == "lobby"
                   else "Its game is played right here, so a second one would share its pings and commands")
            await _reply(interaction, f"This {what} already has {existing.describe()}. {why}: finish it or `/cancel` it first, or open a table in another {what}.")
            return
        table_options = dict(options or {})
        if house_rules:
            table_options.update(await self.house_rules(guild_id, spec))
        timer = await self.guild_turn_seconds(guild_id)
        now = now_ts()
        in_thread = interaction.channel if isinstance(interaction.channel, discord.Thread) else None
        parent_id = in_thread.parent_id if in_thread is not None and in_thread.parent_id else channel_id
        thread_id = channel_id if in_thread is not None else None
        async with self.storage.transaction(guild_id) as db:
            if await repos.active_table_at(db, channel_id) is not None:
                await _reply(interaction, "This channel already has a table. Finish it or `/cancel` it first.")
                return
            table_id = await repos.insert_table(db, game=spec.key, channel_id=parent_id, thread_id=thread_id, host_id=host, options=table_options, timer_seconds=timer, now=now)
            record = await repos.get_table(db, table_id)
        assert record is not None
        table = Table(guild_id, record, spec)
        record.publish = {"lobby_channel": channel_id, "lobby_options": table_options}
        if note:
            record.publish["note"] = note  # the game's word for the lobby (its footer)
        record.players = [host, *[p for p in players if p != host]]
        if spec.seat_choices:
            # The opener joins the first side; they can switch with the other Join button.
            record.seat_choices = dict(seat_choices or {}) or {host: spec.seat_choices[0][0]}
            record.seat_choices.setdefault(host, spec.seat_choices[0][0])
        async with self.storage.transaction(guild_id) as db:
            await repos.update_table(db, table.id, now=now, seat_choices=record.seat_choices, players=record.players, publish=record.publish)
        self._track(table)
        callback = await interaction.response.send_message(embed=self._lobby_embed(table), view=views.lobby_view(guild_id, table.id, spec.seat_choices, computers=computer.has_ai(spec.key)))
        message = callback.resource  # the new message comes back with the callback: no extra fetch
        if isinstance(message, discord.InteractionMessage):
            record.lobby_message_id = message.id
            async with self.storage.transaction(guild_id) as db:
                await repos.update_table(db, table.id, now=now_ts(), lobby_message_id=message.id)

    def _table_size(self, table: Table) -> tuple[int, int]:
        """Seats a lobby offers: the table's own size option (Engines' 2 or 4) if any."""
        game = table.spec.game
        size = table.record.publish.get("lobby_options", table.record.options).get("players")
        if isinstance(size, int) and game.min_players <= size <= game.max_players:
            return size, size
        return game.min_players, game.max_players

    def _option_lines(self, table: Table) -> list[str]:
        """Table options as sentences: a house rule by its description, not its key."""
        lines = []
        for key, value in sorted(table.record.publish.get("lobby_options", table.record.options).items()):
            rule = table.spec.house_rule(key)
            if key in ("carry", "players"):
                continue  # carried state is not an option; the size is said above
            if rule is not None:
                lines.append(rule.sentence(str(value)))
            else:
                lines.append(f"{key.replace('_', ' ').capitalize()}: **{value}**")
        return lines

    def _lobby_embed(self, table: Table, note: str = "") -> discord.Embed:
        spec, record = table.spec, table.record
        low, high = self._table_size(table)
        size = f"{low} players" if low == high else f"{low} to {high} players"
        embed = discord.Embed(title=f"{spec.title}: table #{table.id}", colour=discord.Colour.blurple())
        if record.status == "lobby":
            embed.description = (
                f"Hosted by <@{record.host_id}>. {size}. "
                f"Press **Join**, then the host presses **Start**.\nTurn timer: {record.timer_seconds} s."
            )
        elif record.status == "cancelled":
            embed.description = "This table was cancelled."
            embed.colour = discord.Colour.dark_grey()
        elif record.status == "finished" and table.state is not None:
            embed.description = self.publisher.final_line(table)
            embed.colour = discord.Colour.gold()
        elif record.thread_id is not None and record.publish.get("lobby_channel") != record.thread_id:
            embed.description = f"▶️ In play in <#{record.thread_id}>: the table, your turns and your hand are there."
            embed.colour = discord.Colour.green()
        else:
            embed.description = "▶️ In play: the table message is below."
            embed.colour = discord.Colour.green()
        seats = []
        for player in record.players:
            choice = record.seat_choices.get(player)
            label = dict(spec.seat_choices).get(choice, "") if choice else ""
            seats.append(computer.name(player) + (f" — {label}" if label else "") + (" (host)" if player == record.host_id else ""))
        embed.add_field(name=f"Players ({len(record.players)})", value="\n".join(seats) or "nobody yet", inline=False)
        rules = self._option_lines(table)
        if rules:
            embed.add_field(name="Table options", value="\n".join(rules)[:1024], inline=False)
        note = note or record.publish.get("note", "")
        if note:
            embed.set_footer(text=note[:2048])
        return embed

    async def lobby_click(self, interaction: discord.Interaction, guild_id: int, table_id: int, verb: str, choice: str | None = None) -> None:
        """A lobby button. Answers by editing the lobby message in place."""
        table = await self._table_or_reply(interaction, guild_id, table_id)
        if table is None:
            return
        if verb == "start":
            await self.start(interaction, table)
        elif verb == "cancel":
            await self.cancel(interaction, table)
        elif verb == "join":
            await self.join(interaction, table, choice)
        elif verb == "leave":
            await self.leave(interaction, table)
        elif verb == "addbot":
            await self.add_computer(interaction, table, choice or computer.OFFERED[0])
        elif verb == "dropbot":
            await self.remove_computer(interaction, table)

    async def add_computer(self, interaction: discord.Interaction, table: Table, level: str) -> None:
        """The host seats a computer player (bot/computer.py) in the lobby."""
        async with table.lock:
            record = table.record
            refusal = None if record.status == "lobby" else "This game has already started; computers join in the lobby."
            if refusal is None and interaction.user.id != record.host_id:
                refusal = f"Only the host, <@{record.host_id}>, can add computer players."
            refusal = refusal or computer.add_refusal(table.spec.key, record.players, self._table_size(table)[1], level)
            if refusal is not None:
                await _reply(interaction, refusal)
                return
            seat = computer.new_seat(record.players, level)
            seat_choices = dict(record.seat_choices)
            if table.spec.seat_choices:
                seat_choices[seat] = table.spec.seat_choices[0][0]
            await self._save_lobby(table, players=[*record.players, seat], seat_choices=seat_choices)
        await self._refresh_lobby(interaction, table, f"{computer.name(seat)} joined.")

    async def remove_computer(self, interaction: discord.Interaction, table: Table) -> None:
        """The host takes the last-seated computer player out of the lobby."""
        async with table.lock:
            record = table.record
            seats = [p for p in record.players if computer.is_computer(p)]
            refusal = None if record.status == "lobby" else "This game has already started; computers leave in the lobby."
            if refusal is None and interaction.user.id != record.host_id:
                refusal = f"Only the host, <@{record.host_id}>, can remove computer players."
            if refusal is None and not seats:
                refusal = "There is no computer player at this table."
            if refusal is not None:
                await _reply(interaction, refusal)
                return
            seat = seats[-1]
            seat_choices = {p: c for p, c in record.seat_choices.items() if p != seat}
            await self._save_lobby(table, players=[p for p in record.players if p != seat], seat_choices=seat_choices)
        await self._refresh_lobby(interaction, table, f"{computer.name(seat)} left.")

    async def join(self, interaction: discord.Interaction, table: Table, choice: str | None = None) -> None:
        user = interaction.user.id
        async with table.lock:
            record = table.record
            if record.status != "lobby":
                await _reply(interaction, "This game has already started; you can join the next one.")
                return
            valid_choices = [c for c, _ in table.spec.seat_choices]
            if valid_choices:
                choice = choice if choice in valid_choices else valid_choices[0]
            if user in record.players and (not valid_choices or record.seat_choices.get(user) == choice):
                await _reply(interaction, "You are already at this table.")
                return
            if user not in record.players and len(record.players) >= table.spec.game.max_players:
                await _reply(interaction, f"This table is full ({table.spec.game.max_players} players).")
                return
            players = record.players if user in record.players else [*record.players, user]
            seat_choices = dict(record.seat_choices)
            if choice:
                seat_choices[user] = choice
            await self._save_lobby(table, players=players, seat_choices=seat_choices)
        await self._refresh_lobby(interaction, table)

    async def leave(self, interaction: discord.Interaction, table: Table, target: int | None = None) -> None:
        """Leave a lobby or a running game (or, with ``target``, remove someone)."""
        user = target if target is not None else interaction.user.id
        if table.status == "playing":
            await self.leave_game(interaction, table, target)
            return
        async with table.lock:
            record = table.record
            if user not in record.players:
                await _reply(interaction, "That player is not at this table." if target else "You are not at this table.")
                return
            players = [p for p in record.players if p != user]
            if not computer.humans(players):
                await self._close(table, "cancelled")
                note = "Everyone left; the table is closed."
            else:
                host = record.host_id if record.host_id != user else computer.humans(players)[0]
                seat_choices = {p: c for p, c in record.seat_choices.items() if p != user}
                await self._save_lobby(table, players=players, seat_choices=seat_choices, host_id=host)
                note = f"<@{user}> was removed by {interaction.user.mention}." if target else ""
        await self._refresh_lobby(interaction, table, note)

    async def remove(self, interaction: discord.Interaction, table: Table, target: int) -> None:
        """/remove: the host or a member with Manage Server takes a player out."""
        if not self._can_manage(interaction, table):
            await _reply(interaction, f"Only the host, <@{table.record.host_id}>, or someone with Manage Server can remove players.")
            return
        await self.leave(interaction, table, target)

    async def _save_lobby(self, table: Table, **columns: Any) -> None:
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), **columns)
        for name, value in columns.items():
            setattr(table.record, name, value)

    async def _refresh_lobby(self, interaction: discord.Interaction, table: Table, note: str = "") -> None:
        embed = self._lobby_embed(table, note)
        view = views.lobby_view(table.guild_id, table.id, table.spec.seat_choices, computers=computer.has_ai(table.spec.key)) if table.status == "lobby" else None
        if _is_component_on(interaction, table.record.lobby_message_id):
            await interaction.response.edit_message(embed=embed, view=view)
            return
        # A slash command: answer it, and bring the lobby message up to date.
        await _reply(interaction, note or "Done.", ephemeral=True)
        await self._edit_lobby_message(table, embed, view)

    async def _edit_lobby_message(self, table: Table, embed: discord.Embed, view: discord.ui.View | None) -> None:
        if table.record.lobby_message_id is None:
            return
        where = table.record.publish.get("lobby_channel", table.record.channel_id)
        channel = self.bot.get_partial_messageable(where, guild_id=table.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(table.record.lobby_message_id).edit(embed=embed, view=view)

    def _can_manage(self, interaction: discord.Interaction, table: Table) -> bool:
        if interaction.user.id == table.record.host_id:
            return True
        permissions = interaction.permissions
        return bool(permissions and permissions.manage_guild)

    async def start(self, interaction: discord.Interaction, table: Table) -> None:
        async with table.lock:
            record = table.record
            if record.status != "lobby":
                await _reply(interaction, "This game has already started.")
                return
            if interaction.user.id != record.host_id:
                await _reply(interaction, f"Only the host, <@{record.host_id}>, can start this table.")
                return
            spec = table.spec
            players = list(record.players)
            seed = str(secrets.randbits(64))
            options = dict(record.options)
            async with self.storage.reading(table.guild_id) as db:
                carry = await repos.get_carryover(db, record.channel_id, spec.key)
            if carry:
                options["carry"] = carry
            try:
                # The game's own lobby check first: it knows the table's size and sides.
                if spec.prepare_options is not None:
                    options = spec.prepare_options(players, dict(record.seat_choices), options, seed)
                spec.game.check_player_count(players)
                state = spec.game.new(players, options, seed=seed)
            except RuleError as error:
                await _reply(interaction, str(error))
                return
            now = now_ts()
            table.state = state
            current = state.current_players()
            deadline = now + record.timer_seconds if current else None
            opening = spec.render.event_lines(list(state.opening_events), table.names())
            await self._save_lobby(
                table, status="playing", seed=seed, options=options, state=state.to_json(), version=0,
                deadline=deadline, recent=["The game begins.", *opening][-RECENT_LINES:],
            )
            await self._open_thread(interaction, table)
            if await self.board_layout(table.guild_id) == "v2":
                record.publish["layout"] = "v2"  # fixed for the game: a V2 message stays V2
            if not await self.pictures_on(table.guild_id):
                record.publish["pictures"] = "off"
            await self._save_lobby(table, publish=record.publish)
        if _is_component_on(interaction, record.lobby_message_id):
            await interaction.response.edit_message(embed=self._lobby_embed(table), view=None)
        else:
            where = f" in <#{record.thread_id}>" if record.thread_id and record.thread_id != interaction.channel_id else ""
            await _reply(interaction, f"Started{where}.", ephemeral=True)
            await self._edit_lobby_message(table, self._lobby_embed(table), None)
        await self._publish(table, ping=current)
        self._arm_timers(table)

    async def _open_thread(self, interaction: discord.Interaction, table: Table) -> None:
        """Start: a public thread from the lobby message, where the game is played.
        The game stays in the channel when the lobby is in a thread already (a
        Rematch), when the server turned threads off, or when Discord refuses (no
        Create Public Threads permission): then with a note saying so."""
        record = table.record
        if record.thread_id is not None or record.lobby_message_id is None or not await self.threads_on(table.guild_id):
            return
        permissions = interaction.app_permissions
        if not permissions.create_public_threads:
            note = "I could not open a thread for this game (I need the Create Public Threads permission here), so it is played in this channel."
        else:
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=table.guild_id)
            try:
                thread = await channel.get_partial_message(record.lobby_message_id).create_thread(
                    name=f"{table.spec.title} #{table.id}", auto_archive_duration=1440,
                )
            except discord.HTTPException as error:
                log.warning("Could not open a thread for table %s in guild %s: %s", table.id, table.guild_id, error)
                note = "I could not open a thread for this game (Discord refused), so it is played in this channel."
            else:
                await self._save_lobby(table, thread_id=thread.id)
                self._track(table)
                return
        record.publish["note"] = note
        await self._save_lobby(table, publish=record.publish)

    async def cancel(self, interaction: discord.Interaction, table: Table) -> None:
        if not self._can_manage(interaction, table):
            await _reply(interaction, f"Only the host, <@{table.record.host_id}>, or someone with Manage Server can cancel this table.")
            return
        async with table.lock:
            if table.status not in repos.ACTIVE:
                await _reply(interaction, "This table is already closed.")
                return
            was_playing = table.status == "playing"
            await self._close(table, "cancelled")
        note = f"Cancelled by {interaction.user.mention}."
        if _is_component_on(interaction, table.record.lobby_message_id):
            await interaction.response.edit_message(embed=self._lobby_embed(table, note), view=None)
        else:
            await _reply(interaction, f"The {table.spec.title} table was cancelled.", ephemeral=False)
            await self._edit_lobby_message(table, self._lobby_embed(table, note), None)
        if was_playing:
            await self._edit_table_closed(table, note)

    async def _close(self, table: Table, status: str) -> None:
        """Persist a closed table and forget it (caller holds the lock)."""
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), status=status, deadline=None)
        table.record.status = status
        table.record.deadline = None
        self._untrack(table)

    async def _edit_table_closed(self, table: Table, note: str) -> None:
        if table.record.message_id is None or table.state is None:
            return
        embed = table.spec.render.table_embed(table.state.observation(None), table.names(), [*table.record.recent, note][-RECENT_LINES:])
        channel = self.publisher.place(table)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(table.record.message_id).edit(**self.publisher.cancelled_board(table, embed, note))
        ping = table.record.publish.pop("ping", None)
        if ping:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(ping["id"]).delete()
        await self.publisher.close_hands(table, f"{table.spec.title} #{table.id} was cancelled. {note}".strip())

    # ================================================================ hands

    async def show_hand(self, interaction: discord.Interaction, guild_id: int, table_id: int, *, in_place: bool = False, page: int = 0, version: int | None = None) -> None:
        """Show the user's private hand: a new ephemeral message (or DM), or the
        same hand message re-rendered in place (↻ and page buttons)."""
        table = await self._table_or_reply(interaction, guild_id, table_id)
        if table is None:
            return
        user = interaction.user.id
        if self.shared:
            async with table.lock:
                await self._sync(table)  # a copy another process may have moved on
        if table.status != "playing" or table.state is None:
            await _reply(interaction, "The game has not started yet.")
            return
        if user not in table.state.players:
            await _reply(interaction, "You are not playing at this table, so you have no hand here. Spectators can follow the table message.")
            return
        notice = ""
        if version is not None and version != table.record.version:
            notice = "The game moved on since that page was shown; here is your hand now."
            page = 0
        hand = await self.publisher.hand_message(table, user, notice=notice, page=page)
        if in_place:
            await interaction.response.edit_message(**hand.edit())
            self.publisher.remember_hand(table, interaction)
            return
        if interaction.guild_id is not None and await self.hands_in_dm(guild_id, user):
            publisher = self.publisher
            if not publisher.dms_closed(table, user):
                # Refresh the DM hand in place rather than send another; a first one is sent.
                refreshed = await publisher.refresh_dm_hand(table, user)
                if refreshed is not None:
                    await interaction.response.send_message(f"Your hand in your DMs is up to date: {refreshed.jump_url}", ephemeral=True)
                    return
                sent = await publisher.send_dm_hand(table, user)
                await self._save_publish(table)
                if sent is not None:
                    await interaction.response.send_message(f"Your hand is in your DMs: {sent.jump_url}", ephemeral=True)
                    return
            closed = table.record.publish.setdefault("dm_closed", {})
            if not closed.get(str(user)):
                # Said once per game; from then on hands are shown here without comment.
                notice = "I could not DM you (your DMs seem closed to this server's members), so your hands are shown here instead."
                hand = await self.publisher.hand_message(table, user, notice=notice, page=page)
                closed[str(user)] = True
                await self._save_publish(table)
        await interaction.response.send_message(**hand.send(), ephemeral=True)
        self.publisher.remember_hand(table, interaction)

    async def _save_publish(self, table: Table) -> None:
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), publish=table.record.publish)

    def _hand_payload(self, table: Table, user: int, *, notice: str = "", page: int = 0) -> tuple[str, discord.Embed, discord.ui.View]:
        state = table.state
        assert state is not None
        observation = state.observation(user)
        current = state.current_players()
        # Not only current players: Enid's Challenge and vote buttons belong to players
        # whose turn it is not (other games list nothing for a non-current player).
        legal = state.legal_actions(user) if not state.is_over() else []
        controls = table.spec.render.controls(observation, legal)
        embed = table.spec.render.hand_embed(observation, table.names())
        embed.set_footer(text=f"{table.spec.title} #{table.id} · move {table.record.version}")
        view = views.hand_view(table.guild_id, table.id, table.record.version, controls, page)
        if state.is_over():
            status = "The game is over."
        elif user in current:
            status = "**Your move.**" + (f" Timer: <t:{int(table.record.deadline)}:R>." if table.record.deadline else "")
        elif legal:
            status = "**You may act now** (the buttons below)."
        else:
            waiting = ", ".join(computer.name(p) for p in sorted(current))
            status = f"Waiting for {waiting}." if waiting else "No turn until a ritual is done (see below)."
        content = f"{notice}\n{status}" if notice else status
        return content, embed, view

    # ================================================================ moves

    async def act(self, interaction: discord.Interaction, guild_id: int, table_id: int, version: int, code: str) -> None:
        """A move from a hand message (ephemeral or DM)."""
        deadline = guard.Deadline.start(interaction)  # deferred if still running near 3 s
        try:
            await self._act(interaction, guild_id, table_id, version, code)
        finally:
            deadline.stop()

    async def lock_or_busy(self, interaction: discord.Interaction, table: Table) -> bool:
        """Take the table's lock for a click (the caller releases it), or answer that the
        table is busy: a click must be answered within Discord's 3 s."""
        try:
            await asyncio.wait_for(table.lock.acquire(), MAX_WAIT_FOR_LOCK)
        except TimeoutError:
            await _reply(interaction, "The table is busy with another move; try again in a moment.")
            return False
        return True

    async def _act(self, interaction: discord.Interaction, guild_id: int, table_id: int, version: int, code: str) -> None:
        table = await self._table_or_reply(interaction, guild_id, table_id)
        if table is None:
            return
        user = interaction.user.id
        if not await self.lock_or_busy(interaction, table):
            return
        try:
            await self._sync(table)
            if table.status != "playing" or table.state is None:
                await _reply(interaction, "This game is not in play any more.")
                return
            if user not in table.state.players:
                await _reply(interaction, "You are not playing at this table.")
                return
            try:
                action = table.spec.game.parse_action(code)
            except RuleError as error:
                await _reply(interaction, str(error))
                return
            if version != table.record.version and self._is_stale(table, user, version, action):
                await self._show_stale(interaction, table, user)
                return
            try:
                outcome = await self._apply(table, user, action, source="player", synced=True)
            except _Stale:
                # Another process committed a move first: this one never happened.
                if table.status != "playing" or table.state is None:
                    await _reply(interaction, "This game is not in play any more.")
                else:
                    await self._show_stale(interaction, table, user)
                return
            except RuleError as error:
                await _reply(interaction, str(error))
                return
            except _SaveFailed:
                await _reply(interaction, "I could not save that move, so nothing changed. Please try again.")
                return
            hand = await self.publisher.hand_message(table, user)
            await guard.edit_in_place(interaction, **hand.edit())
            self.publisher.remember_hand(table, interaction)  # a click brings a fresh token
            await self._after_move(table, outcome, actor=user)
        finally:
            table.lock.release()

    async def _show_stale(self, interaction: discord.Interaction, table: Table, user: int) -> None:
        hand = await self.publisher.hand_message(table, user, notice=STALE_CLICK)
        await guard.edit_in_place(interaction, **hand.edit())

    @staticmethod
    def _is_stale(table: Table, user: int, version: int, action: Action) -> bool:
        """A click from a hand shown at an older ``version``. Other players' moves in
        a simultaneous phase must not spoil it, so it still counts when this player
        has not moved since it was shown and the move is still legal; a double click
        (the player's own move came in between) never counts twice."""
        assert table.state is not None
        if table.last_moved.get(user, -1) > version:
            return True
        try:
            table.state.validate(user, action)  # not only listed moves: a typed amount in range counts too
        except RuleError:
            return True
        return False

    async def play_as(self, table: Table, user: int, action: Action, *, source: str) -> _Outcome:
        """A move without an interaction (typed chat, tests). Caller holds no lock."""
        async with table.lock:
            outcome = await self._apply(table, user, action, source=source)
            await self._after_move(table, outcome)
            return outcome

    async def _apply(self, table: Table, user: int, action: Action, *, source: str, synced: bool = False) -> _Outcome:
        """Apply and commit one action (caller holds the lock). Raises RuleError
        (nothing changed), _Stale (another process moved first: the table was
        reloaded) or _SaveFailed (state rolled back)."""
        if not synced and await self._sync(table):
            raise _Stale()  # decided on an older copy: the caller re-decides or says so
        assert table.state is not None
        checkpoint = _Checkpoint.of(table)
        events = table.state.apply(user, action)  # raises RuleError with the state untouched
        return await self._commit(table, [(user, action)], events, checkpoint, source)

    async def _commit(
        self, table: Table, moves: Sequence[tuple[int, Action]], events: list[Event], checkpoint: _Checkpoint, source: str,
    ) -> _Outcome:
        state = table.state
        assert state is not None
        record = table.record
        now = now_ts()
        current = state.current_players() if not state.is_over() else frozenset()
        # Newly current: players who must act now and did not before, and anyone a
        # ``turn`` event names (a burn's "play again", a first player who was busy
        # swapping): both get a ping and a fresh turn timer.
        turned = {e.player for e in events if e.kind == "turn" and e.player is not None}
        newly_current = frozenset((current - checkpoint.current) | (turned & current))
        # The log carries plays: whose turn it is shows on the board and in the ping
        # (a "turn" event is kept only when it says something more, e.g. "plays again").
        logged = [e for e in events if e.kind != "turn" or (e.data or {}).get("again")]
        lines = table.spec.render.event_lines(logged, table.names())
        record.recent = [*record.recent, *lines][-RECENT_LINES:]
        if source == "player":
            for user, _ in moves:
                record.strikes.pop(user, None)
        if not current:
            record.deadline = None
        elif newly_current or record.deadline is None:
            record.deadline = now + record.timer_seconds
        for event in events:
            if event.kind == "obligation" and "id" in event.data:
                record.obligations[str(event.data["id"])] = [event.player, now + float(event.data.get("seconds", 30))]
            elif event.kind == "obligation_closed" and "id" in event.data:
                record.obligations.pop(str(event.data["id"]), None)
        over = state.is_over()
        if over:
            record.status = "finished"
            record.deadline = None
            record.obligations = {}
        start_version = record.version
        record.version += len(moves)
        record.state = state.to_json()
        try:
            async with self.storage.transaction(table.guild_id) as db:
                # The table lock across processes: only the version this move was applied to.
                if not await repos.update_table_at_version(
                    db, table.id, start_version, now=now, status=record.status, state=record.state, version=record.version,
                    deadline=record.deadline, strikes=record.strikes, recent=record.recent, obligations=record.obligations,
                ):
                    raise _Stale()
                for offset, (user, action) in enumerate(moves, start=1):
                    await repos.append_action(db, table.id, start_version + offset, user, action.code(), source, now)
                if over:
                    await repos.record_results(db, table.id, table.spec.key, state.placements(), now)
                    await repos.set_carryover(db, record.channel_id, table.spec.key, state.carry_out(), now)
        except _Stale:
            log.info("Table %s in guild %s moved on in another process; reloading it", table.id, table.guild_id)
            table.state = table.spec.game.from_json(checkpoint.state_json)
            table.record = checkpoint.record
            await self._reload(table)
            raise
        except Exception as error:
            log.exception("Could not save a move at table %s in guild %s", table.id, table.guild_id)
            table.state = table.spec.game.from_json(checkpoint.state_json)
            table.record = checkpoint.record
            raise _SaveFailed() from error
        for user, _ in moves:
            table.last_moved[user] = record.version
        if over:
            self._untrack(table)
        return _Outcome(events, newly_current, over)

    async def _after_move(self, table: Table, outcome: _Outcome, *, actor: int | None = None) -> None:
        await self._publish(table, ping=outcome.newly_current, final=outcome.over, events=outcome.events, actor=actor)
        if not outcome.over:
            self._arm_timers(table)
        await self._tell_others(table)  # after publishing: the owner reloads the new message ids too

    async def leave_game(self, interaction: discord.Interaction, table: Table, target: int | None = None) -> None:
        """A player leaves a running game, or is removed by the host / a manager."""
        user = target if target is not None else interaction.user.id
        async with table.lock:
            if table.state is None or table.status != "playing" or user not in table.state.players or user not in _seated(table.state):
                await _reply(interaction, "That player is not in this game." if target else "You are not in this game.")
                return
            try:
                outcome = await self._remove(table, user, source="removal")
            except _SaveFailed:
                await _reply(interaction, "The game moved on just then, so nothing changed. Please try again.")
                return
            closed = await self._close_if_only_computers(table, outcome)
        who = "You left" if target is None else f"<@{user}> was removed from"
        await _reply(interaction, f"{who} the {table.spec.title} game.", ephemeral=target is None)
        await self._after_leaving(table, outcome, closed)

    async def _close_if_only_computers(self, table: Table, outcome: _Outcome) -> bool:
        """After a seat emptied (caller holds the lock): computers do not finish a game
        among themselves, so a game with no person left playing is closed (cancelled,
        no results). True if it was."""
        if outcome.over or table.state is None or not computer.only_computers_left(table.state):
            return False
        await self._close(table, "cancelled")
        return True

    async def _after_leaving(self, table: Table, outcome: _Outcome, closed: bool) -> None:
        if not closed:
            await self._after_move(table, outcome)
            return
        note = "Nobody but computer players was left, so the game was closed."
        await self._edit_table_closed(table, note)
        await self._edit_lobby_message(table, self._lobby_embed(table, note), None)

    async def _remove(self, table: Table, user: int, *, source: str) -> _Outcome:
        if await self._sync(table):
            raise _Stale()
        assert table.state is not None
        checkpoint = _Checkpoint.of(table)
        # Taken out, or replaced by a computer under the house rule (bot/computer.py).
        events, action = computer.leave_seat(table, user)
        table.record.recent = [*table.record.recent, *computer.seat_lines(events)]  # committed with the move
        return await self._commit(table, [(user, action)], events, checkpoint, source)

    # ================================================================ publishing

    async def _publish(self, table: Table, *, ping: Iterable[int] = (), final: bool = False, events: Sequence[Event] = (), actor: int | None = None) -> None:
        """Show the table (bot/publish.py): the board edited in place, the ping, the
        newly current players' hands; at the end, the result on the parent message."""
        if table.state is None:
            return
        await self.publisher.publish(table, ping=ping, final=final, events=events, actor=actor)
        if final:
            await self._edit_lobby_message(table, self._lobby_embed(table), None)

    def _schedule_publish_retry(self, table: Table, attempt: int = 1) -> None:
        if table.publish_retry and not table.publish_retry.done():
            return

        async def retry() -> None:
            for n in range(attempt, PUBLISH_RETRIES + 1):
                await asyncio.sleep(PUBLISH_RETRY_SECONDS * n)
                async with table.lock:
                    if table.status != "playing" or not table.needs_publish:
                        return
                    await self._publish(table, ping=table.record.turn_players)
                    if not table.needs_publish:
                        return

        table.publish_retry = asyncio.create_task(retry(), name=f"deckhand-publish-{table.guild_id}-{table.id}")

    # ================================================================ timers

    def _cancel_timers(self, table: Table, *, publish_retry: bool = True) -> None:
        current = asyncio.current_task()
        tasks = [table.timer, table.computer, *table.obligation_timers.values()]
        if publish_retry:
            tasks.append(table.publish_retry)
        for task in tasks:
            if task is not None and task is not current and not task.done():
                task.cancel()
        table.timer = None
        table.obligation_timers = {}

    def _arm_timers(self, table: Table) -> None:
        """(Re-)arm the turn timer and obligation timers from the stored deadlines."""
        if self._closing:
            return
        self._cancel_timers(table, publish_retry=False)
        record = table.record
        if record.status != "playing" or not self.owns(table.guild_id):
            return  # timers belong to the process that holds the guild's shard
        if record.deadline is not None:
            table.timer = asyncio.create_task(self._turn_timer(table, record.version, record.deadline), name=f"deckhand-timer-{table.guild_id}-{table.id}")
        for obligation_id, (player, deadline) in record.obligations.items():
            table.obligation_timers[obligation_id] = asyncio.create_task(
                self._obligation_timer(table, obligation_id, int(player), float(deadline)), name=f"deckhand-obligation-{table.id}-{obligation_id}"
            )
        computer.schedule(self, table)

    async def _turn_timer(self, table: Table, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - now_ts()))
        async with table.lock:
            if await self._sync(table):
                return  # moved in another process; the reload re-armed the timers
            if table.status != "playing" or table.record.version != version or table.state is None:
                return  # someone moved meanwhile; their move re-armed the timer
            outcome = await self._expire_turn(table)
            if outcome is None:
                self._arm_timers(table)  # a failed save set a short retry deadline
                return
            closed = await self._close_if_only_computers(table, outcome)
        await self._after_leaving(table, outcome, closed)

    async def _expire_turn(self, table: Table) -> _Outcome | None:
        """Apply the game's default action for everyone who let the timer run out;
        remove players after too many expiries in a row. Caller holds the lock."""
        state = table.state
        assert state is not None
        checkpoint = _Checkpoint.of(table)
        moves: list[tuple[int, Action]] = []
        events: list[Event] = []
        removals: list[int] = []
        for player in sorted(checkpoint.current):
            if state.is_over() or player not in state.current_players():
                continue
            strikes = table.record.strikes.get(player, 0) + 1
            table.record.strikes[player] = strikes
            if strikes >= IDLE_STRIKES_TO_REMOVE:
                removals.append(player)
                continue
            action = state.timeout_action(player)
            try:
                events.extend(state.apply(player, action))
            except RuleError:
                log.exception("Timeout action %s refused at table %s; removing the player instead", action, table.id)
                removals.append(player)
                continue
            moves.append((player, action))
            events.append(Event("timed_out", player, {"action": action.code()}))
        for player in removals:
            if state.is_over():
                break
            table.record.strikes.pop(player, None)
            events.append(Event("idle_removed", player, {"strikes": IDLE_STRIKES_TO_REMOVE}))
            gone, action = computer.leave_seat(table, player)  # removed, or replaced by a computer
            events.extend(gone)
            moves.append((player, action))
        if not moves:
            return None
        # Follow-up turns by the same player still deserve a fresh timer.
        try:
            outcome = await self._commit(table, moves, events, checkpoint, "timer")
        except _Stale:
            return None  # another process moved first; the reload re-armed the timers
        except _SaveFailed:
            # Try again shortly rather than leave the table stuck.
            table.record.deadline = now_ts() + PUBLISH_RETRY_SECONDS
            return None
        lines = [f"⏰ {computer.name(e.player)} ran out of time." for e in events if e.kind == "timed_out"]
        lines += [f"👋 {computer.name(e.player)} was removed after {IDLE_STRIKES_TO_REMOVE} timeouts in a row." for e in events if e.kind == "idle_removed"]
        lines += computer.seat_lines(events)
        if lines:
            table.record.recent = [*table.record.recent, *lines][-RECENT_LINES:]
        if not outcome.over and table.state is not None and table.state.current_players() and not outcome.newly_current:
            # Same players still to act after a timeout (e.g. a forced draw): give them a new turn timer.
            table.record.deadline = now_ts() + table.record.timer_seconds
            async with self.storage.transaction(table.guild_id) as db:
                await repos.update_table(db, table.id, now=now_ts(), deadline=table.record.deadline, recent=table.record.recent)
        return outcome

    async def _obligation_timer(self, table: Table, obligation_id: str, player: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - now_ts()))
        async with table.lock:
            if table.status != "playing" or table.state is None or obligation_id not in table.record.obligations:
                return
            action = Action("timeout", arg=obligation_id)
            try:
                outcome = await self._apply(table, player, action, source="timer")
            except _Stale:
                return  # reloaded from another process's move, timers re-armed
            except (RuleError, _SaveFailed):
                table.record.obligations.pop(obligation_id, None)  # fulfilled or moot meanwhile
                return
        await self._after_move(table, outcome)

    # ================================================================ rematch

    async def rematch(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> None:
        """Rematch on a finished board: a lobby right here (the game's thread, or the
        channel), with the same players seated and the same options; Start plays it here."""
        async with self.storage.reading(guild_id) as db:
            record = await repos.get_table(db, table_id)
        if record is None or record.status != "finished":
            await _reply(interaction, "Only a finished game offers a rematch.")
            return
        spec = self.games.get(record.game)
        if spec is None:
            await _reply(interaction, f"This server no longer runs {record.game}.")
            return
        if interaction.user.id not in record.players:
            await _reply(interaction, f"Only the players of that game can call a rematch; open a new table with `/{spec.key} new`.")
            return
        options = record.publish.get("lobby_options") or {k: v for k, v in record.options.items() if k != "carry"}
        await self.open_lobby(interaction, spec, dict(options), players=record.players, seat_choices=record.seat_choices, house_rules=False)

    # ================================================================ chat

    async def on_chat(self, message: discord.Message) -> bool:
        """Typed chat at a table whose game listens for it (Enid's rituals)."""
        if message.guild is None or message.author.bot:
            return False
        table = self.active_in_channel(message.guild.id, message.channel.id)
        if table is None:
            return False
        self.publisher.note_chat(table)
        text = message.content
        to = replied_to(message)
        if to is not None and to != message.author.id and not text.startswith(f"<@{to}>"):
            # A Discord reply addresses its author, as a mention would: the rules hear
            # (and the log shows) the words as said to them.
            text = f"↪ <@{to}> {text}"
        # Most chat is just chat: the rules refuse it and nothing happens.
        return await self.say(table, message.author.id, text) is None

    async def say(self, table: Table, user: int, text: str) -> str | None:
        """Typed words as a move (chat, or /say where Message Content is off).
        Returns None when the words counted, else why not."""
        if not table.spec.accepts_chat:
            return f"{table.spec.title} has nothing to say out loud."
        if table.state is None or table.status != "playing":
            return "The game is not in play."
        if user not in table.state.players:
            return "You are not playing at this table."
        try:
            text = computer.addressed(text[:1900], table.state.players)  # "@Deckhand 2" addresses a computer seat
            await self.play_as(table, user, Action("say", arg=text), source="player")
        except RuleError as error:
            return str(error)
        except _SaveFailed:
            return "I could not save that, so nothing changed. Please try again."
        return None

    # ================================================================ restore

    async def restore_all(self) -> int:
        """Bring back every unfinished table after a start: state, timers, and (via
        the dynamic custom_ids) its buttons. Returns how many were restored.

        Only guilds the storage index lists are read. Each row is restored on its
        own: a row that cannot be read is closed with a message and frees its
        channel; it never stops the other tables of its server."""
        restored = 0
        for guild_id in await self.storage.active_guilds():
            if not self.owns(guild_id):
                continue  # another process's shard: it restores its own
            try:
                async with self.storage.reading(guild_id) as db:
                    rows = await repos.active_rows(db)
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
                if (guild_id, record.id) in self._tables:
                    continue
                try:
                    if await self._restore(guild_id, record):
                        restored += 1
                except Exception:
                    log.exception("Restoring table %s in guild %s failed", record.id, guild_id)
                    self._forget(guild_id, record)
                    await self._mark_broken(guild_id, record, "Something in its saved data could not be used.")
        return restored

    def _forget(self, guild_id: int, record: TableRecord) -> None:
        table = self._tables.get((guild_id, record.id))
        if table is not None:
            self._untrack(table)

    async def _close_bad_row(self, guild_id: int, row: Any, why: str) -> None:
        """Close a row that does not decode, by its id alone, and say so in its channel
        if the row still names one."""
        table_id = row["id"]
        log.error("Table %s in guild %s has a damaged row (%s); closing it", table_id, guild_id, why)
        await self._set_broken(guild_id, table_id)
        channel_id = row["channel_id"]
        if isinstance(channel_id, int) and not isinstance(channel_id, bool) and 0 < channel_id < 1 << 63:
            if self._by_channel.get((guild_id, channel_id)) is not None:
                return  # the channel has a good table: do not confuse its players
            await self._announce_closed(guild_id, channel_id, "A table in this channel could not be restored after a restart, because its saved data was damaged, and has been closed.")

    async def _set_broken(self, guild_id: int, table_id: int) -> None:
        try:
            async with self.storage.transaction(guild_id) as db:
                await repos.update_table(db, table_id, now=now_ts(), status="broken", deadline=None)
        except Exception:
            log.exception("Could not mark table %s in guild %s as broken", table_id, guild_id)

    async def _announce_closed(self, guild_id: int, channel_id: int, text: str) -> None:
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(guard.fit(f"⚠️ {text} Sorry! You can open a new table."), allowed_mentions=discord.AllowedMentions.none())

    async def _restore(self, guild_id: int, record: TableRecord, *, announce: bool = True) -> bool:
        spec = self.games.get(record.game)
        if spec is None and not announce:
            return False
        if spec is None:
            log.warning("Table %s in guild %s is for an unknown game %r; leaving it closed", record.id, guild_id, guard.clip(record.game, 60))
            await self._mark_broken(guild_id, record, f"This server no longer runs {guard.clip(record.game, 40)}.")
            return False
        if self._by_channel.get((guild_id, record.channel_id)) not in (None, record.id):
            if not announce:
                return False
            await self._mark_broken(guild_id, record, "Its channel already has a table.")
            return False
        table = Table(guild_id, record, spec)
        if record.status == "playing":
            state = await self._load_state(guild_id, record, spec)
            if state is None:
                if announce:
                    await self._mark_broken(guild_id, record, "Its saved state was damaged and could not be replayed.")
                return False
            table.state = state
        self._track(table)
        if record.status == "playing" and self.owns(guild_id):
            self._arm_timers(table)
            if record.message_id is None:
                table.needs_publish = True
                self._schedule_publish_retry(table)
        return True

    async def _load_state(self, guild_id: int, record: TableRecord, spec: GameSpec) -> Game | None:
        """The snapshot; failing that (or when its version disagrees with the action
        log, which would refuse every next move), a replay of seed + options + log.

        With other processes (``shared``) the log is not compared: they may commit
        between the two reads, and the row's snapshot and version are written in one
        statement anyway, so they always agree with each other."""
        if record.state:
            logged = record.version
            if not self.shared:
                async with self.storage.reading(guild_id) as db:
                    logged = await repos.last_action_seq(db, record.id)
            if logged == record.version:
                try:
                    return spec.game.from_json(record.state)
                except Exception:
                    log.exception("Snapshot of table %s in guild %s is unreadable; replaying its log", record.id, guild_id)
            else:
                log.error("Table %s in guild %s says version %s but logged %s actions; replaying its log", record.id, guild_id, record.version, logged)
        if record.seed is None:
            return None
        try:
            async with self.storage.reading(guild_id) as db:
                log_rows = await repos.actions_for(db, record.id)
            state = spec.game.new(record.players, record.options, seed=record.seed)
            for user, code, _source in log_rows:
                action = spec.game.parse_action(code)
                if action.kind == "leave":
                    state.remove_player(user)
                elif action.kind == "replace":
                    state.replace_player(user, int(action.arg))
                else:
                    state.apply(user, action)
            if state.is_over():
                return None  # a finished game left as "playing": nothing to resume
            read_version = record.version
            record.state = state.to_json()
            record.version = len(log_rows)
            async with self.storage.transaction(guild_id) as db:
                # Guarded: never write an old replay over a move another process just committed.
                if not await repos.update_table_at_version(db, record.id, read_version, now=now_ts(), state=record.state, version=record.version):
                    log.warning("Table %s in guild %s moved on while its log was replayed; not loaded", record.id, guild_id)
                    return None
            return state
        except Exception:
            log.exception("Replay of table %s in guild %s failed", record.id, guild_id)
            return None

    async def _mark_broken(self, guild_id: int, record: TableRecord, why: str) -> None:
        await self._set_broken(guild_id, record.id)
        await self._announce_closed(
            guild_id, record.channel_id,
            f"The {guard.clip(record.game, 40)} table #{record.id} could not be restored after a restart and has been closed. {why}",
        )

    async def close(self) -> None:
        self._closing = True
        for table in list(self._tables.values()):
            self._cancel_timers(table)
        await self.bus.close()


@dataclass(frozen=True)
class _Checkpoint:
    """What a move restores if its commit fails."""

    current: frozenset[int]
    state_json: str
    record: TableRecord

    @classmethod
    def of(cls, table: Table) -> _Checkpoint:
        assert table.state is not None
        return cls(table.state.current_players(), table.record.state or table.state.to_json(), copy.deepcopy(table.record))


@dataclass
class _Outcome:
    events: list[Event]
    newly_current: frozenset[int]
    over: bool


class _SaveFailed(Exception):
    pass


class _Stale(_SaveFailed):
    """Another process changed the table first; this process's copy was reloaded."""


def _seated(state: Game) -> set[int]:
    """Players still taking part (a rules engine may keep removed ids for history)."""
    seated = getattr(state, "active_players", None)
    return set(seated() if callable(seated) else state.players)


def _is_component_on(interaction: discord.Interaction, message_id: int | None) -> bool:
    return (
        interaction.type == discord.InteractionType.component
        and interaction.message is not None
        and message_id is not None
        and interaction.message.id == message_id
    )


async def _reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer once: a new message if the interaction is unanswered, else a follow-up;
    clipped to Discord's limit (refusals may echo what a user typed)."""
    await guard.answer(interaction, text, ephemeral=ephemeral)


RESTORE_WAIT_SECONDS = 2.0


async def until_restored(bot: Any) -> None:
    """Wait (bounded) for the start-up restore, which runs while the bot connects."""
    task = getattr(bot, "restore_task", None)
    if task is not None and not task.done():
        await asyncio.wait({task}, timeout=RESTORE_WAIT_SECONDS)
