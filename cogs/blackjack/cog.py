"""Blackjack (the chaining shedding game) in Discord: everything is shared
platform code; this file only names the game."""

from __future__ import annotations

from discord.ext import commands

from bot.discord_front.gamecog import GameCog
from bot.words.i18n import N_
from cogs.blackjack.spec import SPEC


class BlackjackCog(GameCog, group_name="blackjack", group_description=N_("Blackjack, the chaining shedding game.")):
    spec = SPEC


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(BlackjackCog(bot))
