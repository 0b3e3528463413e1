"""Lobbies: open one, join and leave it, seat computer players, Start (and the
game's thread), Cancel, Rematch; and the lobby message that shows it all."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.words import i18n
from bot.discord_front import guard, views
from bot.core import computer
from bot.core.games import GameRegistry, GameSpec
from bot.core.lobby import Lobby
from bot.core.registry import TableRegistry
from bot.core.lobby import table_size as _table_size
from bot.core.settings import GuildSettings
from bot.core.table import RECENT_LINES, Table, TableError
from bot.words.i18n import _, ngettext
from bot.discord_front.publish import Publisher, keep_name
from bot.discord_front import edits
from bot.discord_front.common import _reply, now_ts
from storage import repos
from storage.db import Storage

if TYPE_CHECKING:
    from bot.discord_front.tables.finder import Finder
    from bot.discord_front.tables.moves import Clicks
    from bot.discord_front.tables.timers import TableTimers

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module

#: Thread renames under way (a task must be held until it ends).
_RENAMING: set[asyncio.Task[Any]] = set()
#: A rename waits no longer than this: Discord allows a channel two renames in ten minutes,
#: and discord.py waits out a 429 in full; a name that comes late is better not sent.
RENAME_WAIT_SECONDS = 10.0
#: A thread creation that meets a server error (5xx, once discord.py's own tries, about
#: 25 s, are spent) is tried again after each of these waits before the game stays in
#: the channel.
THREAD_RETRY_SECONDS = (5.0, 30.0)
#: Discord's "A thread has already been created for this message".
THREAD_ALREADY_CREATED = 160004


def thread_name(table: Table) -> str:
    """A game thread's name: the table it holds, as the board's footer names it."""
    return f"{table.spec.title} #{table.id}"


class LobbyMessages:
    """The lobby message (the table's parent message: its players, options, state and
    result) and, when a game closes early, its board's last edit. Handed the bot (its
    channels) and the publisher (the result line, the board's place, the messages'
    edits one at a time, the open hands)."""

    def __init__(self, bot: Any, publisher: Publisher) -> None:
        self.bot, self.publisher = bot, publisher

    @i18n.for_everyone
    async def closed(self, table: Table, why: str) -> None:
        """Closed without a request (nobody but computers left): the board and the lobby
        message say why, in the server's language (``why`` is the English sentence)."""
        why = _(why)
        await self.show_table_closed(table, why)
        await self.edit(table, self.embed(table, why), None)

    @i18n.for_everyone
    async def finished(self, table: Table) -> None:
        """The game ended: the lobby message shows the result (``Publisher``'s ``finished``)."""
        await self.edit(table, self.embed(table), None)

    @i18n.for_everyone
    def embed(self, table: Table, note: str = "") -> discord.Embed:
        spec, record = table.spec, table.record
        low, high = _table_size(table)
        size = _("{n} players", n=low) if low == high else _("{low} to {high} players", low=low, high=high)
        embed = discord.Embed(title=f"{spec.title} #{table.id}", colour=discord.Colour.blurple())
        if record.status == "lobby":
            embed.description = _(
                "Hosted by {host}. {size}. "
                "Press **Join**, then the host presses **Start**.\nTurn timer: {seconds} s.", host=f"<@{record.host_id}>", size=size, seconds=record.timer_seconds
            )
        elif record.status == "cancelled":
            embed.description = _("This game was cancelled.") if record.version or record.state else _("This lobby was cancelled.")
            embed.colour = discord.Colour.dark_grey()
        elif record.status == "finished" and table.state is not None:
            embed.description = self.publisher.final_line(table)
            embed.colour = discord.Colour.gold()
        elif record.thread_id is not None and record.publish.get("lobby_channel") != record.thread_id:
            embed.description = _("▶️ In play in {thread}: the board, your turns and your hand are there.", thread=f"<#{record.thread_id}>")
            embed.colour = discord.Colour.green()
        else:
            embed.description = _("▶️ In play: the board is below.")
            embed.colour = discord.Colour.green()
        seats = []
        for player in record.players:
            choice = record.seat_choices.get(player)
            if table.state is not None and record.status != "lobby":
                choice = table.state.seat_choice(player) or choice  # the seat the game gave them
            label = dict(spec.seat_choices).get(choice, "") if choice else ""
            seats.append(computer.name(player) + (f" — {label}" if label else "") + (" " + _("(host)") if player == record.host_id else ""))
        embed.add_field(name=_("Players ({n})", n=len(record.players)), value="\n".join(seats) or _("nobody yet"), inline=False)
        rules = _option_lines(table)
        if rules:
            embed.add_field(name=_("Game options"), value="\n".join(rules)[:1024], inline=False)
        note = note or record.publish.get("note", "")
        if note:
            embed.set_footer(text=note[:2048])
        return embed

    @i18n.for_everyone
    async def refresh(self, interaction: discord.Interaction, table: Table, note: str = "") -> None:
        embed = self.embed(table, note)
        view = views.lobby_view(table.guild_id, table.id, table.spec.seat_choices, computers=computer.has_ai(table.spec.key)) if table.status == "lobby" else None
        if _is_component_on(interaction, table.record.lobby_message_id):
            await guard.edit_in_place(interaction, embed=embed, view=view)
            return
        # A slash command: answer it, and bring the lobby message up to date.
        await _reply(interaction, note or "Done.", ephemeral=True)
        await self.edit(table, embed, view)

    async def edit(self, table: Table, embed: discord.Embed, view: discord.ui.View | None) -> None:
        if table.record.lobby_message_id is None:
            return
        where = table.record.publish.get("lobby_channel", table.record.channel_id)
        message = self.bot.get_partial_messageable(where, guild_id=table.guild_id).get_partial_message(table.record.lobby_message_id)

        async def edit() -> None:
            with contextlib.suppress(discord.HTTPException):
                await edits.edit_message(message, embed=embed, view=view)

        # One edit in flight and one waiting, the newest (bot/discord_front/latest.py).
        await self.publisher.latest.edit(("lobby", message.id), edit)

    @i18n.for_everyone
    async def show_table_closed(self, table: Table, note: str) -> None:
        async with table.showing:  # after any round of the show task under way (it then stops)
            await self._board_closed(table, note)

    @i18n.for_everyone
    async def _board_closed(self, table: Table, note: str) -> None:
        if table.record.message_id is None or table.state is None:
            return
        embed = table.spec.render.table_embed(table.state.observation(None), table.names(), [*table.record.recent, note][-RECENT_LINES:])
        channel = self.publisher.place(table)
        with contextlib.suppress(discord.HTTPException):
            await edits.edit_message(channel.get_partial_message(table.record.message_id), **self.publisher.cancelled_board(table, embed, note))
        ping = table.record.publish.pop("ping", None)
        if ping:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(ping["id"]).delete()
        await self.publisher.close_hands(table, _("{title} #{id} was cancelled. {note}", title=table.spec.title, id=table.id, note=note).strip())


class Lobbies:
    """Lobbies: open, join, leave, computer seats, Start (and the game's thread),
    Cancel, Rematch. Handed the bot (threads), the storage, the games, the core's registry,
    lobby and server settings, the finder (lookups, shares), the clicks
    (:class:`bot.discord_front.tables.moves.Clicks`: the table's lock for a click, a
    leave during play), the lobby messages, the publisher (the first board) and the
    timers."""

    def __init__(
        self, *, bot: Any, storage: Storage, games: GameRegistry, registry: TableRegistry, lobby: Lobby, settings: GuildSettings,
        finder: Finder, clicks: Clicks, messages: LobbyMessages, publisher: Publisher, timers: TableTimers,
    ) -> None:
        self.bot, self.storage, self.games, self.registry, self.lobby, self.settings = bot, storage, games, registry, lobby, settings
        self.finder, self.clicks, self.messages, self.publisher, self.timers = finder, clicks, messages, publisher, timers

    async def open_lobby(
        self, interaction: discord.Interaction, spec: GameSpec, options: dict[str, Any] | None = None, *,
        players: Sequence[int] = (), seat_choices: dict[int, str] | None = None, house_rules: bool = True, note: str = "",
        names: dict[str, str] | None = None,
    ) -> None:
        """Open a lobby where the command was typed. In a thread (a Rematch, or a
        command typed in one) the game is then played in that thread; in a channel,
        Start opens a thread for it. ``players`` seats people at once (a Rematch)."""
        guild_id, channel_id, host = interaction.guild_id, interaction.channel_id, interaction.user.id
        if guild_id is None or channel_id is None:
            await _reply(interaction, _("Tables are played in a server channel, not in DMs."))
            return
        existing = self.finder.active_in_channel(guild_id, channel_id)
        if existing is not None:
            # One lobby per channel, one game per thread: two at one place would share its buttons and commands.
            what = "thread" if isinstance(interaction.channel, discord.Thread) else "channel"
            why = (_("Two lobbies here would share Join, Start and `/join`") if existing.status == "lobby"
                   else _("Its game is played right here, so a second one would share its pings and commands"))
            await _reply(interaction, _("This thread already has {table}. {why}: finish it or `/cancel` it first, or open a lobby in another thread.", table=existing.describe(), why=why) if what == "thread"
                         else _("This channel already has {table}. {why}: finish it or `/cancel` it first, or open a lobby in another channel.", table=existing.describe(), why=why))
            return
        if await self.finder.over_share(interaction):  # the lobby message and its edits to come
            return
        in_thread = interaction.channel if isinstance(interaction.channel, discord.Thread) else None
        parent_id = in_thread.parent_id if in_thread is not None and in_thread.parent_id else channel_id
        publish: dict[str, Any] = {"lobby_channel": channel_id}
        if note:
            publish["note"] = note  # the game's word for the lobby (its footer)
        # Display names go with the table (a Rematch brings the last table's): after a
        # restart its pictures still name players who have not clicked since.
        seated = {host, *players}
        publish["names"] = {k: v for k, v in (names or {}).items() if int(k) in seated}
        keep_name(publish, host, interaction.user.display_name)
        try:
            table = await self.lobby.open(
                guild_id, parent_id, spec, host, options, thread_id=channel_id if in_thread is not None else None,
                players=players, seat_choices=seat_choices, house_rules=house_rules, publish=publish,
            )
        except TableError as error:
            await _reply(interaction, str(error))
            return
        record = table.record
        callback = await interaction.response.send_message(embed=self.messages.embed(table), view=views.lobby_view(guild_id, table.id, spec.seat_choices, computers=computer.has_ai(spec.key)))
        message = callback.resource  # the new message comes back with the callback: no extra fetch
        if isinstance(message, discord.InteractionMessage):
            record.lobby_message_id = message.id
            async with self.storage.transaction(guild_id) as db:
                await repos.update_table(db, table.id, now=now_ts(), lobby_message_id=message.id)

    async def lobby_click(self, interaction: discord.Interaction, guild_id: int, table_id: int, verb: str, choice: str | None = None) -> None:
        """A lobby button. Answers by editing the lobby message in place."""
        table = await self.finder.table_or_reply(interaction, guild_id, table_id)
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
        """The host seats a computer player (bot/core/computer.py) in the lobby."""
        async with self._lobby_turn(interaction, table) as taken:
            if not taken:
                return
            try:
                seat = await self.lobby.seat_computer(table, interaction.user.id, level)
            except TableError as error:
                await _reply(interaction, str(error))
                return
        await self.messages.refresh(interaction, table, _("{player} joined.", player=computer.name(seat)))

    async def remove_computer(self, interaction: discord.Interaction, table: Table) -> None:
        """The host takes the last-seated computer player out of the lobby."""
        async with self._lobby_turn(interaction, table) as taken:
            if not taken:
                return
            try:
                seat = await self.lobby.unseat_computer(table, interaction.user.id)
            except TableError as error:
                await _reply(interaction, str(error))
                return
        await self.messages.refresh(interaction, table, _("{player} left.", player=computer.name(seat)))

    async def join(self, interaction: discord.Interaction, table: Table, choice: str | None = None) -> None:
        user = interaction.user.id
        if table.status != "lobby":
            # Refused at once: no wait for the table (a Start may hold it while Discord
            # opens the game's thread).
            await _reply(interaction, _("This game has already started; you can join the next one."))
            return
        if await self._typed_over_share(interaction, table):
            return
        async with self._lobby_turn(interaction, table) as taken:
            if not taken:
                return
            publish = dict(table.record.publish)
            keep_name(publish, user, interaction.user.display_name)
            try:
                await self.lobby.seat(table, user, choice, publish=publish)
            except TableError as error:
                await _reply(interaction, str(error))
                return
        await self.messages.refresh(interaction, table)

    async def leave(self, interaction: discord.Interaction, table: Table, target: int | None = None) -> None:
        """Leave a lobby or a running game (or, with ``target``, remove someone)."""
        user = target if target is not None else interaction.user.id
        if table.status == "playing":
            await self.clicks.leave_game(interaction, table, target)
            return
        if await self._typed_over_share(interaction, table):
            return
        async with self._lobby_turn(interaction, table) as taken:
            if not taken:
                return
            try:
                closed = await self.lobby.unseat(table, user, removed=target is not None)
            except TableError as error:
                await _reply(interaction, str(error))
                return
            if closed:
                note = _("Everyone left; the lobby is closed.")
            else:
                note = _("{player} was removed by {by}.", player=f"<@{user}>", by=interaction.user.mention) if target else ""
        await self.messages.refresh(interaction, table, note)

    async def remove(self, interaction: discord.Interaction, table: Table, target: int) -> None:
        """/remove: the host or a member with Manage Server takes a player out."""
        if not _can_manage(interaction, table):
            await _reply(interaction, _("Only the host, {host}, or someone with Manage Server can remove players.", host=f"<@{table.record.host_id}>"))
            return
        await self.leave(interaction, table, target)

    async def _typed_over_share(self, interaction: discord.Interaction, table: Table) -> bool:
        """A typed command edits the lobby message with the bot's token (a lobby button's
        answer edits it through the interaction, which costs no share)."""
        return not _is_component_on(interaction, table.record.lobby_message_id) and await self.finder.over_share(interaction)

    async def _save_lobby(self, table: Table, **columns: Any) -> None:
        await self.lobby.save(table, **columns)

    @contextlib.asynccontextmanager
    async def _lobby_turn(self, interaction: discord.Interaction, table: Table) -> AsyncIterator[bool]:
        """The table's lock for a lobby click or command, its wait bounded: deferred first
        when someone holds it (Start opening the thread, as slow as Discord is), so the
        interaction is answered in time whatever the holder waits for; False (answered:
        busy) if it is not free within ``MAX_WAIT_IN_QUEUE``."""
        async with guard.in_time(interaction):
            if not await self.clicks.lock_or_busy(interaction, table):
                yield False
                return
            try:
                yield True
            finally:
                table.lock.release()

    async def start(self, interaction: discord.Interaction, table: Table) -> None:
        if await self.finder.over_share(interaction, 2):  # the game's thread and its first board
            return
        async with guard.in_time(interaction):
            await self._start(interaction, table)

    async def _start(self, interaction: discord.Interaction, table: Table) -> None:
        on_lobby = _is_component_on(interaction, table.record.lobby_message_id)
        async with self._lobby_turn(interaction, table) as taken:
            if not taken:
                return
            record = table.record
            try:
                current = await self.lobby.begin(table, interaction.user.id, str(secrets.randbits(64)))
            except TableError as error:
                await _reply(interaction, str(error))
                return
            # Answered before the thread is opened (a bot-token request, as slow as Discord
            # is): the host is told within Discord's 3 s whatever that request does.
            if on_lobby:
                await guard.edit_in_place(interaction, embed=self.messages.embed(table), view=None)
            else:
                await guard.defer_now(interaction)
            answered = (record.thread_id, record.publish.get("note"))
            await self._open_thread(interaction, table)
            if await self.settings.board_layout(table.guild_id) == "v2":
                record.publish["layout"] = "v2"  # fixed for the game: a V2 message stays V2
            if not await self.settings.pictures_on(table.guild_id):
                record.publish["pictures"] = "off"
            await self._save_lobby(table, publish=record.publish)
        if on_lobby:
            if (record.thread_id, record.publish.get("note")) != answered:
                # Where the game is played, through the click's token (no bot-token request).
                with contextlib.suppress(discord.HTTPException):
                    await edits.edit_original(interaction, embed=self.messages.embed(table), view=None)
        else:
            where = f"<#{record.thread_id}>" if record.thread_id and record.thread_id != interaction.channel_id else ""
            await _reply(interaction, _("Started in {thread}.", thread=where) if where else _("Started."), ephemeral=True)
            await self.messages.edit(table, self.messages.embed(table), None)
        self._rename_thread(interaction, table)
        await self.publisher.show(table, ping=current)
        self.timers.arm(table)

    def _rename_thread(self, interaction: discord.Interaction, table: Table) -> None:
        """A game started in a thread the bot opened for an earlier table (Next round,
        Rematch): the thread takes this table's name, so it says what the board says
        ("Cripple Mr Onion #2", not #1). Best effort, in the background; a thread a
        person named is left alone."""
        thread = interaction.channel
        name = thread_name(table)
        if (not isinstance(thread, discord.Thread) or thread.id != table.record.thread_id or thread.name == name
                or not thread.name.startswith(f"{table.spec.title} #")):
            return

        async def rename() -> None:
            try:
                await asyncio.wait_for(thread.edit(name=name), RENAME_WAIT_SECONDS)
            except (discord.HTTPException, asyncio.TimeoutError) as error:
                log.info("Could not rename thread %s to %r: %s", thread.id, name, error)

        task = asyncio.create_task(rename(), name=f"deckhand-rename-{table.guild_id}-{table.id}")
        _RENAMING.add(task)
        task.add_done_callback(_RENAMING.discard)

    async def _open_thread(self, interaction: discord.Interaction, table: Table) -> None:
        """Start: a public thread from the lobby message, where the game is played.
        The game stays in the channel when the lobby is in a thread already (a
        Rematch), when the server turned threads off, or when Discord refuses (no
        Create Public Threads permission): then with a note saying so."""
        record = table.record
        if record.thread_id is not None or record.lobby_message_id is None or not await self.settings.threads_on(table.guild_id):
            return
        permissions = interaction.app_permissions
        if not permissions.create_public_threads:
            note = _("I could not open a thread for this game (I need the Create Public Threads permission here), so it is played in this channel.")
        else:
            thread_id, note = await self._create_thread(table)
            if thread_id is not None:
                await self._save_lobby(table, thread_id=thread_id)
                self.registry.track(table)
                return
        record.publish["note"] = note
        await self._save_lobby(table, publish=record.publish)

    async def _create_thread(self, table: Table) -> tuple[int | None, str]:
        """The game's thread from the lobby message: its id, or None and the note saying
        why the game stays in the channel. A server error (5xx, after discord.py's own
        tries) is tried again; only a refusal (permissions, limits) or server errors
        that outlast :data:`THREAD_RETRY_SECONDS` leave the game in the channel. A thread
        Discord made while its answer was lost (the next try is refused with 160004)
        is the game's thread: it has the lobby message's id."""
        record = table.record
        assert record.lobby_message_id is not None
        message = self.bot.get_partial_messageable(record.channel_id, guild_id=table.guild_id).get_partial_message(record.lobby_message_id)
        waits = list(THREAD_RETRY_SECONDS)
        while True:
            try:
                thread = await message.create_thread(name=thread_name(table), auto_archive_duration=1440)
            except discord.HTTPException as error:
                if error.code == THREAD_ALREADY_CREATED:
                    log.info("Table %s in guild %s: the thread of the lobby message was made by an earlier try", table.id, table.guild_id)
                    return record.lobby_message_id, ""
                if error.status >= 500 and waits:
                    wait = waits.pop(0)
                    log.info("Discord failed to open a thread for table %s in guild %s (%s); trying again in %.0f s", table.id, table.guild_id, error, wait)
                    await asyncio.sleep(wait)
                    continue
                log.warning("Could not open a thread for table %s in guild %s: %s", table.id, table.guild_id, error)
                if error.status >= 500:
                    return None, _("I could not open a thread for this game (Discord kept failing), so it is played in this channel.")
                return None, _("I could not open a thread for this game (Discord refused), so it is played in this channel.")
            return thread.id, ""

    async def cancel(self, interaction: discord.Interaction, table: Table) -> None:
        if not _can_manage(interaction, table):
            await _reply(interaction, _("Only the host, {host}, or someone with Manage Server can cancel this game.", host=f"<@{table.record.host_id}>"))
            return
        if await self.finder.over_share(interaction):  # the lobby's (and the board's) last edit
            return
        async with self._lobby_turn(interaction, table) as taken:
            if not taken:
                return
            if table.status not in repos.ACTIVE:
                await _reply(interaction, _("This game is already closed."))
                return
            was_playing = table.status == "playing"
            await self.lobby.close(table, "cancelled")
        note = _("Cancelled by {player}.", player=interaction.user.mention)
        if _is_component_on(interaction, table.record.lobby_message_id):
            await guard.edit_in_place(interaction, embed=self.messages.embed(table, note), view=None)
        else:
            await _reply(interaction, _("The {title} game was cancelled.", title=table.spec.title), ephemeral=False)
            await self.messages.edit(table, self.messages.embed(table, note), None)
        if was_playing:
            await self.messages.show_table_closed(table, note)

    async def rematch(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> None:
        """Rematch on a finished board: a lobby right here (the game's thread, or the
        channel), with the same players seated and the same options; Start plays it here.
        Its ids come from a custom_id: the server boundary first, and no storage is
        created for them."""
        refusal = guard.scope_refusal(interaction, guild_id)  # also checked by the button itself
        if refusal is not None:
            await _reply(interaction, refusal)
            return
        try:
            record = await self.finder.stored_record(guild_id, table_id)
        except TableError as error:
            await _reply(interaction, str(error))
            return
        if record is None:
            await _reply(interaction, _("That game no longer exists."))
            return
        if record.status != "finished":
            await _reply(interaction, _("Only a finished game offers a rematch."))
            return
        spec = self.games.get(record.game)
        if spec is None:
            await _reply(interaction, _("This server no longer runs {game}.", game=record.game))
            return
        if interaction.user.id not in record.players:
            await _reply(interaction, _("Only the players of that game can call a rematch; open a new lobby with `/{key} new`.", key=spec.key))
            return
        options = record.publish.get("lobby_options") or {k: v for k, v in record.options.items() if k != "carry"}
        await self.open_lobby(interaction, spec, dict(options), players=record.players, seat_choices=_sides_played(spec, record), house_rules=False,
                              names=record.publish.get("names"))


def _sides_played(spec: GameSpec, record: repos.TableRecord) -> dict[int, str]:
    """A rematch seats everyone on the side they played (Engines' Google or Yahoo, not
    the "either side" they may have joined with); they can still switch in the lobby."""
    choices = dict(record.seat_choices)
    if not spec.seat_choices or not record.state:
        return choices
    try:
        state = spec.game.from_json(record.state)
    except Exception:  # a damaged state: keep the lobby's choices
        log.warning("Could not read the sides of finished table %s", record.id)
        return choices
    offered = {choice for choice, _ in spec.seat_choices}
    for player in record.players:
        played = state.seat_choice(player)
        if played in offered:
            choices[player] = played
    return choices


#: A lobby lists every house rule while there are this few; past it, only those changed
#: from the usual setting are sentences and the rest are counted in one line (Onion has
#: fourteen, whose sentences would not fit the embed field).
LOBBY_RULES_LISTED = 6


def _option_lines(table: Table) -> list[str]:
    """Table options as sentences: the game's own options first (through its render
    module's ``table_option_lines`` when it has one), then the house rules by their
    descriptions, never their keys, in the order the game declares them."""
    spec = table.spec
    options = table.record.publish.get("lobby_options", table.record.options)
    own = {k: v for k, v in options.items() if spec.house_rule(k) is None and k not in ("carry", "players")}
    describe_own = getattr(spec.render, "table_option_lines", None)
    if describe_own is not None:
        carry = table.record.publish.get("carry")
        lines = list(describe_own(own, carry=carry) if carry and _takes(describe_own, "carry") else describe_own(own))
    else:  # the size is said above; carried state is not an option
        lines = [f"{key.replace('_', ' ').capitalize()}: **{value}**" for key, value in sorted(own.items())]
    # A game may word a house rule for this table, or leave out one it has no use
    # for (its render's ``house_rule_line``: Enid's plain mode has no limericks).
    own_line = getattr(spec.render, "house_rule_line", None)
    rules = []
    for rule in spec.house_rules:
        if rule.key in options:
            value = str(options[rule.key])
            line = own_line(rule.key, value, own) if own_line is not None else None
            if line != "":
                rules.append((rule, value, line or rule.sentence(value)))
    if len(rules) <= LOBBY_RULES_LISTED:
        return lines + [line for _, _, line in rules]
    changed = [line for rule, value, line in rules if value != rule.default]
    usual = len(rules) - len(changed)
    if usual:
        changed.append(ngettext("{n} other house rule is at their usual setting: `/settings show game:{key}` lists them.",
                                "{n} other house rules are at their usual setting: `/settings show game:{key}` lists them.", usual, key=spec.key) if changed
                       else ngettext("{n} house rule is at their usual setting: `/settings show game:{key}` lists them.",
                                     "{n} house rules are at their usual setting: `/settings show game:{key}` lists them.", usual, key=spec.key))
    return lines + changed


def _takes(function: Any, name: str) -> bool:
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def _can_manage(interaction: discord.Interaction, table: Table) -> bool:
    if interaction.user.id == table.record.host_id:
        return True
    permissions = interaction.permissions
    return bool(permissions and permissions.manage_guild)


def _is_component_on(interaction: discord.Interaction, message_id: int | None) -> bool:
    return (
        interaction.type == discord.InteractionType.component
        and interaction.message is not None
        and message_id is not None
        and interaction.message.id == message_id
    )
