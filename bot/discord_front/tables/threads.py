"""A game's thread closed by a moderator (issue 27): deleted, or archived and locked.

A thread's state is a state of the table, not a transient error to retry:

- **deleted** (a ``THREAD_DELETE`` event, or Discord's 404 Unknown Channel on the
  board, or a command in the parent finding the thread gone): the game moves back to
  its parent channel, the table's place stored with it (``thread_id`` cleared), and a
  new board is posted there saying why; ``/hand``, ``/cancel`` and the rest then work
  there as for any game played in a channel. When the parent cannot take it (another
  table lives there, or the bot may not post there) the game ends: its row keeps its
  state, and the lobby message in the parent says what happened.
- **archived or locked** (a ``THREAD_UPDATE`` event, or Discord refusing the board
  with 50083 "Thread is archived", 160005 "Thread is locked", or 50001/50013 in a
  thread that turns out to be closed): the bot reopens it if it may (Manage Threads;
  an archived thread that is not locked can be reopened by anyone who may post in
  it); else the game is **paused**: ``record.publish["paused"]`` (stored), no timers,
  no computer moves, no board attempts, moves refused with a sentence, and one note
  in the parent channel. A ``THREAD_UPDATE`` that reopens the thread resumes it: the
  deadlines are moved on by the time paused and the board is shown again.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import sqlite3
from typing import Any

import discord

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.words import i18n
from bot.discord_front import guard
from bot.core.registry import TableRegistry
from bot.core.table import RECENT_LINES, Table
from bot.discord_front.common import now_ts
from bot.discord_front.paused import ACCESS_SENTENCE, PAUSED_SENTENCE, access_paused, is_paused, paused_sentence
from bot.discord_front.publish import Publisher
from bot.words.i18n import N_, _
from storage import repos
from storage.db import Storage, StorageError

if TYPE_CHECKING:
    from bot.discord_front.tables.lobby import LobbyMessages
    from bot.discord_front.tables.timers import TableTimers

__all__ = ["ACCESS_SENTENCE", "PAUSED_SENTENCE", "Threads", "access_paused", "is_paused", "paused_sentence"]

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module

UNKNOWN_CHANNEL = 10003
#: Discord's codes for a thread that takes no messages: "Thread is archived", "Thread is locked".
THREAD_CLOSED = {50083, 160005}
#: Missing Access / Missing Permissions: a locked thread, or a real permission problem;
#: the thread's own state decides which.
MAYBE_CLOSED = {50001, 50013}
#: A reopened thread that still refuses the board within this long is not reopened again.
REOPEN_GRACE_SECONDS = 120.0

#: While a game is paused for a permission taken from the bot, its board is tried again
#: this often (one refused request each time: 20 in Discord's 10-minute window).
ACCESS_PROBE_SECONDS = 30.0
#: What the board's place needs, in the words of Discord's permission settings.
PLACE_PERMISSIONS = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
    ("read_message_history", N_("Read Message History")),
)


class Threads:
    """A game's thread deleted, archived or locked, and a permission taken from the bot
    in a game's place. Handed the bot (its channels and events), the storage, the
    core's registry, the publisher, the lobby messages
    (:class:`bot.discord_front.tables.lobby.LobbyMessages`), the timers
    (:class:`bot.discord_front.tables.timers.TableTimers`), ``close(table, status)``
    (the core lobby's: persist a closed table and forget it) and ``owns(guild_id)``."""

    def __init__(
        self, *, bot: Any, storage: Storage, registry: TableRegistry, publisher: Publisher, lobby_messages: LobbyMessages,
        timers: TableTimers, close: Callable[[Table, str], Awaitable[None]], owns: Callable[[int | None], bool],
    ) -> None:
        self.bot, self.storage, self.registry, self.publisher, self.lobby_messages = bot, storage, registry, publisher, lobby_messages
        self.timers, self._close, self.owns = timers, close, owns
        #: Tables whose board is being tried again after a permission was taken from the
        #: bot (a refusal then is the probe's, not a new loss).
        self._access_probing: set[tuple[int, int]] = set()

    def listen(self) -> None:
        add_listener = getattr(self.bot, "add_listener", None)
        if callable(add_listener):
            add_listener(self.on_raw_thread_delete, "on_raw_thread_delete")
            add_listener(self.on_raw_thread_update, "on_raw_thread_update")

    def _table_in_thread(self, guild_id: int | None, thread_id: int) -> Table | None:
        if guild_id is None:
            return None
        table = self.registry.at(guild_id, thread_id)
        return table if table is not None and table.record.thread_id == thread_id else None

    # ------------------------------------------------------------------ events

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        table = self._table_in_thread(payload.guild_id, payload.thread_id)
        if table is None or not self.owns(table.guild_id):
            return
        async with table.lock:
            if table.record.thread_id == payload.thread_id:
                await self._thread_gone(table)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        table = self._table_in_thread(payload.guild_id, payload.thread_id)
        if table is None or table.status != "playing" or not self.owns(table.guild_id):
            return
        meta: dict[str, Any] = payload.data.get("thread_metadata") or {}
        archived, locked = bool(meta.get("archived")), bool(meta.get("locked"))
        async with table.lock:
            if table.status != "playing" or table.record.thread_id != payload.thread_id:
                return
            if archived or locked:
                if not is_paused(table):
                    await self._thread_closed(table, locked=locked)
            elif is_paused(table) and not access_paused(table):
                await self._resume(table)

    # ------------------------------------------------------------------ the board refused

    @i18n.for_everyone
    async def board_refused(self, table: Table, error: discord.HTTPException, *, final: bool = False) -> bool:
        """Called by the publisher when Discord refused the board. True when it was the
        thread (gone or closed) and has been dealt with here: no ordinary retry."""
        thread_id = table.record.thread_id
        code = getattr(error, "code", 0)
        if thread_id is None:
            # A game played in a channel: a permission taken from the bot there pauses it.
            if code in MAYBE_CLOSED and not final and table.status == "playing":
                await self._access_lost(table, code)
                return True
            return False
        if code not in THREAD_CLOSED | MAYBE_CLOSED | {UNKNOWN_CHANNEL}:
            return False
        if code in MAYBE_CLOSED and table.key in self._access_probing:
            await self._access_lost(table, code)  # paused for it already: still refused
            return True
        try:
            thread = await self.bot.fetch_channel(thread_id)
        except discord.NotFound:
            thread = None
        except discord.Forbidden:
            # The bot may not even see the thread now: a permission taken away.
            if code in MAYBE_CLOSED and not final and table.status == "playing":
                await self._access_lost(table, code)
                return True
            return False
        except discord.HTTPException:
            return False  # cannot tell: the ordinary retry
        if final:
            # The result is on the parent message already (the lobby message's last edit).
            return thread is None or _closed(thread)
        if thread is None:
            await self._thread_gone(table)
            return True
        if _closed(thread):
            await self._thread_closed(table, locked=bool(getattr(thread, "locked", False)), refused=True)
            return True
        if code in MAYBE_CLOSED and table.status == "playing":
            await self._access_lost(table, code)  # open, but the bot may no longer post there
            return True
        return False

    # ------------------------------------------------------------------ a permission taken away

    def _missing_permission(self, table: Table, code: int) -> str:
        """The permission (Discord's English name, translated where shown) the bot lacks in
        the game's place, from its cached permissions; else what the code means."""
        record = table.record
        guild = self.bot.get_guild(table.guild_id)
        me = guild.me if guild is not None else None
        place = guild.get_channel_or_thread(record.thread_id or record.channel_id) if guild is not None else None
        if me is not None and place is not None:
            permissions = place.permissions_for(me)
            in_thread = isinstance(place, discord.Thread)
            for flag, name in PLACE_PERMISSIONS:
                if flag == ("send_messages" if in_thread else "send_messages_in_threads"):
                    continue
                if not getattr(permissions, flag):
                    return name
        if code == 50001:
            return PLACE_PERMISSIONS[0][1]  # Missing Access: View Channel
        return PLACE_PERMISSIONS[2][1] if record.thread_id else PLACE_PERMISSIONS[1][1]

    @i18n.for_everyone
    async def _access_lost(self, table: Table, code: int) -> None:
        """Discord refused the game's place (403: a permission taken from the bot): paused
        as for a closed thread (no timers, no computer moves, moves refused with a
        sentence naming the permission), one note where the players can read it, and
        the board tried again every :data:`ACCESS_PROBE_SECONDS` until it goes through."""
        record = table.record
        probing = table.key in self._access_probing
        if is_paused(table) and not probing:
            return
        permission = self._missing_permission(table, code)
        record.publish["paused"] = {"since": now_ts(), "access": permission}
        table.needs_publish = True
        self.timers.cancel(table)
        await self.publisher.save_publish(table)
        if probing:
            return  # tried again and refused again: said already, and the probe's loop goes on
        self._probe_access_later(table)
        where = f"<#{record.thread_id or record.channel_id}>"
        log.warning("Table %s in guild %s is paused: Discord refused the bot its place %s (%s, %s missing)", table.id, table.guild_id, where, code, permission)
        note = _("⏸️ The {title} game #{id} is paused: I lost the {permission} permission in {where}, so I cannot show the game there. "
                 "It goes on by itself when the permission is given back (no turn timer runs meanwhile). The host can `/cancel` it.",
                 title=table.spec.title, id=table.id, permission=_(permission), where=where)
        if record.thread_id is not None:
            await self._say_in_parent(table, note)
        # The players' open hands say it too, through their tokens (no channel permission
        # needed): their status line is the paused sentence while it lasts.
        if table.state is not None:
            for player in table.state.players:
                with contextlib.suppress(discord.HTTPException):
                    await self.publisher.update_live_hand(table, player)

    def _probe_access_later(self, table: Table) -> None:
        async def probe() -> None:
            while table.status == "playing" and access_paused(table):
                await asyncio.sleep(ACCESS_PROBE_SECONDS)
                await self._retry_access(table)

        table.publish_retry = asyncio.create_task(probe(), name=f"deckhand-access-{table.guild_id}-{table.id}")

    @i18n.for_everyone
    async def _retry_access(self, table: Table) -> None:
        """Show the paused board again: if Discord takes it, the game goes on."""
        probing = self._access_probing
        async with table.lock:
            if table.status != "playing" or not access_paused(table):
                return
            self._unpause(table)
        probing.add(table.key)
        try:
            await self.publisher.publish(table, ping=table.record.turn_players, note=_("▶️ I can show the game here again: it goes on."))
        finally:
            probing.discard(table.key)
        if is_paused(table):
            return  # refused again: paused anew from now (the deadlines moved on up to now)
        log.info("Table %s in guild %s resumes: Discord takes its board again", table.id, table.guild_id)
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), publish=table.record.publish, deadline=table.record.deadline,
                                     obligations=table.record.obligations)
        self.timers.arm(table)

    # ------------------------------------------------------------------ deleted

    @i18n.for_everyone
    async def _thread_gone(self, table: Table) -> None:
        """The table's thread no longer exists (caller holds the lock, or publishes)."""
        record = table.record
        thread_id = record.thread_id
        if thread_id is None:
            return
        log.info("The thread %s of table %s in guild %s is gone", thread_id, table.id, table.guild_id)
        title = table.spec.title
        if table.status == "lobby":
            await self._close(table, "cancelled")
            await self._say_in_parent(table, _("⚠️ The thread of the {title} lobby #{id} was deleted, so the lobby is closed. Open a new lobby with `/{key} new`.", title=title, id=table.id, key=table.spec.key))
            return
        if table.status != "playing":
            return
        occupied = self.registry.by_place.get((table.guild_id, record.channel_id)) not in (None, table.id)
        if occupied:
            await self._end_homeless(table, _("The thread of {title} #{id} was deleted and this channel has another lobby or game, so the game ended here. Its state is saved.", title=title, id=table.id))
            return
        line = _("🧵 This game's thread was deleted, so the game goes on here in the channel.")
        kept = (record.thread_id, record.message_id, record.message_posted_at, copy.deepcopy(record.publish), list(record.recent), record.deadline, dict(record.obligations))
        self._unpause(table)
        record.thread_id = None
        record.message_id = None  # the board went with the thread
        record.message_posted_at = None
        record.publish.pop("votes", None)  # their messages too: posted anew here
        record.publish["after_board"] = 0
        record.recent = [*record.recent, line][-RECENT_LINES:]
        try:
            async with self.storage.transaction(table.guild_id) as db:
                await repos.update_table(
                    db, table.id, now=now_ts(), thread_id=None, message_id=None, message_posted_at=None,
                    publish=record.publish, recent=record.recent, deadline=record.deadline, obligations=record.obligations,
                )
        except sqlite3.IntegrityError:
            # Another process opened a table in the parent meanwhile (one table per place).
            _restore_fields(table, kept)
            await self._end_homeless(table, _("The thread of {title} #{id} was deleted and this channel has another lobby or game, so the game ended here. Its state is saved.", title=title, id=table.id))
            return
        except StorageError:
            _restore_fields(table, kept)  # not moved: the next publish finds the thread gone again
            raise
        self.registry.track(table)  # the parent channel is its place now
        self.timers.arm(table)
        table.board_error = None
        await self.publisher.publish(table, ping=record.turn_players, note=line)
        if table.needs_publish and isinstance(table.board_error, discord.Forbidden):
            parent = f"<#{record.channel_id}>"
            await self._end_homeless(table, _("The thread of {title} #{id} was deleted and I may not post in {parent}, so the game ended. Its state is saved.", title=title, id=table.id, parent=parent))
            return
        await self.lobby_messages.edit(table, self.lobby_messages.embed(table), None)  # no longer "In play in <#thread>"

    @i18n.for_everyone
    async def _end_homeless(self, table: Table, why: str) -> None:
        """A game with nowhere to be played: closed with its state kept in its row, and
        said where it can be (the lobby message in the parent, open hands)."""
        log.warning("Table %s in guild %s: %s", table.id, table.guild_id, why)
        await self._close(table, "cancelled")
        with contextlib.suppress(discord.HTTPException):
            await self.publisher.close_hands(table, _("{title} #{id} ended. {why}", title=table.spec.title, id=table.id, why=why))
        await self.lobby_messages.edit(table, self.lobby_messages.embed(table, why), None)

    @i18n.for_everyone
    async def _say_in_parent(self, table: Table, text: str) -> None:
        channel = self.bot.get_partial_messageable(table.record.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(guard.fit(text), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("Could not post in the parent channel of table %s in guild %s: %s", table.id, table.guild_id, error)

    async def find_lost(self, guild_id: int, channel_id: int, user_id: int) -> Table | None:
        """A command in a parent channel that found no table: the user's game played in
        a thread of this channel whose thread is gone (then moved here) or paused (then
        reachable from here). The thread is looked up in the cache first; a REST call
        only for one the cache does not know."""
        for table in self.registry.all():
            record = table.record
            if table.guild_id != guild_id or record.channel_id != channel_id or record.thread_id is None or table.status != "playing":
                continue
            if user_id not in record.players and user_id != record.host_id:
                continue
            if is_paused(table):
                return table
            thread = self.bot.get_channel(record.thread_id)
            if thread is None:
                try:
                    thread = await self.bot.fetch_channel(record.thread_id)
                except discord.NotFound:
                    thread = None
                except discord.HTTPException:
                    continue
                if thread is None:
                    async with table.lock:
                        if record.thread_id is not None:
                            await self._thread_gone(table)
                    found = self.registry.at(guild_id, channel_id)
                    if found is table:
                        return table
                    continue
            if _closed(thread):
                async with table.lock:
                    if not is_paused(table):
                        await self._thread_closed(table, locked=bool(getattr(thread, "locked", False)))
                if is_paused(table):
                    return table
        return None

    # ------------------------------------------------------------------ archived, locked

    def _may_reopen(self, table: Table, locked: bool) -> bool:
        guild = self.bot.get_guild(table.guild_id)
        me = guild.me if guild is not None else None
        parent = guild.get_channel(table.record.channel_id) if guild is not None else None
        if me is None or parent is None:
            return not locked
        permissions = parent.permissions_for(me)
        return permissions.manage_threads or (not locked and permissions.send_messages_in_threads)

    @i18n.for_everyone
    async def _thread_closed(self, table: Table, *, locked: bool, refused: bool = False) -> None:
        """Reopen the thread if the bot may, else pause the game (caller holds the lock,
        or publishes). ``refused``: the board was refused (it still has to be shown)."""
        record = table.record
        if table.status != "playing" or record.thread_id is None or is_paused(table):
            return
        recently = table.reopened_at is not None and now_ts() - table.reopened_at < REOPEN_GRACE_SECONDS
        if self._may_reopen(table, locked) and not recently:
            try:
                await self.bot.http.edit_channel(record.thread_id, archived=False, **({"locked": False} if locked else {}), reason="Deckhand: a game is played in this thread")
            except discord.HTTPException as error:
                log.info("Could not reopen the thread %s of table %s: %s", record.thread_id, table.id, error)
            else:
                log.info("Reopened the thread %s of table %s in guild %s", record.thread_id, table.id, table.guild_id)
                table.reopened_at = now_ts()
                if refused:
                    table.needs_publish = True
                    self.timers.schedule_publish_retry(table)
                return
        await self._pause(table, locked=locked)

    @i18n.for_everyone
    async def _pause(self, table: Table, *, locked: bool) -> None:
        record = table.record
        record.publish["paused"] = {"since": now_ts(), "locked": locked}
        table.needs_publish = True  # shown when it resumes
        self.timers.cancel(table)
        self.publisher.forget_table(table)
        await self.publisher.save_publish(table)
        what = "locked" if locked else "archived"
        log.info("Table %s in guild %s is paused: its thread %s was %s", table.id, table.guild_id, record.thread_id, what)
        await self._say_in_parent(
            table,
            (_("⏸️ The {title} game #{id} is paused: its thread {thread} was locked by a moderator, so I cannot show the game there. "
               "It goes on when the thread is reopened (no turn timer runs meanwhile). The host can `/cancel` it from here.",
               title=table.spec.title, id=table.id, thread=f"<#{record.thread_id}>") if locked else
             _("⏸️ The {title} game #{id} is paused: its thread {thread} was archived by a moderator, so I cannot show the game there. "
               "It goes on when the thread is reopened (no turn timer runs meanwhile). The host can `/cancel` it from here.",
               title=table.spec.title, id=table.id, thread=f"<#{record.thread_id}>")),
        )

    def _unpause(self, table: Table) -> bool:
        """Clear the pause, moving the deadlines on by the time paused. True if it was paused."""
        record = table.record
        paused = record.publish.pop("paused", None)
        if not paused:
            return False
        since = paused.get("since") if isinstance(paused, dict) else None
        shift = max(0.0, now_ts() - float(since)) if isinstance(since, (int, float)) else 0.0
        if record.deadline is not None:
            record.deadline += shift
        record.obligations = {key: [player, float(deadline) + shift] for key, (player, deadline) in record.obligations.items()}
        return True

    @i18n.for_everyone
    async def _resume(self, table: Table) -> None:
        """The thread was reopened: timers again, and the board brought up to date there."""
        if not self._unpause(table):
            return
        record = table.record
        log.info("Table %s in guild %s resumes: its thread %s was reopened", table.id, table.guild_id, record.thread_id)
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), publish=record.publish, deadline=record.deadline, obligations=record.obligations)
        self.timers.arm(table)
        await self.publisher.publish(table, ping=record.turn_players, note=_("▶️ The thread was reopened: the game goes on."))

    async def recheck_thread(self, table: Table) -> None:
        """After a restart: a paused table's thread may have been reopened (or deleted)
        while the bot was away."""
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.bot.wait_until_ready()
            if access_paused(table):
                await self._retry_access(table)  # paused for a permission: is it back?
                return
            thread_id = table.record.thread_id
            if thread_id is None:
                return
            try:
                thread = await self.bot.fetch_channel(thread_id)
            except discord.NotFound:
                thread = None
            async with table.lock:
                if table.status != "playing" or table.record.thread_id != thread_id:
                    return
                if thread is None:
                    await self._thread_gone(table)
                elif not _closed(thread) and is_paused(table):
                    await self._resume(table)


def _restore_fields(table: Table, kept: tuple[Any, ...]) -> None:
    record = table.record
    record.thread_id, record.message_id, record.message_posted_at, record.publish, record.recent, record.deadline, record.obligations = kept


def _closed(thread: Any) -> bool:
    return bool(getattr(thread, "archived", False) or getattr(thread, "locked", False))
