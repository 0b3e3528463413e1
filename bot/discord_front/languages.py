"""Whose language a Discord message is written in (``bot/words/i18n.py`` does the writing).

- What only one person sees (their hand, their refusals and private answers) is in their
  Discord client's language: every interaction carries it (``interaction.locale``), and
  the latest one seen is kept for what is sent to them without an interaction (a live
  hand edited after someone else's move, a hand in DMs).
- What everyone sees (lobby, board, pings, results, votes, pictures' titles and alt
  text, computers' chat, log lines) is in the server's language: ``/settings language``,
  by default ``auto``, the server's preferred locale (a Community setting) when Deckhand
  speaks it, else English.

:func:`enter` runs first in every interaction (components, modals, slash commands), so
whatever the handler writes is in the clicker's language; code that writes for everyone
runs inside :func:`bot.i18n.for_everyone` and switches to the server's.
"""

from __future__ import annotations

import logging

import discord

from bot.words import i18n
from bot.core.settings import GuildSettings
from storage.db import StorageError

log = logging.getLogger(__name__)

AUTO = "auto"
#: What /settings language accepts.
CHOICES: tuple[str, ...] = (AUTO, *i18n.LANGUAGES)

#: Servers whose stored choice this process has read (a change through /settings
#: language here reads it again; see docs/owners/language.md for other processes).
_loaded: set[int] = set()


def resolve(client: discord.Client, guild_id: int, choice: str) -> str:
    """The language a stored choice means for this server now."""
    if choice != AUTO:
        return i18n.pick(choice)
    guild = client.get_guild(guild_id)
    return i18n.pick(str(guild.preferred_locale) if guild is not None else None)


async def load_server(client: discord.Client, settings: GuildSettings, guild_id: int, *, again: bool = False) -> str:
    """Make sure this process knows the server's language (read once, then kept)."""
    if guild_id not in _loaded or again:
        try:
            choice = await settings.language(guild_id)
        except StorageError as error:  # the database is down: English until it answers
            log.warning("Server %s's language could not be read (%s); English for now", guild_id, type(error).__name__)
            return i18n.server_language(guild_id)
        i18n.set_server_language(guild_id, resolve(client, guild_id, choice))
        _loaded.add(guild_id)
    return i18n.server_language(guild_id)


def reset() -> None:
    """A bot starting: nothing known yet about any server's or person's language."""
    _loaded.clear()
    i18n.forget_languages()


def forget_server(guild_id: int) -> None:
    """The server changed its language or its preferred locale: read it again next time."""
    _loaded.discard(guild_id)


async def enter(interaction: discord.Interaction) -> None:
    """At the start of every interaction: the clicker's language becomes current (and is
    remembered for what is later sent to them alone), and the server's is known."""
    i18n.set_language(i18n.remember_reader(interaction.user.id, str(interaction.locale)))
    tables = getattr(interaction.client, "tables", None)
    if interaction.guild_id is not None and tables is not None:
        await load_server(interaction.client, tables.guild_settings, interaction.guild_id)
