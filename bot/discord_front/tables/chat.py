"""Chat: typed words at a table whose game listens for them (Enid's rituals), or
``/say`` where the bot cannot read chat."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.core import computer
from bot.words import i18n
from bot.rules.engine import Action, RuleError
from bot.words.i18n import _
from bot.core.moves import SaveFailed as _SaveFailed
from bot.discord_front.publish import Publisher
from bot.core.table import Table

log = logging.getLogger("bot.tables")


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


class Chat:
    """Words as moves. Handed ``at(guild_id, place)`` (the table at a channel or thread:
    ``Finder.active_in_channel``), the publisher (a message scrolls the board up) and
    ``play_as(table, user, action, source=...)`` (``Clicks.play_as``: a move without an
    interaction)."""

    def __init__(self, *, at: Callable[[int, int], Table | None], publisher: Publisher, play_as: Callable[..., Awaitable[Any]]) -> None:
        self._at, self.publisher, self._play_as = at, publisher, play_as

    async def on_chat(self, message: discord.Message) -> bool:
        """Typed chat at a table whose game listens for it (Enid's rituals)."""
        if message.guild is None or message.author.bot:
            return False
        table = self._at(message.guild.id, message.channel.id)
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
            return _("{title} has nothing to say out loud.", title=table.spec.title)
        if table.state is None or table.status != "playing":
            return _("The game is not in play.")
        if user not in table.state.players:
            return _("You are not playing in this game.")
        try:
            text = computer.addressed(text[:1900], table.state.players)  # "@Deckhand 2" addresses a computer seat
            await self._play_as(table, user, Action("say", arg=text), source="player")
        except RuleError as error:
            return str(error)
        except _SaveFailed:
            return _("I could not save that, so nothing changed. Please try again.")
        return None

    @i18n.for_everyone
    async def computer_said(self, table: Table, seat: int, text: str) -> None:
        """A computer's words go where a person's typed words are: a message of its own in
        the game's place (a thread, or the channel), not only the board's short log."""
        try:
            await self.publisher.place(table).send(content=f"{computer.name(seat)}: {computer.spoken(text)}"[:2000],
                                                   allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("Computer %s at table %s could not say its words: %s", seat, table.id, error)
            return
        self.publisher.note_chat(table)
