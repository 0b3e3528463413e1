"""The base of every game's cog: ``/<game> new`` and ``/<game> rules``.

A game's ``cog.py`` is a few lines: a subclass naming its :class:`GameSpec` and its
command group. Games with table options (Engines' 2 or 4 players) override ``new``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import guard
from bot.discord_front import languages
from bot.core.games import GameSpec
from bot.words.i18n import N_

if TYPE_CHECKING:
    from bot.discord_front.tables import TableManager


class AnswersCommandErrors:
    """Every Deckhand cog: a failing slash command is answered with a sentence."""

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await guard.answer_command_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Runs before each of the cog's slash commands: answers in the user's language."""
        await languages.enter(interaction)
        return True


class PlatformCog(AnswersCommandErrors, commands.Cog):
    """The base of the cogs that are not one game's (settings, stats, profiles, privacy)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def tables(self) -> TableManager:
        return self.bot.tables  # type: ignore[attr-defined]


class GameCog(AnswersCommandErrors, commands.GroupCog):
    spec: ClassVar[GameSpec]

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # As registered: with the platform's house rules (a computer replacing a leaver).
        self.spec = bot.games.add(self.spec)  # type: ignore[attr-defined,misc]

    async def open_table(self, interaction: discord.Interaction, *, note: str = "", **options: str | int) -> None:
        await self.bot.tables.open_lobby(interaction, self.spec, dict(options), note=note)  # type: ignore[attr-defined]

    @app_commands.command(name="new", description=N_("Open a lobby in this channel; others join with the buttons."))
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_table(interaction)
