"""Idiot in Discord: everything is shared platform code (lobby, hands, moves,
timers, restore); this file only names the game.

How the platform carries Idiot's two phases:

- Swap phase: ``current_players()`` is everyone not yet ready, so every player's
  hand view offers the swaps (a select) and Ready at once. The turn timer armed at
  Start is the phase timer: when it fires, the platform applies
  ``timeout_action`` (``ready``) for each player still swapping.
- Play phase: one player at a time; plays of one or several cards of one value are
  single options of the select, Pick up and the blind face-down positions are buttons.
"""

from __future__ import annotations

from discord.ext import commands

from bot.discord_front.gamecog import GameCog
from bot.words.i18n import N_
from cogs.idiot.spec import SPEC


class IdiotCog(GameCog, group_name="idiot", group_description=N_("Idiot: shed your hand, then your face-up and face-down cards.")):
    spec = SPEC


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(IdiotCog(bot))
