"""The base of every game's cog: ``/<game> new`` and ``/<game> rules``.

A game's ``cog.py`` is a few lines: a subclass naming its :class:`GameSpec` and its
command group. Games with table options (Engines' 2 or 4 players) override ``new``.
"""

from __future__ import annotations

from typing import ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import guard
from bot.games import GameSpec


class GameCog(commands.GroupCog):
    spec: ClassVar[GameSpec]

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # As registered: with the platform's house rules (a computer replacing a leaver).
        self.spec = bot.games.add(self.spec)  # type: ignore[attr-defined,misc]

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await guard.answer_command_error(interaction, error)

    async def open_table(self, interaction: discord.Interaction, *, note: str = "", **options: str | int) -> None:
        await self.bot.tables.open_lobby(interaction, self.spec, dict(options), note=note)  # type: ignore[attr-defined]

    @app_commands.command(name="new", description="Open a lobby in this channel; others join with the buttons.")
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_table(interaction)
