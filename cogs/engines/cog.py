"""Engines of Discrimination in Discord: the platform runs the lobby, hands, picks,
timers and restore; this file names the game and adds the table size to ``/engines new``.

- ``/engines new players:<2|4>`` opens the lobby (2 when the option is left out). The
  size is a table option; Start refuses a table whose player count differs, with a
  sentence saying who should leave or how many are missing (the shared lobby's Join
  only knows the game-wide maximum of 4: see ``prepare_table_options``).
- The lobby has Join buttons for "either side", Google and Yahoo. "Either side" is
  the default (the opener and ``/join`` get it), so players who do not choose are
  placed at random at Start.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import guard
from bot.discord_front.gamecog import GameCog
from bot.words.i18n import N_, _
from cogs.engines.spec import SPEC
from cogs.engines.rules import DEFAULT_TABLE_SIZE


class EnginesCog(GameCog, group_name="engines", group_description=N_("Engines of Discrimination: Google against Yahoo.")):
    spec = SPEC

    @app_commands.command(name="new", description=N_("Open an Engines of Discrimination table: 2 players, or 4 in two teams."))
    @app_commands.guild_only()
    @app_commands.describe(players=N_("2: Google against Yahoo (the default); 4: two teams of two"))
    @app_commands.choices(
        players=[
            app_commands.Choice(name=N_("2 players: Google against Yahoo"), value=2),
            app_commands.Choice(name=N_("4 players: two teams of two"), value=4),
        ]
    )
    async def new(self, interaction: discord.Interaction, players: int | None = None) -> None:
        # A plain int: a forged value outside the choices reaches this check and is
        # refused with a sentence instead of failing in discord.py's transformer.
        size = DEFAULT_TABLE_SIZE if players is None else players
        if size not in TABLE_SIZES:
            await guard.answer(interaction, _("An Engines table has 2 or 4 players, not {size}.", size=guard.clip(size, 20)))
            return
        await self.open_table(interaction, players=size)


TABLE_SIZES = (2, 4)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(EnginesCog(bot))
